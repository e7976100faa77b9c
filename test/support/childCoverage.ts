// Loaded with test/support/isolatedCache.ts (it imports this file). Under c8 (`npm test`) every mocha worker has
// NODE_V8_COVERAGE in its environment, and Node copies it into every process the worker starts: the katas' test
// runs, the CLI, MCP servers, example programs, build tools. Their coverage is not the project's (generated kata
// code, dependencies, the built bundle), yet collecting it made each of the several hundred `node --test` runs of
// the kata sessions about half as slow again. So a worker removes the variable from its own environment (Node
// fixed the worker's own coverage folder when it started, so that is still written) and its children collect
// none, except where a test hands it on with `withCoverage()` to a child that runs `src/core` itself. The main
// process keeps it: it starts the workers, and mocha copies its environment into each (with MOCHA_WORKER_ID).
const coverageDir = process.env.NODE_V8_COVERAGE;
if (process.env.MOCHA_WORKER_ID !== undefined) delete process.env.NODE_V8_COVERAGE;

/** This process's environment, with coverage collected in the child as it is here: for a child that runs `src/core`. */
export function withCoverage(): NodeJS.ProcessEnv {
  return coverageDir ? { ...process.env, NODE_V8_COVERAGE: coverageDir } : { ...process.env };
}
