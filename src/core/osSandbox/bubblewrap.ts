import { execFileSync } from 'node:child_process';
import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { release } from 'node:os';
import { describeLimitHit, formatBytes } from './limitHit';
import type { CgroupLayoutKind } from './cgroupLayout';
import { createLaunchCgroup, pidsCgroupSupport, type PidsCgroupSupport } from './pidsCgroup';
import { modulesMountArgs } from './modulesMount';
import { homeToHide, isWithin, realPathOf, toolchainsUnderHome, withPolicyEnvironment, type ResolvedPolicy } from './policyPaths';
import { sandboxEnvironment } from './sandboxEnvironment';
import { overlaysForLaunch, type FileOverlay } from './sanitizedGitConfig';
import {
  DEFAULT_SANDBOX_LIMITS,
  type LaunchEnd,
  type ProcessLaunch,
  type ProcessSandbox,
  type SandboxLimits,
  type WrappedLaunch,
} from './types';

/** Where the sandboxed command starts and which parts of HOME stay visible. */
export interface BubblewrapLayout {
  policy: ResolvedPolicy;
  /** Real path of the working directory inside the sandbox. */
  cwd: string;
  /** Real path of the HOME folder replaced by an empty tmpfs (none when HOME is not a real folder). */
  home?: string;
  /** Folders under HOME shown read-only anyway (toolchains on PATH). */
  toolchains?: string[];
  /** Keep the host's network (and its resolver configuration, which may live under the emptied /run). Default: none. */
  network?: boolean;
  /** Bytes of the private /tmp and of the empty HOME (`--size`, bubblewrap 0.5 and later); unset: the tmpfs default. */
  tmpBytes?: number;
  homeBytes?: number;
  /** Files shown in place of others (the sanitised git config, an empty file over credential files), mounted last. */
  overlays?: FileOverlay[];
}

/** True when /var/run is a folder of its own rather than the usual link to /run. */
function separateVarRun(): boolean {
  try {
    return lstatSync('/var/run').isDirectory();
  } catch {
    return false;
  }
}

/** The resolver configuration's real path when it is not /etc/resolv.conf itself (a link into /run, as with systemd-resolved). */
function resolverFile(): string | undefined {
  const real = realPathOf('/etc/resolv.conf');
  return real === '/etc/resolv.conf' ? undefined : real;
}

/**
 * bubblewrap's arguments, up to and including the `--` before the command. Mount order matters: a
 * later mount covers an earlier one, so the private /tmp and the empty HOME come first and the
 * policy's roots after them (a worktree under /tmp or HOME still appears), the installed packages
 * (`ModulesMount`) on the writable worktree, and the read-only paths and overlays last, on top of the writable worktree and the readable git dir. /run is emptied too: a read-only
 * mount does not stop a process from connecting to the Unix sockets in it (Docker, D-Bus, databases).
 */
export function bubblewrapArgs(layout: BubblewrapLayout): string[] {
  const { policy } = layout;
  const sized = (bytes: number | undefined) => (bytes === undefined ? [] : ['--size', String(bytes)]);
  // Inside the project view's namespace bubblewrap starts as its root: a user namespace of its own shows the person's ids again.
  const ids = policy.view
    ? ['--unshare-user', '--uid', String(process.getuid?.() ?? 0), '--gid', String(process.getgid?.() ?? 0)]
    : [];
  const args = [...ids, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...sized(layout.tmpBytes), '--tmpfs', '/tmp'];
  args.push('--tmpfs', '/run');
  if (separateVarRun()) args.push('--tmpfs', '/var/run');
  if (layout.network) {
    const resolver = resolverFile();
    if (resolver) args.push('--ro-bind-try', resolver, resolver);
  }
  if (layout.home) args.push(...sized(layout.homeBytes), '--tmpfs', layout.home);
  // Empty and, once what is shown again inside has its mount point, read-only (see the end).
  for (const dir of policy.unseenRoots ?? []) args.push(...sized(layout.tmpBytes), '--tmpfs', dir);
  for (const dir of layout.toolchains ?? []) args.push('--ro-bind-try', dir, dir);
  for (const dir of policy.readableRoots) args.push('--ro-bind-try', dir, dir);
  for (const dir of policy.hiddenPaths ?? []) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const dir of policy.writableRoots) args.push('--bind', dir, dir);
  // A module mount the project view already shows would cover it (the view's copy-on-write overlay is the person's install).
  for (const mount of policy.modules ?? [])
    if (!policy.view?.mounted.includes(mount.target)) args.push(...modulesMountArgs(mount, sized(layout.tmpBytes)));
  for (const path of policy.readOnlyPaths) args.push('--ro-bind-try', path, path);
  for (const overlay of layout.overlays ?? []) args.push('--ro-bind', overlay.source, overlay.target);
  for (const dir of policy.unseenRoots ?? []) args.push('--remount-ro', dir);
  args.push('--unshare-pid', ...(layout.network ? [] : ['--unshare-net']), '--unshare-ipc', '--unshare-uts');
  args.push('--die-with-parent', '--new-session', '--chdir', layout.cwd, '--');
  return args;
}

/** The command line inside the sandbox: `/bin/sh -c` for a shell launch (as `spawn({ shell: true })` would). */
export function sandboxedCommand(launch: ProcessLaunch): string[] {
  return launch.shell ? ['/bin/sh', '-c', [launch.command, ...launch.args].join(' ')] : [launch.command, ...launch.args];
}

/** util-linux `prlimit`, which sets the rlimits of the command it then executes. */
const PRLIMIT_CANDIDATES = ['/usr/bin/prlimit', '/bin/prlimit'];

/** What the host offers for limits, found once per bubblewrap path. */
interface LimitSupport {
  /** `prlimit`'s path, when installed. */
  prlimit?: string;
  /** bubblewrap has `--size` (0.5 and later). */
  tmpfsSize: boolean;
  /**
   * RLIMIT_NPROC binds only the sandbox's own processes: the launch is not root (the kernel exempts uid 0) and
   * bubblewrap makes a user namespace (not set-uid) on a kernel that counts processes per user namespace (5.14
   * and later). Elsewhere it would count every process of the person's, and a desktop session has hundreds.
   */
  nproc: boolean;
}

const supportByPath = new Map<string, LimitSupport>();

function kernelAtLeast(major: number, minor: number): boolean {
  const [a = 0, b = 0] = release()
    .split('.')
    .map((part) => parseInt(part, 10));
  return a > major || (a === major && b >= minor);
}

function limitSupport(bwrapPath: string): LimitSupport {
  let support = supportByPath.get(bwrapPath);
  if (support) return support;
  const prlimit = PRLIMIT_CANDIDATES.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  let tmpfsSize = false;
  try {
    tmpfsSize = execFileSync(bwrapPath, ['--help'], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin' },
      timeout: 10_000,
    }).includes('--size');
  } catch {
    /* an old or odd bubblewrap: the tmpfs keep their default size */
  }
  let setuid = false;
  try {
    setuid = (statSync(bwrapPath).mode & 0o4000) !== 0;
  } catch {
    /* the probe has found it; stat failing here changes nothing but this guess */
  }
  const root = process.getuid?.() === 0;
  support = { prlimit, tmpfsSize, nproc: Boolean(prlimit) && !root && !setuid && kernelAtLeast(5, 14) };
  supportByPath.set(bwrapPath, support);
  return support;
}

/** Which mechanism bounds the processes of one sandboxed run on this host, for `tdd-agent doctor` and the sandbox's description. */
export interface ProcessLimitMechanism {
  /** `rlimit`: RLIMIT_NPROC counted in the sandbox's user namespace; `cgroup-v1` / `cgroup-v2`: a pids cgroup per run. */
  kind: 'rlimit' | 'cgroup-v1' | 'cgroup-v2' | 'none';
  /** One line for a person: the mechanism and where, or why none binds and what would. */
  text: string;
}

const LAYOUT_WORDS: Record<CgroupLayoutKind, string> = {
  v1: 'cgroup v1',
  v2: 'cgroup v2',
  hybrid: 'hybrid cgroups: v1 controllers beside a cgroup2 mount',
  none: 'no cgroups mounted',
};

/** What decides the process limit of a run: whether RLIMIT_NPROC binds, the pids cgroups found, who runs. */
export interface ProcessLimitFacts {
  nproc: boolean;
  cgroups: PidsCgroupSupport;
  root: boolean;
  processes: number;
}

/** The mechanism that bounds a run's processes, from the host's facts (pure: the doctor's tests give each layout). */
export function describeProcessLimit(facts: ProcessLimitFacts): ProcessLimitMechanism {
  const { processes, cgroups } = facts;
  if (facts.nproc)
    return { kind: 'rlimit', text: `RLIMIT_NPROC in the sandbox's user namespace: ${processes} processes and threads per run` };
  const { layout, base, failure } = cgroups;
  if (base) {
    return {
      kind: layout.pids?.version === 2 ? 'cgroup-v2' : 'cgroup-v1',
      text: `a pids cgroup per run under ${base} (${LAYOUT_WORDS[layout.kind]}): ${processes} processes and threads per run`,
    };
  }
  const why = failure ?? layout.reason ?? 'no pids hierarchy';
  const nproc = facts.root
    ? 'RLIMIT_NPROC does not bind root'
    : 'RLIMIT_NPROC does not bind here (set-uid bubblewrap, or a kernel before 5.14)';
  return {
    kind: 'none',
    text: `none: ${nproc}, and ${why} (${LAYOUT_WORDS[layout.kind]}). A run can start processes up to the machine's own limit.`,
  };
}

/** The mechanism that bounds a run's processes on this host (RLIMIT_NPROC where it binds, else a pids cgroup, else none, and why). */
export function processLimitMechanism(
  bwrapPath: string,
  processes: number = DEFAULT_SANDBOX_LIMITS.processes,
): ProcessLimitMechanism {
  return describeProcessLimit({
    nproc: limitSupport(bwrapPath).nproc,
    cgroups: pidsCgroupSupport(),
    root: process.getuid?.() === 0,
    processes,
  });
}

/** Everything of a bubblewrap sandbox besides its paths. */
export interface BubblewrapOptions {
  /** Keep the host's network (the confined install). */
  network?: boolean;
  /** Environment names (or `PREFIX*`) passed in besides the base allow-list. */
  passEnvironment?: string[];
  /** Bounds of each launch; default {@link DEFAULT_SANDBOX_LIMITS}. */
  limits?: SandboxLimits;
  /** Files shown in place of others (sanitised git config, hidden credential files). */
  overlays?: FileOverlay[];
}

/** A shell line that moves itself (`0`: the writer) into the cgroup whose join file is `$0`, then becomes the command. */
const JOIN_CGROUP = 'echo 0 > "$0" && exec "$@"';

/**
 * Linux: every launch runs under bubblewrap with a read-only system, a private sized /tmp, an empty sized HOME,
 * fresh PID / network / IPC / UTS namespaces and a new session; only the writable roots can be changed. The
 * environment inside is an allow-list ({@link sandboxEnvironment}), and bubblewrap itself is spawned with that same
 * environment: its own first process in the PID namespace keeps it, visible in the sandbox's `/proc/1/environ`.
 * Each launch is bounded ({@link SandboxLimits}): `prlimit` inside sets the file-size and data limits (and the process
 * limit where it binds), and a pids cgroup of its own, when this host lets one be made, caps processes for root too.
 */
export class BubblewrapSandbox implements ProcessSandbox {
  readonly kind = 'bubblewrap' as const;
  readonly description: string;
  readonly notice?: string;
  private readonly limits: SandboxLimits;
  private readonly support: LimitSupport;

  constructor(
    private readonly bwrapPath: string,
    private readonly policy: ResolvedPolicy,
    private readonly options: BubblewrapOptions = {},
  ) {
    this.limits = options.limits ?? { ...DEFAULT_SANDBOX_LIMITS };
    this.support = limitSupport(bwrapPath);
    const readOnly = policy.readOnlyPaths.length ? ` (read-only inside: ${policy.readOnlyPaths.join(', ')})` : '';
    const readable = policy.readableRoots.length ? `; also readable: ${policy.readableRoots.join(', ')}` : '';
    const processLimit = processLimitMechanism(bwrapPath, this.limits.processes);
    if (processLimit.kind === 'none')
      this.notice = `The sandbox cannot bound the number of processes a run starts on this host (${processLimit.text.replace(/^none: /, '').replace(/\. A run .*$/, '')}); tdd-agent doctor says more.`;
    this.description =
      `bubblewrap (${bwrapPath}): writes only in ${policy.writableRoots.join(', ') || 'nothing'}${readOnly}; ` +
      `${options.network ? 'network allowed' : 'no network'}; private /tmp, /run and process tree; HOME hidden${readable}; ` +
      this.boundsText();
  }

  /** The bounds this host lets the sandbox set, for the description. */
  private boundsText(): string {
    const l = this.limits;
    const bounds = [
      processLimitMechanism(this.bwrapPath, l.processes).kind === 'none'
        ? 'no process limit (RLIMIT_NPROC does not bind and no writable pids cgroup here: tdd-agent doctor says why)'
        : `${l.processes} processes`,
      ...(this.support.prlimit
        ? [`${formatBytes(l.fileSizeBytes)} per file`, `${formatBytes(l.dataBytes)} of data per process`]
        : []),
      ...(this.support.tmpfsSize ? [`${formatBytes(l.tmpBytes)} of /tmp`] : []),
    ];
    return `at most ${bounds.join(', ')}`;
  }

  /** `prlimit --fsize --data [--nproc] --`, or nothing when prlimit is missing. */
  private limitCommand(): string[] {
    const { prlimit, nproc } = this.support;
    if (!prlimit) return [];
    const l = this.limits;
    return [prlimit, `--fsize=${l.fileSizeBytes}`, `--data=${l.dataBytes}`, ...(nproc ? [`--nproc=${l.processes}`] : []), '--'];
  }

  wrap(launch: ProcessLaunch): WrappedLaunch {
    const home = homeToHide(launch.env);
    const layout: BubblewrapLayout = {
      policy: this.policy,
      cwd: realPathOf(launch.cwd),
      home,
      toolchains: home ? toolchainsUnderHome(launch.env, home) : [],
      network: this.options.network,
      overlays: overlaysForLaunch(this.options.overlays ?? []),
      ...(this.support.tmpfsSize ? { tmpBytes: this.limits.tmpBytes, homeBytes: this.limits.homeBytes } : {}),
    };
    const env = withPolicyEnvironment(
      sandboxEnvironment(launch.env, { extra: this.options.passEnvironment, network: this.options.network }),
      this.policy,
    );
    // The host's TMPDIR is not visible inside; the private /tmp is.
    if (env.TMPDIR && !this.policy.writableRoots.some((root) => isWithin(realPathOf(env.TMPDIR!), root))) env.TMPDIR = '/tmp';
    const bwrap = [...bubblewrapArgs(layout), ...this.limitCommand(), ...sandboxedCommand(launch)];
    // Only where RLIMIT_NPROC cannot bind (it costs nothing, a cgroup costs a shell exec and two file writes).
    const cgroup = this.support.nproc ? undefined : createLaunchCgroup(this.limits.processes);
    const limits = this.limits;
    // In a project view, nsenter joins its namespaces and becomes bubblewrap (exec again: one process all along).
    const launcher = this.policy.view
      ? [
          this.policy.view.nsenter,
          '--preserve-credentials',
          '--target',
          String(this.policy.view.pid),
          '--user',
          '--mount',
          '--',
          this.bwrapPath,
        ]
      : [this.bwrapPath];
    return {
      // The shell joins the cgroup and then becomes bubblewrap (exec: same process, no extra one left running).
      ...(cgroup
        ? { command: '/bin/sh', args: ['-c', JOIN_CGROUP, cgroup.joinFile, ...launcher, ...bwrap] }
        : { command: launcher[0]!, args: [...launcher.slice(1), ...bwrap] }),
      env,
      shell: false,
      async release(end: LaunchEnd) {
        const pidsLimitReached = cgroup ? await cgroup.remove() : false;
        return describeLimitHit(end, limits, pidsLimitReached);
      },
    };
  }
}
