// Coverage of the mocha workers under c8 (`npm test`, NODE_V8_COVERAGE set). Loaded with test/support/isolatedCache.ts
// (it imports this file), so once in every worker. The folder is read once, here, before anything changes the
// environment: both parts below depend on it.
const coverageDir = process.env.NODE_V8_COVERAGE;

// A `--parallel` worker writes its coverage when it exits, which for a worker that has run many files takes more than
// the second mocha's worker pool waits before it sends SIGTERM; by default that signal ends the process at once and
// the worker's coverage is lost (measured: 96.5 % lines instead of 97.9 %). Here SIGTERM exits the normal way
// instead, so the coverage is written first.
if (coverageDir) process.on('SIGTERM', () => process.exit(143));

// Node copies NODE_V8_COVERAGE into every process a worker starts: the katas' test runs, the CLI, MCP servers,
// example programs, build tools. Their coverage is not the project's (generated kata code, dependencies, the built
// bundle), yet collecting it made each of the several hundred `node --test` runs of the kata sessions about half as
// slow again. So a worker removes the variable from its own environment (Node fixed the worker's own coverage
// folder when it started, so that is still written) and its children collect none, except where a test hands it on
// with `withCoverage()` to a child that runs `src/core` itself. The main process keeps it: it starts the workers,
// and mocha copies its environment into each (with MOCHA_WORKER_ID).
if (process.env.MOCHA_WORKER_ID !== undefined) delete process.env.NODE_V8_COVERAGE;

/** This process's environment, with coverage collected in the child as it is here: for a child that runs `src/core`. */
export function withCoverage(): NodeJS.ProcessEnv {
  return coverageDir ? { ...process.env, NODE_V8_COVERAGE: coverageDir } : { ...process.env };
}
