/** Test runners: detection, one run with a diagnosis, and the output parsers. */
export type {
  TestCaseOutcome,
  TestCaseResult,
  TestRunner,
  TestRunOptions,
  TestRunResult,
  TestRunScope,
  TestRunStatus,
  TestSubset,
} from './types';
export {
  CommandTestRunner,
  DEFAULT_TEST_TIMEOUT_MS,
  type DiagnosedTestRunResult,
  type CommandTestRunnerOptions,
} from './commandTestRunner';
export { detectTestRunner, type DetectTestRunnerOptions } from './detectTestRunner';
export { runnerInFolder } from './folderTestRunner';
export { TestConfigError, TestRunnerNotFoundError } from './errors';
export { identifyRunner, parserFor, RUNNER_KINDS, type RunnerKind } from './runnerKinds';
export { diagnoseLoadError, type LoadProblem, type TestErrorKind } from './diagnoseLoadError';
export { findTestFiles, hasTestFileName, looksLikeTestFile } from './testFiles';
export { truncateHeadTail, DEFAULT_OUTPUT_LIMIT } from './truncateOutput';
