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

/**
 * Which tests a run ran: `full`, the whole suite as the test command runs it; `related`, only a subset (the changed
 * and new test files, and the tests the runner relates to changed production files, see {@link TestSubset}).
 */
export type TestRunScope = 'related' | 'full';

/** A subset of the suite to run: what changed in a phase. */
export interface TestSubset {
  /** Test files to run, workspace-relative with forward slashes (pytest node ids `file::test` are accepted). */
  testFiles: readonly string[];
  /**
   * Production files that changed, workspace-relative: jest (`--findRelatedTests`) and vitest (`vitest related`) run
   * the tests that import them; node:test, mocha and pytest cannot tell, and run the test files only.
   */
  sourceFiles?: readonly string[];
}

/** Options of one test run. */
export interface TestRunOptions {
  signal?: AbortSignal;
  /** Time limit of this run (the runner has its own default). */
  timeoutMs?: number;
  /**
   * Run only this subset of the suite. When the test command cannot be narrowed to it (a custom command, a chain, a
   * script that names its own files, nothing left to run), the whole suite runs once instead and the result says why
   * (`scope: 'full'`, `fullRunReason`).
   */
  only?: TestSubset;
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
   * For `missing_module` / `missing_export`: the module or the name that was not found (as the runner wrote it); for
   * `plugin_missing`: the plugins' packages.
   */
  missingName?: string;
  /**
   * Each test's result, when the runner's machine-readable report could be read (undefined otherwise: then only the
   * counts are known). Judgement by test identity (which tests are new, which broke) reads this.
   */
  tests?: TestCaseResult[];
  /** Which tests ran; a runner that does not say ran the whole suite. */
  scope?: TestRunScope;
  /** For a `related` run: the files given to the runner (workspace-relative). */
  relatedFiles?: string[];
  /** A subset was asked for (`only`) but the command could not be narrowed to it: why the whole suite ran instead. */
  fullRunReason?: string;
}

/** Runs a workspace's tests; implemented per runner (node:test, mocha, jest, vitest, pytest, a kata's own command). */
export interface TestRunner {
  readonly name: string;
  readonly command: string;
  /**
   * Runs the tests once: counts, status (passed / failed / error / timeout) and the output. With `only`, just that
   * subset of the suite when the command can be narrowed to it (see {@link TestRunOptions.only}).
   */
  run(options?: TestRunOptions): Promise<TestRunResult>;
}
