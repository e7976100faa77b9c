// Loaded with test/support/isolatedCache.ts (it imports this file), in mocha's main process before it starts
// its workers, so the workers and every process they start inherit the change. NODE_EXTRA_CA_CERTS (set on this
// project's machines, CI's included) makes every Node process read and parse a certificate bundle as it
// starts: about 130 ms of CPU each, measured here (`node -e 0`: 0.18 s with it, 0.05 s without). The suite
// starts several hundred Node processes (test runs of the katas, the CLI, MCP servers, example programs) and
// none of them speaks TLS: every server a test reaches is on loopback over plain HTTP, and npm, the one tool
// that reaches the registry (the TypeScript kata's install), reads its own `cafile` setting (set here too).
delete process.env.NODE_EXTRA_CA_CERTS;

export {};
