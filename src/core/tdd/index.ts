/**
 * The TDD supervisor: kata sessions (`runKataSession`), the events they emit, the session summary and
 * state, and the pieces they are built from (katas, git workspace, role boundaries, scaffolds, roles).
 */
export * from './events';
export { runKataSession, type KataSessionOptions } from './supervisor/kataSession';
export * from './supervisor/sessionSummary';
export { SessionRecorder, type NewSessionInfo, type SessionCounter, type TurnOutcome } from './supervisor/sessionRecorder';
export { PersonQuestions, type PersonQuestionsOptions } from './supervisor/personQuestions';
export { CycleLoop, type CycleLoopOptions, type CycleLoopResult } from './supervisor/cycleLoop';
export * from './phases';
export { SessionCommits, type SessionCommitsOptions } from './supervisor/sessionCommits';
export { PhaseCheckpoint, type CheckpointGit } from './supervisor/phaseCheckpoint';
export { runQualityGates, type GateFailure } from './supervisor/qualityGates';
export {
  prepareProject,
  projectProfileEvent,
  projectRunnerOptions,
  resolveSessionKata,
  type SessionKataRequest,
} from './supervisor/workspaceSetup';
export {
  installDependencies,
  INSTALL_ARGS,
  sessionManifests,
  type InstallDependenciesOptions,
  type ManifestSource,
} from './supervisor/installDependencies';
export {
  checkProjectDependencies,
  declaredPackageManager,
  editableSourceRoots,
  linkNodeModules,
  LOCKFILES,
  missingDependenciesMessage,
  prepareProjectDependencies,
  storeKey,
  type MissingDependencies,
  type NodeDependencies,
  type NodePackageManager,
  type ProjectDependencies,
  type ProjectDependenciesOptions,
  type PythonDependencies,
} from './supervisor/projectDependencies';
export { approveKataCommands, checkProvider, checkTestRunner, commandProgram, isBundledKata } from './supervisor/preflight';
export { createAgentRoleRunner, createAgentRoleRunners, type AgentRoleRunnerOptions } from './roles/agentRoleRunner';
export {
  isTddRole,
  reportLabel,
  type RoleRunner,
  type RoleRunners,
  type RoleTurn,
  type RoleTurnResult,
} from './roles/roleRunner';
export { buildRoleContext, type RoleContextInput } from './roles/roleContext';
export * from './kata';
export * from './git';
export * from './session';
export * from './boundaries';
export * from './scaffold';
