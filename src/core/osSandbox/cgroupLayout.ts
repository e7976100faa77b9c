import { posix } from 'node:path';

/**
 * How a Linux host lays out its cgroups, read from `/proc/self/mountinfo` and `/proc/self/cgroup`:
 * - `v2`: one unified cgroup2 hierarchy (systemd's default since 2021);
 * - `v1`: one hierarchy per controller, no cgroup2 mount;
 * - `hybrid`: v1 hierarchies for the controllers plus a cgroup2 mount (often `/sys/fs/cgroup/unified`) that holds none
 *   of them (systemd's "hybrid" mode, container hosts);
 * - `none`: no cgroup file system is mounted (a container without `/sys/fs/cgroup`, WSL1).
 */
export type CgroupLayoutKind = 'v1' | 'v2' | 'hybrid' | 'none';

/** Where this process could make pids cgroups, or why it cannot. */
export interface CgroupLayout {
  kind: CgroupLayoutKind;
  /** The pids hierarchy to make per-launch cgroups in: this process's own cgroup there (host path). */
  pids?: { dir: string; version: 1 | 2 };
  /** Why there is no {@link pids} (for `doctor`): no pids hierarchy, the controller not delegated, the cgroup not visible. */
  reason?: string;
}

interface Mount {
  root: string;
  point: string;
  type: string;
  options: string[];
}

/** One mountinfo line: mount root, mount point, file system type and super options. */
function parseMounts(mountinfo: string): Mount[] {
  return mountinfo
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [left, right = ''] = line.split(' - ');
      const fields = left!.split(' ');
      const [type = '', , superOptions = ''] = right.split(' ');
      const unescape = (path: string) =>
        path.replace(/\\(\d{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
      return { root: unescape(fields[3] ?? ''), point: unescape(fields[4] ?? ''), type, options: superOptions.split(',') };
    });
}

/** `path` (a cgroup path of this process) under the mount of its hierarchy, or undefined when the mount does not show it. */
function under(mount: Mount, path: string): string | undefined {
  const rel = posix.relative(mount.root, path);
  if (rel.startsWith('..')) return undefined;
  return posix.join(mount.point, rel);
}

/**
 * The layout of the cgroups and where pids cgroups go, from the texts of `/proc/self/mountinfo` and
 * `/proc/self/cgroup`. A v1 `pids` hierarchy wins (also in a hybrid layout, whose cgroup2 mount holds no
 * controller); on v2 the folder is usable only when `pids` is delegated to its children, which
 * `subtreeControl(dir)` (the folder's `cgroup.subtree_control`) tells. Pure apart from that call.
 */
export function cgroupLayout(mountinfo: string, procCgroup: string, subtreeControl: (dir: string) => string): CgroupLayout {
  const mounts = parseMounts(mountinfo);
  const v1Mounts = mounts.filter((m) => m.type === 'cgroup');
  const v2Mount = mounts.find((m) => m.type === 'cgroup2');
  const kind: CgroupLayoutKind = v1Mounts.length ? (v2Mount ? 'hybrid' : 'v1') : v2Mount ? 'v2' : 'none';
  if (kind === 'none') return { kind, reason: 'no cgroup file system is mounted' };
  const own = procCgroup.split('\n').filter(Boolean);
  if (kind !== 'v2') {
    const pidsMount = v1Mounts.find((m) => m.options.includes('pids'));
    const line = own.map((l) => l.split(':')).find((f) => f.length >= 3 && f[1]!.split(',').includes('pids'));
    if (pidsMount && line) {
      const dir = under(pidsMount, line.slice(2).join(':'));
      return dir
        ? { kind, pids: { dir, version: 1 } }
        : { kind, reason: `this process's pids cgroup is not visible under ${pidsMount.point}` };
    }
    if (kind === 'v1') return { kind, reason: 'no pids controller is mounted' };
  }
  const unified = own.find((l) => l.startsWith('0::'));
  if (!v2Mount || !unified) return { kind, reason: 'no pids controller is mounted' };
  const dir = under(v2Mount, unified.slice(3));
  if (!dir) return { kind, reason: `this process's cgroup is not visible under ${v2Mount.point}` };
  let delegated = false;
  try {
    delegated = subtreeControl(dir).split(/\s+/).includes('pids');
  } catch {
    /* unreadable: not delegated as far as we can tell */
  }
  if (delegated) return { kind, pids: { dir, version: 2 } };
  return {
    kind,
    reason:
      kind === 'hybrid'
        ? `no v1 pids hierarchy, and the pids controller is not delegated to ${dir}`
        : `the pids controller is not delegated to ${dir} (cgroup.subtree_control)`,
  };
}
