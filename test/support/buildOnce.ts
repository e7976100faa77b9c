/**
 * A build the tests need (the CLI bundle, the example programs), done once per test run. `npm test` and
 * `npm run test:integration` do every one in mocha's main process before any worker starts (testBuilds.ts, their
 * global fixture) and say so to the workers in the environment, which they inherit; a focused run of one file does
 * it in that file's `before` hook. Once also means no test rewrites a bundle while another worker is starting it.
 */
export async function buildOncePerRun(flag: string, build: () => Promise<unknown>): Promise<void> {
  if (process.env[flag] === '1') return;
  await build();
  process.env[flag] = '1';
}
