import { lstatSync } from 'node:fs';
import { homeToHide, isWithin, realPathOf, sandboxedEnv, toolchainsUnderHome, type ResolvedPolicy } from './policyPaths';
import type { ProcessLaunch, ProcessSandbox, WrappedLaunch } from './types';

/** Where the sandboxed command starts and which parts of HOME stay visible. */
export interface BubblewrapLayout {
  policy: ResolvedPolicy;
  /** Real path of the working directory inside the sandbox. */
  cwd: string;
  /** Real path of the HOME folder replaced by an empty tmpfs (none when HOME is not a real folder). */
  home?: string;
  /** Folders under HOME shown read-only anyway (toolchains on PATH). */
  toolchains?: string[];
}

/** True when /var/run is a folder of its own rather than the usual link to /run. */
function separateVarRun(): boolean {
  try {
    return lstatSync('/var/run').isDirectory();
  } catch {
    return false;
  }
}

/**
 * bubblewrap's arguments, up to and including the `--` before the command. Mount order matters: a
 * later mount covers an earlier one, so the private /tmp and the empty HOME come first and the
 * policy's roots after them (a worktree under /tmp or HOME still appears), and the read-only paths
 * last, on top of the writable worktree. /run is emptied too: a read-only mount does not stop a
 * process from connecting to the Unix sockets in it (Docker, D-Bus, databases).
 */
export function bubblewrapArgs(layout: BubblewrapLayout): string[] {
  const { policy } = layout;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/run'];
  if (separateVarRun()) args.push('--tmpfs', '/var/run');
  if (layout.home) args.push('--tmpfs', layout.home);
  for (const dir of layout.toolchains ?? []) args.push('--ro-bind-try', dir, dir);
  for (const dir of policy.readableRoots) args.push('--ro-bind-try', dir, dir);
  for (const dir of policy.writableRoots) args.push('--bind', dir, dir);
  for (const path of policy.readOnlyPaths) args.push('--ro-bind-try', path, path);
  args.push('--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--new-session');
  args.push('--chdir', layout.cwd, '--');
  return args;
}

/** The command line inside the sandbox: `/bin/sh -c` for a shell launch (as `spawn({ shell: true })` would). */
export function sandboxedCommand(launch: ProcessLaunch): string[] {
  return launch.shell ? ['/bin/sh', '-c', [launch.command, ...launch.args].join(' ')] : [launch.command, ...launch.args];
}

/**
 * Linux: every launch runs under bubblewrap with a read-only system, a private /tmp, an empty HOME,
 * fresh PID / network / IPC / UTS namespaces and a new session; only the writable roots can be
 * changed. bubblewrap is spawned with the launch's (already scrubbed) environment: its own first
 * process in the PID namespace keeps that environment, visible in the sandbox's `/proc/1/environ`.
 */
export class BubblewrapSandbox implements ProcessSandbox {
  readonly kind = 'bubblewrap' as const;
  readonly description: string;

  constructor(
    private readonly bwrapPath: string,
    private readonly policy: ResolvedPolicy,
  ) {
    const readOnly = policy.readOnlyPaths.length ? ` (read-only inside: ${policy.readOnlyPaths.join(', ')})` : '';
    const readable = policy.readableRoots.length ? `; also readable: ${policy.readableRoots.join(', ')}` : '';
    this.description =
      `bubblewrap (${bwrapPath}): writes only in ${policy.writableRoots.join(', ') || 'nothing'}${readOnly}; ` +
      `no network; private /tmp, /run and process tree; HOME hidden${readable}`;
  }

  wrap(launch: ProcessLaunch): WrappedLaunch {
    const home = homeToHide(launch.env);
    const layout: BubblewrapLayout = {
      policy: this.policy,
      cwd: realPathOf(launch.cwd),
      home,
      toolchains: home ? toolchainsUnderHome(launch.env, home) : [],
    };
    const env = sandboxedEnv(launch.env);
    // The host's TMPDIR is not visible inside; the private /tmp is.
    if (env.TMPDIR && !this.policy.writableRoots.some((root) => isWithin(realPathOf(env.TMPDIR!), root))) env.TMPDIR = '/tmp';
    return { command: this.bwrapPath, args: [...bubblewrapArgs(layout), ...sandboxedCommand(launch)], env, shell: false };
  }
}
