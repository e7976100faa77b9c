import type { SandboxDiagnosis } from './diagnoseSandbox';
/** `auto`: the platform's OS sandbox (an error when there is none); `off`: processes run unconfined. */
export type { SandboxMode } from '../vocabulary';

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
  /**
   * Git dirs among the readable roots (the repository's common git dir) whose configuration is shown sanitised inside
   * (bubblewrap): remote URLs without user or password, no `include`/`includeIf`, `credential.*`, `http.*` or
   * `url.*` sections, nothing that names a program; credential files kept there (`credentials`, a `store --file`) hidden.
   */
  gitDirs?: string[];
  /**
   * More environment variables the sandboxed process gets, besides `SANDBOX_BASE_ENVIRONMENT` and the
   * person's `TDD_AGENT_SANDBOX_ENV`: exact names, or prefixes ending in `*`. A credential-like name passes only
   * when listed exactly.
   */
  passEnvironment?: string[];
  /** True: the process may use the network (the confined `npm install`); bubblewrap keeps the host's network and resolver. Default false. */
  network?: boolean;
  /**
   * Installed packages shown inside the worktree without being writable (bubblewrap; see {@link ModulesMount}): the
   * person's `node_modules`, or the product's shared install, at the worktree's `node_modules`.
   */
  modules?: ModulesMount[];
  /**
   * Folders shown empty and read-only (bubblewrap: a read-only tmpfs over each): the person's own sources an
   * editable install points at, so the session's code is the only copy found.
   */
  hiddenPaths?: string[];
  /**
   * Folders shown empty before anything else is mounted (bubblewrap): the person's checkout, whose files a session
   * sees only through its worktree and project view (never `.env` at the checkout's own path, when the checkout is
   * outside HOME and /tmp). A readable root, the worktree or a mount inside one is shown again on top. `/` and system
   * folders are never hidden.
   */
  unseenRoots?: string[];
  /** Variables set inside, after the allow-list is applied (the project's `VIRTUAL_ENV`). */
  setEnvironment?: Record<string, string>;
  /**
   * Absolute folders put first on path-list variables inside, e.g. `PATH` (the virtual environment's `bin`) and
   * `PYTHONPATH` (the worktree's `src`, ahead of an editable install's path into the person's checkout).
   */
  prependPaths?: Record<string, string[]>;
  /** Bounds of each launch (bubblewrap); each unset one takes its `DEFAULT_SANDBOX_LIMITS` value. */
  limits?: Partial<SandboxLimits>;
  /**
   * The person's project as they have it (bubblewrap; see `openProjectView`): every launch enters this namespace, in
   * which the ignored entries of the person's checkout are mounted copy-on-write in the worktree. A module mount whose
   * target the view already shows is left out.
   */
  view?: ProjectViewNamespace;
}

/** The part of an open project view a sandboxed launch needs: the namespace to enter and what it shows. */
export interface ProjectViewNamespace {
  /** A process inside the view's user and mount namespaces. */
  pid: number;
  /** Worktree paths mounted by the view. */
  mounted: readonly string[];
  /** util-linux `nsenter`, which joins the namespace and then becomes bubblewrap. */
  nsenter: string;
}

/**
 * A `node_modules` the sandboxed process sees at `target` without being able to change it. bubblewrap mounts a private
 * tmpfs at `target` (discarded after each launch: `.vite-temp`, `.vite` and `.cache`, which test runners write there,
 * land in it), the source read-only at `<target>/.tdd-agent/node_modules`, and one link per top-level entry of the
 * source (a link of the source's own is copied as it is: pnpm's `.pnpm/…` and a workspace's `../packages/x` still
 * resolve, the latter to the worktree's own package). Module paths stay under the worktree, as with an install there.
 */
export interface ModulesMount {
  /** The installed folder on the host (the person's `node_modules`, or the product's shared install): never written. */
  source: string;
  /** Where the project expects it: `<worktree>/node_modules`, an existing git-ignored folder of the worktree. */
  target: string;
}

/**
 * How much one sandboxed launch may take (bubblewrap). Processes: a pids cgroup per launch when a writable pids
 * hierarchy exists (cgroup v1 `pids`, or v2 with the pids controller delegated), and RLIMIT_NPROC where the kernel
 * counts it per user namespace (not for root, which it exempts). File size and data: `prlimit` inside the sandbox
 * (RLIMIT_FSIZE, RLIMIT_DATA; not RLIMIT_AS, which V8's reserved address space exceeds). /tmp and HOME: sized tmpfs.
 */
export interface SandboxLimits {
  /** Processes and threads at once in one launch (a Node process has about ten threads). */
  processes: number;
  /** Bytes one file may grow to (RLIMIT_FSIZE); a write past it fails (`EFBIG`, or SIGXFSZ for a program that does not ignore it). */
  fileSizeBytes: number;
  /** Bytes of heap and writable private mappings per process (RLIMIT_DATA). */
  dataBytes: number;
  /** Bytes the private /tmp holds (writes past it fail with `ENOSPC`). */
  tmpBytes: number;
  /** Bytes the empty HOME holds. */
  homeBytes: number;
}

const GIB = 1024 ** 3;

/**
 * The bounds of a sandboxed launch when the policy sets none, sized for a 2-core / 24 GiB CI machine and a laptop alike:
 * 1024 processes and threads (a fork loop stops there; a parallel test runner with a worker per core stays far
 * below), 1 GiB per file, 4 GiB of data per process (Node's default heap limit on such a machine is about 4 GiB),
 * a 1 GiB /tmp and a 256 MiB HOME (tmpfs: memory is used only for what is written).
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  processes: 1024,
  fileSizeBytes: GIB,
  dataBytes: 4 * GIB,
  tmpBytes: GIB,
  homeBytes: 256 * 1024 ** 2,
});

/** What a process launch looks like before and after wrapping. */
export interface ProcessLaunch {
  /** Executable, or a whole command line when `shell` is true. */
  command: string;
  args: string[];
  shell: boolean;
  cwd: string;
  /**
   * The child's environment as the caller gave it: a sandbox passes on only its allow-list (`sandboxEnvironment`),
   * the unconfined pass-through only what `scrubEnv` keeps.
   */
  env: NodeJS.ProcessEnv;
}

/** How a wrapped launch ended: what the sandbox looks at to tell whether one of its limits stopped it. */
export interface LaunchEnd {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr as kept. */
  output: string;
}

/** A launch after {@link ProcessSandbox.wrap}: what to hand to `spawn` instead. */
export interface WrappedLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  shell: boolean;
  /**
   * Called once when the process has ended (or could not start): removes what `wrap` set up for this launch (its
   * cgroup, after ending what is left in it) and resolves with the limit the run ran into, worded for a person
   * (`the sandbox's file-size limit (1 GiB per file)`), or undefined.
   */
  release?(end: LaunchEnd): Promise<string | undefined>;
}

/** Confines the processes it wraps to a {@link SandboxPolicy}. */
export interface ProcessSandbox {
  /** The mechanism in use (`none` when the sandbox is turned off). */
  readonly kind: SandboxKind;
  /** One line for `tdd-agent doctor` and the panel: which sandbox, and what it allows. */
  readonly description: string;
  /** A bound this host does not let the sandbox set (no process limit), in one sentence for the person; undefined when every bound holds. */
  readonly notice?: string;
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
  /** When unavailable on Linux: which failure mode it is and the fix for it (see `diagnoseSandbox.ts`). */
  diagnosis?: SandboxDiagnosis;
}

/** Test and host overrides of how the sandbox is found. */
export interface SandboxLocator {
  /** Use this bubblewrap executable instead of looking on PATH (default: `TDD_AGENT_BWRAP`, then PATH, then /usr/bin/bwrap). */
  bwrapPath?: string;
  /**
   * The person's own additions to the sandbox's environment (names or `PREFIX*`), instead of those of
   * `TDD_AGENT_SANDBOX_ENV` (comma-separated) in this process's environment.
   */
  passEnvironment?: string[];
}
