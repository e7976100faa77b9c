/**
 * `tdd-agent/tdd`, the TDD session API: `import { runKataSession } from 'tdd-agent/tdd'`. A kata session
 * (`runKataSession`) and the events it emits, the summary it returns; katas (bundled, from a file, from a task);
 * the sessions a workspace keeps (list, preview and merge, delete, prune); the project profile a session detects;
 * the test runners it runs. The model client, agents, tools and the control protocol a session takes come from
 * `tdd-agent/core`, and so do the types of theirs this entry point's names use.
 *
 * Every name is exported on purpose, one by one: the list is the public API, recorded in `api/tdd.api.md` and
 * explained in docs/api-tdd.md. The supervisor's parts (the cycle loop, checkpoints, role runners, git plumbing,
 * dependency installs) are internal.
 * @packageDocumentation
 * @module tdd-agent/tdd
 */

// A session
export { runKataSession, type KataSessionOptions } from './tdd/supervisor/kataSession';
export {
  isLanguage,
  LANGUAGES,
  languagesInWords,
  PHASE_LABELS,
  PHASES,
  ROLE_TITLES,
  ROLES,
  SESSION_STATUSES,
  type Language,
  type Phase,
  type Role,
  type SessionStatus,
} from './vocabulary';
export {
  CYCLE_OUTCOMES,
  PHASE_OUTCOMES,
  QUESTION_OUTCOMES,
  ROLE_ERROR_CODES,
  type CycleOutcome,
  type PhaseOutcome,
  type QuestionOutcome,
  type RoleErrorCode,
} from './tdd/sessionVocabulary';
export type { SupervisorEvent, SupervisorEventListener, TestCounts } from './tdd/events';
export {
  CycleSummarySchema,
  PhaseSummarySchema,
  SessionSummarySchema,
  SessionTotalsSchema,
  type CycleSummary,
  type PhaseSummary,
  type SessionSummary,
  type SessionTotals,
} from './tdd/sessionSummary';
export type { RoleRunner, RoleRunners, RoleTurn, RoleTurnResult } from './tdd/roles/roleRunner';

// Phases as data and role rules as hooks (docs/extending.md: a Reviewer, a custom role rule)
export {
  refuseCall,
  TDD_PHASES,
  type CycleSoFar,
  type FileRule,
  type PhaseAttempt,
  type PhaseHost,
  type PhaseResult,
  type PhaseSpec,
  type PhaseVerdict,
} from './tdd/phases';
export { isTestFile, type TestFileRules } from './tdd/boundaries/isTestFile';
// What a phase's judge, file rule and context are handed (types only: the supervisor builds them).
export type { FileRefusal, KataInfo, LoopSetup, LoopState, TestRuns, TurnFiles } from './tdd/phases';
export type { LoadFailure, SuiteState } from './tdd/judging/testJudgement';
export type { SourceTest } from './tdd/phases/addedTests';
export type { RedTest, RedTestLedger } from './tdd/phases/redTests';
export type { StatedExample } from './tdd/kata/statedExamples';
export type { LoopGit } from './tdd/commits/loopGit';
export type { ChangedFile, FileChange } from './tdd/git/changedFiles';
export type { PhaseCheckpoint } from './tdd/commits/phaseCheckpoint';
export type { CommittedTreeState, SessionCommits, SessionCommitsOptions } from './tdd/commits/sessionCommits';
export type { GateFailure } from './tdd/judging/qualityGates';
export type { PersonQuestions } from './tdd/roles/personQuestions';
export type { SessionCounter, SessionRecorder, TurnOutcome } from './tdd/session/sessionRecorder';

// Katas
export {
  bundledKatasDir,
  KataError,
  KataFrontMatterSchema,
  listBundledKatas,
  loadKata,
  MAX_TASK_CHARS,
  parseKata,
  resolveKata,
  taskKata,
  type BundledKata,
  type Kata,
  type KataFrontMatter,
  type ParseKataOptions,
  type TaskSpec,
} from './tdd/kata';

// The sessions a workspace keeps
export {
  CycleStateSchema,
  deleteSession,
  formatDiskUsage,
  listSessions,
  mergeBlocker,
  mergeSession,
  PhaseRecordSchema,
  previewMerge,
  pruneSessions,
  QuestionRecordSchema,
  recordedStatus,
  RoleResultSchema,
  SessionLockedError,
  SessionMetricsSchema,
  SessionStateError,
  SessionStateSchema,
  type CycleState,
  type MergeFileChange,
  type MergeOptions,
  type MergePreview,
  type MergeResult,
  type PhaseRecord,
  type QuestionRecord,
  type RoleResult,
  type SessionListing,
  type SessionLockHolder,
  type SessionMetrics,
  type SessionState,
} from './tdd/session';
export { leaveOutSessionSetup, sessionSetupOf, type SessionSetup, type SetupFreeHistory } from './tdd/session/setupFreeHistory';
export { GitOperationError, inspectWorkspace, type WorkspaceFacts } from './tdd/git';
export { INITIAL_COMMIT_SUBJECT } from './tdd/git/setupCommits';
export { sessionTestSandbox, type SessionTestSandbox, type SessionTestSandboxOptions } from './tdd/supervisor/sessionTestSandbox';

// The project profile
export {
  describeProjectProfile,
  detectProjectProfile,
  FIELD_SOURCES,
  PACKAGE_MANAGERS,
  PROFILE_FIELDS,
  PROJECT_CONFIG_FILE,
  ProjectConfigSchema,
  readProjectConfig,
  relativePathProblem,
  resolveProjectProfile,
  type FieldSource,
  type PackageManager,
  type ProfileDescription,
  type ProfileField,
  type ProjectConfig,
  type ProjectOverrides,
  type ProjectProfile,
  type ProjectSettings,
  type PythonEnvironment,
  type ResolveProfileOptions,
} from './project';
export { LANGUAGE_NAMES, RUNNER_NAMES } from './project/describeProfile';

// Test runners (the `TestRunner` interface and its result types are `tdd-agent/core`'s: the `run_tests` tool takes one)
export {
  CommandTestRunner,
  detectTestRunner,
  identifyRunner,
  TestConfigError,
  TestRunnerNotFoundError,
  type CommandTestRunnerOptions,
  type DetectTestRunnerOptions,
  type DiagnosedTestRunResult,
} from './testRunners';

// Evaluating a model on a set of katas (what `tdd-agent eval` and the extension's Evaluate a model run)
export {
  acceptanceFor,
  bundledEvalSetDir,
  compareModels,
  defaultConcurrency,
  describeEvalSet,
  evalFolderStamp,
  loadEvalSet,
  matchExercises,
  mergeEvalReports,
  parseShard,
  priceTableShape,
  progressFigure,
  readEvalReport,
  renderComparison,
  renderMarkdown,
  replayCommand,
  runEval,
  selectExercises,
  type EvalOptions,
  type EvalOutcome,
  type EvalProgress,
  type EvalReport,
  type EvalReportPart,
  type EvalRunResult,
} from './eval';
