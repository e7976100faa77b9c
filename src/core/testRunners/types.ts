import type { TestErrorKind } from './diagnoseLoadError';

/**
 * How a test run ended. `failed`: the tests ran and at least one failed. `error`: the tests could
 * not run at all (syntax error, import error, missing module, no runner). `timeout`: killed after the limit.
 */
export type TestRunStatus = 'passed' | 'failed' | 'error' | 'timeout' | 'cancelled';

/** How one test ended. */
export type TestCaseOutcome = 'passed' | 'failed' | 'skipped';

/**
 * One test of a run, read from the runner's machine-readable reporter (JSON, JUnit XML, TAP) where it has one.
 * `id` identifies the test across runs: `<file>::<full name>` (the describe blocks and the test's title joined with
 * ` > `), with the file workspace-relative and forward-slashed; without a file, the full name alone.
 */
export interface TestCaseResult {
  id: string;
  /** The test's full name (describe blocks and title joined with ` > `). */
  name: string;
  /** Workspace-relative file, forward slashes, when the reporter says. */
  file?: string;
  outcome: TestCaseOutcome;
  /** The assertion or error message of a failed test (first lines). */
  message?: string;
  /** 1-based line of the test (or of the failure) in `file`, when known. */
  line?: number;
  durationMs?: number;
}

/** The result of one run of a workspace's tests, as the supervisor and the `run_tests` tool see it. */
export interface TestRunResult {
  status: TestRunStatus;
  passed: number;
  failed: number;
  total: number;
  /** Combined output, truncated with a marker when long. */
  output: string;
  /** The command line that ran. */
  command: string;
  exitCode: number | null;
  durationMs: number;
  /** For `error`/`timeout`: one line a person (or the model) can act on. */
  reason?: string;
  /** For `error`: why the tests could not run (a runner that diagnoses its output sets it). */
  errorKind?: TestErrorKind;
  /**
   * Each test's result, when the runner's machine-readable report could be read (undefined otherwise: then only the
   * counts are known). Judgement by test identity (which tests are new, which broke) reads this.
   */
  tests?: TestCaseResult[];
}

/** Runs a workspace's tests; implemented per runner (node:test, mocha, jest, vitest, pytest, a kata's own command). */
export interface TestRunner {
  readonly name: string;
  readonly command: string;
  /** Runs the tests once: counts, status (passed / failed / error / timeout) and the output. */
  run(options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<TestRunResult>;
}
