/**
 * The OS sandbox for processes that run code an agent wrote or a kata named (test runs, quality
 * gates, `run_command`): bubblewrap on Linux, seatbelt on macOS.
 */
export type {
  SandboxMode,
  SandboxKind,
  SandboxPolicy,
  SandboxLimits,
  ProcessLaunch,
  WrappedLaunch,
  LaunchEnd,
  ProcessSandbox,
  SandboxProbe,
  SandboxLocator,
  ModulesMount,
  ProjectViewNamespace,
} from './types';
export { DEFAULT_SANDBOX_LIMITS } from './types';
export { SANDBOX_MODES, isSandboxMode } from '../vocabulary';
export { probeSandbox, findBubblewrap, BWRAP_PATH_VARIABLE, BWRAP_MISSING } from './probeSandbox';
export { createProcessSandbox } from './createProcessSandbox';
export {
  diagnoseBubblewrap,
  readNamespaceFacts,
  describeDiagnosis,
  BWRAP_APPARMOR_PROFILE,
  type SandboxDiagnosis,
  type SandboxFailureKind,
  type NamespaceFacts,
} from './diagnoseSandbox';
export { worktreePolicy, type WorktreeDependencies } from './worktreePolicy';
export {
  bubblewrapArgs,
  BubblewrapSandbox,
  processLimitMechanism,
  describeProcessLimit,
  type ProcessLimitFacts,
  type BubblewrapLayout,
  type BubblewrapOptions,
  type ProcessLimitMechanism,
} from './bubblewrap';
export { cgroupLayout, type CgroupLayout, type CgroupLayoutKind } from './cgroupLayout';
export { pidsCgroupSupport, sweepStaleCgroups, type PidsCgroupSupport } from './pidsCgroup';
export { seatbeltProfile, SeatbeltSandbox, SANDBOX_EXEC, type SeatbeltLayout } from './seatbelt';
export { UnconfinedSandbox } from './unconfined';
export {
  openProjectView,
  projectViewLayer,
  removeProjectViewLayer,
  viewEntryRefusal,
  type ProjectView,
  type ProjectViewSpec,
} from './projectView';
export type { ResolvedPolicy } from './policyPaths';
export { withPolicyEnvironment } from './policyPaths';
export { modulesEntries, modulesMountArgs, MODULES_SOURCE_DIR, type ModulesEntry } from './modulesMount';
export {
  sandboxEnvironment,
  withoutCredentials,
  isCredentialName,
  parseEnvironmentList,
  CREDENTIAL_NAME,
  PRODUCT_CREDENTIALS,
  SANDBOX_ENV_VARIABLE,
  SANDBOX_BASE_ENVIRONMENT,
  SANDBOX_NETWORK_ENVIRONMENT,
} from './sandboxEnvironment';
export { sanitizeGitConfig, withoutUserInfo, gitConfigOverlays, type FileOverlay } from './sanitizedGitConfig';
export { describeLimitHit, formatBytes } from './limitHit';
