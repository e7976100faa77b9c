import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '../../errors/agentError';

/** Who holds a session's lock, as written in `<id>.lock`. */
export interface SessionLockHolder {
  pid: number;
  /** The holder's start time as the kernel counts it (Linux `/proc/<pid>/stat` field 22), to tell a reused pid apart. */
  processStart?: string;
  host: string;
  /** What holds it, in a person's words: "a kata session", "a Testing-view run". */
  purpose: string;
  /** When it was taken (ISO time). */
  since: string;
}

/** The kernel's start time of a process (Linux), or undefined where it cannot be read. */
function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** True while the process that wrote `holder` is alive: same host, pid alive, and (where known) the same start time. */
export function isLockHolderAlive(holder: SessionLockHolder): boolean {
  if (holder.host !== hostname()) return true; // another machine sharing the folder: never taken over
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = processStartOf(holder.pid);
  return holder.processStart === undefined || start === undefined || start === holder.processStart;
}

function describe(holder: SessionLockHolder): string {
  return `${holder.purpose} (process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.since})`;
}

/** The session is held by another live process; the message names it. */
export class SessionLockedError extends AgentError {
  constructor(
    id: string,
    readonly holder: SessionLockHolder,
  ) {
    super('CONFIG', `Session ${id} is in use by ${describe(holder)}; wait for it to end or stop it. Nothing was changed.`, {
      id,
      pid: holder.pid,
      purpose: holder.purpose,
    });
    this.name = 'SessionLockedError';
  }
}

/** The lock file's text and, when it parses, its holder. */
async function readHolder(path: string): Promise<{ raw?: string; holder?: SessionLockHolder }> {
  const raw = await readFile(path, 'utf8').catch(() => undefined);
  try {
    const data = JSON.parse(raw ?? '') as SessionLockHolder;
    return { raw, holder: typeof data.pid === 'number' && typeof data.host === 'string' ? data : undefined };
  } catch {
    return { raw };
  }
}

/**
 * One process at a time per session: `<sessions dir>/<id>.lock`, created with `O_EXCL` and holding the
 * holder's pid, start time and purpose. Attaching to a session (a run, `--resume`, VS Code's Resume, a
 * Testing-view run) takes it first; a lock whose process is gone (or whose pid now names another process)
 * is stale and taken over. Released by {@link SessionLock.release}, and left stale by a crash.
 */
export class SessionLock {
  private released = false;

  private constructor(
    readonly path: string,
    private readonly holder: SessionLockHolder,
  ) {}

  /** Takes the lock of session `id`, or throws {@link SessionLockedError} naming who holds it. */
  static async acquire(sessionsDir: string, id: string, purpose: string): Promise<SessionLock> {
    const path = join(sessionsDir, `${id}.lock`);
    const holder: SessionLockHolder = {
      pid: process.pid,
      processStart: processStartOf(process.pid),
      host: hostname(),
      purpose,
      since: new Date().toISOString(),
    };
    const text = `${JSON.stringify(holder)}\n`;
    await mkdir(sessionsDir, { recursive: true });
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const file = await open(path, 'wx', 0o600);
        try {
          await file.writeFile(text, 'utf8');
        } finally {
          await file.close();
        }
        return new SessionLock(path, holder);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const { raw, holder: current } = await readHolder(path);
      // A lock being written this instant reads as empty or partial: wait for it once before calling it stale.
      if (current === undefined && attempt === 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      if (current && isLockHolderAlive(current)) throw new SessionLockedError(id, current);
      // Stale: remove it only if it still is the lock just read (another process may have replaced it meanwhile).
      if ((await readFile(path, 'utf8').catch(() => undefined)) === raw) await rm(path, { force: true });
    }
    const { holder: last } = await readHolder(path);
    throw new SessionLockedError(
      id,
      last ?? { pid: 0, host: hostname(), purpose: 'another process', since: new Date().toISOString() },
    );
  }

  /** Gives the lock up (only if it is still this process's). Safe to call twice. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const { holder: current } = await readHolder(this.path);
    if (current && current.pid === this.holder.pid && current.since === this.holder.since) await rm(this.path, { force: true });
  }
}

/** The live process other than this one holding session `id`'s lock, or undefined when none does. */
export async function sessionLockHolder(sessionsDir: string, id: string): Promise<SessionLockHolder | undefined> {
  const { holder } = await readHolder(join(sessionsDir, `${id}.lock`));
  return holder && holder.pid !== process.pid && isLockHolderAlive(holder) ? holder : undefined;
}
