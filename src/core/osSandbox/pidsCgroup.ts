import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { getLogger } from '../logging/logger';

const logger = getLogger('osSandbox');

/** A pids cgroup made for one launch. */
export interface LaunchCgroup {
  /** The folder of the cgroup. */
  dir: string;
  /**
   * The file the launch writes `0` (itself) to before it becomes bubblewrap: `tasks` in cgroup v1, which moves the
   * writing thread alone and skips the global lock whose RCU grace period made `cgroup.procs` cost ~10 ms per launch
   * (the launching shell has one thread); `cgroup.procs` in v2.
   */
  joinFile: string;
  /**
   * Ends whatever is left in the cgroup (SIGKILL), removes it, and resolves with true when the pids limit
   * refused a fork during the launch (`pids.events`). Never rejects; a cgroup that cannot be removed is logged.
   */
  remove(): Promise<boolean>;
}

/** Where pids cgroups can be made, found once per process (undefined: none here, or not writable). */
let base: string | undefined | null = null;
/** The cgroup version of {@link base}. */
let version: 1 | 2 = 1;
let made = 0;

/** Fields of one /proc/self/mountinfo line: mount root, mount point, file system type and super options. */
function mounts(): { root: string; point: string; type: string; options: string[] }[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [left, right = ''] = line.split(' - ');
      const fields = left!.split(' ');
      const [type = '', , superOptions = ''] = right.split(' ');
      return { root: fields[3] ?? '', point: fields[4] ?? '', type, options: superOptions.split(',') };
    });
}

/** `path` (a cgroup path of this process) under the mount of its hierarchy, or undefined when the mount does not show it. */
function under(mount: { root: string; point: string }, path: string): string | undefined {
  const rel = posix.relative(mount.root, path);
  if (rel.startsWith('..')) return undefined;
  return posix.join(mount.point.replace(/\\040/g, ' '), rel);
}

/** The folder below which this process may make pids cgroups: its own cgroup in a v1 `pids` hierarchy, or in v2 when `pids` is delegated to children. */
function findBase(): { dir: string; version: 1 | 2 } | undefined {
  if (process.platform !== 'linux') return undefined;
  const own = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  const all = mounts();
  const v1 = own.map((line) => line.split(':')).find((f) => f.length >= 3 && f[1]!.split(',').includes('pids'));
  const v1Mount = all.find((m) => m.type === 'cgroup' && m.options.includes('pids'));
  if (v1 && v1Mount) {
    const dir = under(v1Mount, v1.slice(2).join(':'));
    return dir ? { dir, version: 1 } : undefined;
  }
  const v2 = own.find((line) => line.startsWith('0::'));
  const v2Mount = all.find((m) => m.type === 'cgroup2');
  if (!v2 || !v2Mount) return undefined;
  const dir = under(v2Mount, v2.slice(3));
  if (!dir) return undefined;
  const delegated = readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('pids');
  return delegated ? { dir, version: 2 } : undefined;
}

/** The place for per-launch pids cgroups, tried once (a cgroup made and removed); undefined when there is none. */
export function pidsCgroupBase(): string | undefined {
  if (base !== null) return base;
  base = undefined;
  try {
    const found = findBase();
    if (found) {
      const probe = join(found.dir, `tdd-agent-${process.pid}-probe`);
      mkdirSync(probe);
      rmdirSync(probe);
      base = found.dir;
      version = found.version;
    }
  } catch (err) {
    logger.debug('no writable pids cgroup: process limits come from RLIMIT_NPROC only', { error: err });
  }
  return base;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The PIDs in a cgroup (empty once it is gone or empty). */
function members(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** True when `pids.events` counts a fork refused by `pids.max`. */
function limitReached(dir: string): boolean {
  try {
    return /^max\s+[1-9]/m.test(readFileSync(join(dir, 'pids.events'), 'utf8'));
  } catch {
    return false;
  }
}

/**
 * A fresh pids cgroup with `pids.max = maxProcesses`, below {@link pidsCgroupBase}; undefined when there is
 * none here or it cannot be made (the launch then runs with the other limits only).
 */
export function createLaunchCgroup(maxProcesses: number): LaunchCgroup | undefined {
  const parent = pidsCgroupBase();
  if (!parent) return undefined;
  const dir = join(parent, `tdd-agent-${process.pid}-${++made}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, 'pids.max'), String(maxProcesses));
  } catch (err) {
    logger.warn('could not make a pids cgroup for a sandboxed launch', { dir, error: err });
    try {
      rmdirSync(dir);
    } catch {
      /* it was not made */
    }
    return undefined;
  }
  return {
    dir,
    joinFile: join(dir, version === 1 ? 'tasks' : 'cgroup.procs'),
    async remove() {
      const reached = limitReached(dir);
      // With bubblewrap's first process gone, the kernel ends the rest of its PID namespace; they leave the
      // cgroup a moment later. Anything still there (no PID namespace, or slow to die) is ended here.
      for (let attempt = 0; attempt < 100; attempt++) {
        for (const pid of members(dir)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }
        try {
          rmdirSync(dir);
          return reached;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') return reached;
          if (code !== 'EBUSY') break;
        }
        await sleep(attempt < 10 ? 5 : 50);
      }
      logger.warn('could not remove the pids cgroup of a sandboxed launch', { dir });
      return reached;
    },
  };
}
