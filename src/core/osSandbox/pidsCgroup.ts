import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cgroupLayout, type CgroupLayout } from './cgroupLayout';
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

/** What this host offers for per-launch pids cgroups, found once per process. */
export interface PidsCgroupSupport {
  /** The host's cgroup layout, and why it has no usable pids hierarchy when it has none. */
  layout: CgroupLayout;
  /** The folder below which pids cgroups are made (a cgroup made and removed there to be sure); undefined: none. */
  base?: string;
  /** Why a found pids folder could not be used (the probe cgroup could not be made: read-only, not ours). */
  failure?: string;
}

let support: PidsCgroupSupport | undefined;
/** The cgroup version of the base. */
let version: 1 | 2 = 1;
let made = 0;

/** The host's layout from its /proc files (none off Linux, or when they cannot be read). */
function hostLayout(): CgroupLayout {
  if (process.platform !== 'linux') return { kind: 'none', reason: 'not Linux' };
  try {
    return cgroupLayout(readFileSync('/proc/self/mountinfo', 'utf8'), readFileSync('/proc/self/cgroup', 'utf8'), (dir) =>
      readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8'),
    );
  } catch (err) {
    return { kind: 'none', reason: `the cgroup files of /proc cannot be read (${(err as Error).message})` };
  }
}

/** The place for per-launch pids cgroups and the layout it was found in, tried once; stale cgroups of ended processes are swept then. */
export function pidsCgroupSupport(): PidsCgroupSupport {
  if (support) return support;
  const layout = hostLayout();
  support = { layout };
  if (!layout.pids) return support;
  try {
    const probe = join(layout.pids.dir, `tdd-agent-${process.pid}-probe`);
    mkdirSync(probe);
    rmdirSync(probe);
    support = { layout, base: layout.pids.dir };
    version = layout.pids.version;
    sweepStaleCgroups(layout.pids.dir);
  } catch (err) {
    support = {
      layout,
      failure: `cannot make a cgroup in ${layout.pids.dir} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    };
    logger.debug('no writable pids cgroup: process limits come from RLIMIT_NPROC only', { error: err });
  }
  return support;
}

/** The place for per-launch pids cgroups, tried once (a cgroup made and removed); undefined when there is none. */
export function pidsCgroupBase(): string | undefined {
  return pidsCgroupSupport().base;
}

/** True while a process with this id exists (ours or another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Blocks the thread for `ms` (the sweep runs once, at the first launch, and waits at most ~100 ms a cgroup). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/**
 * Removes the `tdd-agent-<pid>-<n>` cgroups of processes that no longer exist (a CLI killed with SIGKILL mid-run
 * cannot remove its own), ending what is left in each first; returns their names. One that still holds
 * processes after that is left for the next start.
 */
export function sweepStaleCgroups(base: string): string[] {
  const swept: string[] = [];
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return swept;
  }
  for (const name of names) {
    const owner = /^tdd-agent-(\d+)-/.exec(name)?.[1];
    if (!owner || Number(owner) === process.pid || alive(Number(owner))) continue;
    const dir = join(base, name);
    for (let attempt = 0; attempt < 10; attempt++) {
      for (const pid of members(dir)) killQuietly(pid);
      try {
        rmdirSync(dir);
        swept.push(name);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EBUSY') break;
        pause(10);
      }
    }
  }
  if (swept.length) logger.info('removed pids cgroups left by ended sessions', { base, cgroups: swept });
  return swept;
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
        for (const pid of members(dir)) killQuietly(pid);
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
