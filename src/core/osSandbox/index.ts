/**
 * The OS sandbox for processes that run code an agent wrote or a kata named (test runs, quality
 * gates, `run_command`): bubblewrap on Linux, seatbelt on macOS.
 */
export type {
  SandboxMode,
  SandboxKind,
  SandboxPolicy,
  ProcessLaunch,
  WrappedLaunch,
  ProcessSandbox,
  SandboxProbe,
  SandboxLocator,
} from './types';
export { probeSandbox, findBubblewrap, BWRAP_PATH_VARIABLE, BWRAP_MISSING } from './probeSandbox';
export { createProcessSandbox } from './createProcessSandbox';
export { worktreePolicy } from './worktreePolicy';
export { bubblewrapArgs, BubblewrapSandbox, type BubblewrapLayout } from './bubblewrap';
export { seatbeltProfile, SeatbeltSandbox, SANDBOX_EXEC, type SeatbeltLayout } from './seatbelt';
export { UnconfinedSandbox } from './unconfined';
export type { ResolvedPolicy } from './policyPaths';
