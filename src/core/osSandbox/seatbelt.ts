import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { sandboxedCommand } from './bubblewrap';
import { homeToHide, isWithin, realPathOf, withPolicyEnvironment, type ResolvedPolicy } from './policyPaths';
import { sandboxEnvironment } from './sandboxEnvironment';
import type { ProcessLaunch, ProcessSandbox, WrappedLaunch } from './types';

/** The macOS `sandbox-exec` binary. */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** What the seatbelt profile is generated from (all real paths). */
export interface SeatbeltLayout {
  policy: ResolvedPolicy;
  /** HOME, unreadable except for the roots inside it. */
  home?: string;
  /** Scratch folders writable besides the roots (`/private/tmp`, the per-user TMPDIR). */
  tmpDirs: string[];
  /** Allow the network (the confined install). Default: denied. */
  network?: boolean;
}

/** A string literal of the sandbox profile language. */
function sbString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Every folder from `home` down to the parent of `path`, so the process can stat its way to a root under HOME. */
function ancestorsWithin(path: string, home: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); isWithin(dir, home); dir = dirname(dir)) {
    out.push(dir);
    if (dir === home) break;
  }
  return out;
}

/**
 * The seatbelt profile with the rules of the Linux sandbox: deny by default; reads everywhere except
 * HOME (the readable and writable roots excepted); writes only in the writable roots (minus the
 * read-only paths) and scratch folders; no network. Exceptions use `require-not`, so the result
 * does not depend on rule order.
 */
export function seatbeltProfile(layout: SeatbeltLayout): string {
  const { policy, home } = layout;
  const subpaths = (paths: string[]) => paths.map((p) => `(subpath ${sbString(p)})`).join(' ');
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow ipc-posix-sem)',
    '(allow pseudo-tty)',
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.PowerManagement.control") (global-name "com.apple.system.logger"))',
    '(allow file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))',
    home
      ? `(allow file-read* (require-all (subpath "/") (require-not (subpath ${sbString(home)}))))`
      : '(allow file-read* (subpath "/"))',
  ];
  const visible = [...policy.readableRoots, ...policy.writableRoots];
  if (visible.length) lines.push(`(allow file-read* ${subpaths(visible)})`);
  if (home) {
    const ancestors = [...new Set(visible.flatMap((p) => ancestorsWithin(p, home)))];
    if (ancestors.length) lines.push(`(allow file-read-metadata ${ancestors.map((p) => `(literal ${sbString(p)})`).join(' ')})`);
  }
  const exceptions = policy.readOnlyPaths.map((p) => `(require-not (subpath ${sbString(p)}))`).join(' ');
  for (const root of policy.writableRoots) {
    lines.push(`(allow file-write* (require-all (subpath ${sbString(root)})${exceptions ? ` ${exceptions}` : ''}))`);
  }
  if (layout.tmpDirs.length) lines.push(`(allow file-write* ${subpaths(layout.tmpDirs)})`);
  lines.push(
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/ttys[0-9]+$"))',
  );
  lines.push(layout.network ? '(allow network*)' : '(deny network*)');
  return `${lines.join('\n')}\n`;
}

/**
 * macOS: every launch runs under `sandbox-exec -p <profile>` (see {@link seatbeltProfile}). Unlike
 * bubblewrap, seatbelt cannot give the process an empty HOME or a private /tmp: HOME is unreadable and
 * the per-user scratch folders stay writable. The environment is the same allow-list as bubblewrap's; the git
 * config is not replaced by a sanitised copy and no limits are set (no per-launch cgroup or `prlimit` on macOS).
 */
export class SeatbeltSandbox implements ProcessSandbox {
  readonly kind = 'seatbelt' as const;
  readonly description: string;

  constructor(
    private readonly policy: ResolvedPolicy,
    private readonly options: { passEnvironment?: string[]; network?: boolean } = {},
  ) {
    const readOnly = policy.readOnlyPaths.length ? ` (read-only inside: ${policy.readOnlyPaths.join(', ')})` : '';
    this.description = `seatbelt (sandbox-exec): writes only in ${policy.writableRoots.join(', ') || 'nothing'}${readOnly} and temporary folders; ${options.network ? 'network allowed' : 'no network'}; HOME unreadable`;
  }

  wrap(launch: ProcessLaunch): WrappedLaunch {
    const tmpDirs = [
      ...new Set(['/private/tmp', realPathOf(tmpdir()), ...(launch.env.TMPDIR ? [realPathOf(launch.env.TMPDIR)] : [])]),
    ];
    const profile = seatbeltProfile({
      policy: this.policy,
      home: homeToHide(launch.env),
      tmpDirs,
      network: this.options.network,
    });
    return {
      command: SANDBOX_EXEC,
      args: ['-p', profile, ...sandboxedCommand(launch)],
      env: withPolicyEnvironment(
        sandboxEnvironment(launch.env, { extra: this.options.passEnvironment, network: this.options.network }),
        this.policy,
      ),
      shell: false,
    };
  }
}
