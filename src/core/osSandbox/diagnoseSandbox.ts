/**
 * Why bubblewrap cannot start a sandbox on this machine, and the fix for each case, from its own error message and
 * the kernel settings that decide whether an unprivileged process may create a user namespace. The words are a
 * person's, with the exact commands; `tdd-agent doctor`, the session's `SANDBOX_UNAVAILABLE` error and the panel
 * show them. {@link diagnoseBubblewrap} is pure; {@link readNamespaceFacts} reads /proc and a few marker files.
 */
import { existsSync, readFileSync } from 'node:fs';

/** The failure modes told apart (each has its own fix). */
export type SandboxFailureKind =
  'missing' | 'apparmor_userns' | 'userns_clone_disabled' | 'max_user_namespaces_zero' | 'container' | 'unknown';

/** What is wrong and what fixes it. */
export interface SandboxDiagnosis {
  kind: SandboxFailureKind;
  /** One sentence: what stops bubblewrap here. */
  cause: string;
  /** The fixes, best first, each a sentence with its commands (a person runs them; nothing here runs them). */
  fixes: string[];
}

/** The kernel and machine facts that tell the cases apart (undefined: not readable here). */
export interface NamespaceFacts {
  /** `/proc/sys/kernel/apparmor_restrict_unprivileged_userns` (Ubuntu 23.10+): `1` restricts. */
  apparmorRestrictUserns?: string;
  /** `/proc/sys/kernel/unprivileged_userns_clone` (Debian before 11, older Ubuntu kernels): `0` disables. */
  unprivilegedUsernsClone?: string;
  /** `/proc/sys/user/max_user_namespaces`: `0` disables user namespaces for everyone. */
  maxUserNamespaces?: string;
  /** A container marker was found (`/.dockerenv`, `/run/.containerenv`, `container=` in the environment, a container cgroup). */
  inContainer?: boolean;
}

/** The AppArmor profile that lets bubblewrap (and only it) create user namespaces, as Ubuntu documents it. */
export const BWRAP_APPARMOR_PROFILE = [
  'abi <abi/4.0>,',
  'include <tunables/global>',
  '',
  'profile bwrap /usr/bin/bwrap flags=(unconfined) {',
  '  userns,',
  '',
  '  # Site-specific additions and overrides. See local/README for details.',
  '  include if exists <local/bwrap>',
  '}',
].join('\n');

const INSTALL =
  'Install bubblewrap: `sudo apt-get install bubblewrap` (Debian, Ubuntu), `sudo dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch), `sudo zypper install bubblewrap` (openSUSE).';

const APPARMOR_FIXES = [
  `Allow bubblewrap alone to create user namespaces with an AppArmor profile: write /etc/apparmor.d/bwrap containing\n${BWRAP_APPARMOR_PROFILE}\nthen load it with \`sudo apparmor_parser -r /etc/apparmor.d/bwrap\` (or \`sudo systemctl reload apparmor\`).`,
  'Or lift the restriction for every program: `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (lost at reboot unless also written to /etc/sysctl.d/60-userns.conf).',
];

/** True when a line of bubblewrap's stderr says it could not create or set up its user namespace. */
function namespaceRefused(text: string): boolean {
  return /setting up uid map|uid map|Creating new namespace failed|No permissions to creat(e|ing) new namespace|unprivileged user namespaces|loopback: Failed RTM_NEWADDR|Failed to make \/ slave|Can't mount proc|Operation not permitted|Permission denied/i.test(
    text,
  );
}

/**
 * Tells why bubblewrap failed: `stderr` is what it printed (or a spawn error's text; `missing` when there is no
 * executable at all), `facts` the kernel settings. An AppArmor restriction on Ubuntu shows as "setting up uid map:
 * Permission denied" or "loopback: Failed RTM_NEWADDR"; the Debian sysctl as "No permissions to create new
 * namespace"; `user.max_user_namespaces=0` as "No space left on device"; a container's seccomp or its masked /proc as
 * "Operation not permitted" while the host's settings allow namespaces.
 */
export function diagnoseBubblewrap(stderr: string, facts: NamespaceFacts, options: { missing?: boolean } = {}): SandboxDiagnosis {
  if (options.missing || /ENOENT|not found|No such file or directory.*bwrap/i.test(stderr))
    return { kind: 'missing', cause: 'bubblewrap (bwrap) is not installed.', fixes: [INSTALL] };
  const text = stderr.trim();
  if (facts.apparmorRestrictUserns === '1' && namespaceRefused(text))
    return {
      kind: 'apparmor_userns',
      cause:
        'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1, the default since Ubuntu 24.04), so bubblewrap may not create its sandbox.',
      fixes: APPARMOR_FIXES,
    };
  if (facts.unprivilegedUsernsClone === '0' || /No permissions to creat(e|ing) new namespace/i.test(text))
    return {
      kind: 'userns_clone_disabled',
      cause: 'The kernel does not let unprivileged users create user namespaces (kernel.unprivileged_userns_clone=0).',
      fixes: [
        'Enable them: `sudo sysctl -w kernel.unprivileged_userns_clone=1`, and keep it with `echo kernel.unprivileged_userns_clone=1 | sudo tee /etc/sysctl.d/60-userns.conf`.',
      ],
    };
  if (facts.maxUserNamespaces === '0' || /No space left on device/i.test(text))
    return {
      kind: 'max_user_namespaces_zero',
      cause: 'User namespaces are turned off on this machine (user.max_user_namespaces=0).',
      fixes: [
        'Allow them: `sudo sysctl -w user.max_user_namespaces=15000`, and keep it with `echo user.max_user_namespaces=15000 | sudo tee /etc/sysctl.d/60-userns.conf`.',
      ],
    };
  // Ubuntu's restriction also shows as these messages when the sysctl could not be read (a confined reader).
  if (
    facts.apparmorRestrictUserns === undefined &&
    /setting up uid map|loopback: Failed RTM_NEWADDR/i.test(text) &&
    !facts.inContainer
  )
    return {
      kind: 'apparmor_userns',
      cause: 'Unprivileged user namespaces are refused, most likely by AppArmor (Ubuntu 24.04 and later restrict them).',
      fixes: APPARMOR_FIXES,
    };
  if (facts.inContainer && namespaceRefused(text))
    return {
      kind: 'container',
      cause:
        'This runs inside a container that does not allow user namespaces (its seccomp or AppArmor profile refuses them, or its /proc is masked).',
      fixes: [
        'Run VS Code or tdd-agent on the host instead, or start the container with user namespaces allowed (Docker: `--security-opt seccomp=unconfined --security-opt apparmor=unconfined`; Podman allows them by default).',
        'Or, only inside a throwaway container whose files you do not mind the agents changing, turn the sandbox off.',
      ],
    };
  return {
    kind: 'unknown',
    cause: `bubblewrap cannot start a sandbox here${text ? `: ${text.split('\n').slice(0, 3).join(' ')}` : ''}.`,
    fixes: [
      'Run `bwrap --ro-bind / / --unshare-pid --unshare-net true` in a terminal to see the whole error; see docs/security.md.',
    ],
  };
}

function readTrimmed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The facts {@link diagnoseBubblewrap} needs, read from this machine (`root` lets tests point at a fake /proc tree). */
export function readNamespaceFacts(root = '/', env: NodeJS.ProcessEnv = process.env): NamespaceFacts {
  const at = (path: string) => `${root.replace(/\/$/, '')}${path}`;
  const cgroup = readTrimmed(at('/proc/1/cgroup')) ?? '';
  return {
    apparmorRestrictUserns: readTrimmed(at('/proc/sys/kernel/apparmor_restrict_unprivileged_userns')),
    unprivilegedUsernsClone: readTrimmed(at('/proc/sys/kernel/unprivileged_userns_clone')),
    maxUserNamespaces: readTrimmed(at('/proc/sys/user/max_user_namespaces')),
    inContainer:
      existsSync(at('/.dockerenv')) ||
      existsSync(at('/run/.containerenv')) ||
      Boolean(env.container) ||
      /docker|kubepods|lxc|containerd/.test(cgroup),
  };
}

/** The diagnosis as lines for a terminal or a card: the cause, then each fix. */
export function describeDiagnosis(diagnosis: SandboxDiagnosis): string {
  return [diagnosis.cause, ...diagnosis.fixes.map((fix) => `- ${fix}`)].join('\n');
}
