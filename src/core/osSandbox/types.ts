/** `auto`: the platform's OS sandbox (an error when there is none); `off`: processes run unconfined. */
export type SandboxMode = 'auto' | 'off';

/** Which OS mechanism confines a process: bubblewrap (Linux), seatbelt (`sandbox-exec`, macOS), or none. */
export type SandboxKind = 'bubblewrap' | 'seatbelt' | 'none';

/** What a sandboxed process may touch. */
export interface SandboxPolicy {
  /** Folders the process may write (the session worktree). */
  writableRoots: string[];
  /** Paths inside writable roots that stay read-only (the worktree's `.git` file). */
  readOnlyPaths?: string[];
  /** Folders made visible read-only even when they are under HOME (the repository's common git dir). */
  readableRoots?: string[];
}

/** What a process launch looks like before and after wrapping. */
export interface ProcessLaunch {
  /** Executable, or a whole command line when `shell` is true. */
  command: string;
  args: string[];
  shell: boolean;
  cwd: string;
  /** The child's environment, already scrubbed of credentials. */
  env: NodeJS.ProcessEnv;
}

/** A launch after {@link ProcessSandbox.wrap}: what to hand to `spawn` instead. */
export interface WrappedLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  shell: boolean;
}

/** Confines the processes it wraps to a {@link SandboxPolicy}. */
export interface ProcessSandbox {
  /** The mechanism in use (`none` when the sandbox is turned off). */
  readonly kind: SandboxKind;
  /** One line for `tdd-agent doctor` and the panel: which sandbox, and what it allows. */
  readonly description: string;
  /** The program, arguments and environment to spawn instead (shell: false afterwards; the sandbox runs `/bin/sh -c` itself when launch.shell). */
  wrap(launch: ProcessLaunch): WrappedLaunch;
}

/** Whether the platform's sandbox can start here, and why not. */
export interface SandboxProbe {
  available: boolean;
  /** The mechanism that was tried (`none` on a platform without one). */
  kind: SandboxKind;
  /** Why it is unavailable (bubblewrap's own error, or what to install); a short confirmation when available. */
  reason: string;
}

/** Test and host overrides of how the sandbox is found. */
export interface SandboxLocator {
  /** Use this bubblewrap executable instead of looking on PATH (default: `TDD_AGENT_BWRAP`, then PATH, then /usr/bin/bwrap). */
  bwrapPath?: string;
}
