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
  RECORDED_SESSION_STATUSES,
  ROLE_TITLES,
  ROLES,
  SESSION_STATUSES,
  type Language,
  type Phase,
  type PhaseLabel,
  type RecordedSessionStatus,
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
export { refuseCall, TDD_PHASES } from './tdd/phases';
export { isTestFile, type TestFileRules } from './tdd/boundaries/isTestFile';
// What a phase of your own is handed: a small host, its attempts, the files they changed (types only: the supervisor
// builds them; the loop's own state, test runs, commits and record stay inside).
export type {
  CycleSoFar,
  FileRefusal,
  FileRule,
  PhaseAttempt,
  PhaseHost,
  PhaseResult,
  PhaseSpec,
  PhaseVerdict,
  TurnCheckpoint,
} from './tdd/phases/phaseContract';
export type { KataInfo } from './tdd/phases/loopSetup';
export type { TurnFiles } from './tdd/phases/testRuns';
export type { ChangedFile, FileChange } from './tdd/git/changedFiles';

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
export { GitOperationError, inspectWorkspace, type PersonRepository, type WorkspaceFacts } from './tdd/git';
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
  EvalExerciseSchema,
  EvalLanguageSchema,
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
  type AcceptanceResult,
  type DisciplineEvents,
  type EvalComparison,
  type EvalComparisonRow,
  type EvalExercise,
  type EvalFrontEnd,
  type EvalKataSummary,
  type EvalLanguage,
  type EvalOptions,
  type EvalOutcome,
  type EvalProgress,
  type EvalReport,
  type EvalReportPart,
  type EvalRunOptions,
  type EvalRunResult,
  type EvalSet,
  type EvalSetIdentity,
  type EvalShard,
  type EvalStop,
  type EvalSummary,
  type MergedEvalReport,
  type TokenPrice,
} from './eval';

// The types of tdd-agent/core that the names above use, again here as types (each value has one home, tdd-agent/core;
// a program importing only this entry point can still name them)
export type {
  AgentError,
  AgentLifecycle,
  AgentToPersonMessage,
  agentToPersonMessageSchema,
  APPROVAL_OUTCOMES,
  ApprovalAnswer,
  ApprovalOutcome,
  ApprovalPolicyConfig,
  approvalPolicyConfigSchema,
  ApprovalRequestInput,
  ChatMessage,
  ControlProtocol,
  ControlProtocolOptions,
  ControlTransport,
  DANGER_LEVELS,
  DangerLevel,
  ERROR_CODES,
  ErrorCode,
  ErrorInfo,
  FinishReason,
  HookAction,
  JsonSchemaResponseFormat,
  LaunchEnd,
  LlmCallOptions,
  LlmClient,
  LlmResult,
  LlmToolCall,
  Logger,
  MaybePromise,
  McpConnectionState,
  McpServerConfig,
  mcpServerConfigSchema,
  McpServerStatus,
  ProcessLaunch,
  ProcessSandbox,
  ProviderName,
  QuestionAnswer,
  ResponseFormat,
  RUNNER_KINDS,
  RunnerKind,
  SANDBOX_MODES,
  SandboxKind,
  SandboxMode,
  TestCaseOutcome,
  TestCaseResult,
  TestErrorKind,
  TestRunner,
  TestRunOptions,
  TestRunResult,
  TestRunScope,
  TestRunStatus,
  TestSubset,
  TokenUsage,
  ToolCallPreviewMessage,
  toolCallPreviewSchema,
  ToolCallResult,
  ToolSpec,
  UserInputMessage,
  userInputSchema,
  WrappedLaunch,
} from './index';
