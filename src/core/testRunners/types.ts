import type { TestErrorKind } from './diagnoseLoadError';

/**
 * How a test run ended. `failed`: the tests ran and at least one failed. `error`: the tests could
 * not run at all (syntax error, import error, missing module, no runner). `timeout`: killed after the limit.
 */
export type TestRunStatus = 'passed' | 'failed' | 'error' | 'timeout' | 'cancelled';

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
}

/** Runs a workspace's tests; implemented per runner (node:test, mocha, jest, vitest, pytest, a kata's own command). */
export interface TestRunner {
  readonly name: string;
  readonly command: string;
  /** Runs the tests once: counts, status (passed / failed / error / timeout) and the output. */
  run(options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<TestRunResult>;
}
