/**
 * Child processes whose V8 coverage is not collected under c8. A test worker's children already collect none
 * (workerCoverage.ts removes the variable there); mocha's main process, which runs the test builds
 * (testBuilds.ts) before it starts the workers, still has it. Node copies the parent's NODE_V8_COVERAGE into
 * every child's environment unless that environment names the variable itself, so leaving it out is not enough:
 * it must be present and empty (which Node reads as "no coverage").
 */
const NO_COVERAGE = { NODE_V8_COVERAGE: '' } as const;

/**
 * The environment for build tools a test starts (npm, tsc, esbuild), and for programs run against the built
 * library: this process's, without coverage. The tools' coverage is not the project's (collecting it made tsc
 * half as slow again under `npm test`); the built library's adds no line the in-process tests do not cover.
 */
export function toolEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...NO_COVERAGE };
}
