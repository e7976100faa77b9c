import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '../../errors/agentError';
import { redactSecrets } from '../../security/redact';
import { SessionStateSchema, type SessionState } from './sessionState';

/** `field.path: message` per schema issue. */
function issueLines(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string[] {
  return issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
}

/** Path fields stored as they are: a resumed session must find its repository, worktree and kata file again. */
const VERBATIM_KEYS = new Set(['workspace', 'fileName', 'repository', 'commonDir', 'worktree', 'worktreeGitDir']);

/** A saved session exists but cannot be used; the message says what to do, the file is left untouched. */
export class SessionStateError extends AgentError {
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super('SESSION_STATE_INVALID', message, details, options);
    this.name = 'SessionStateError';
  }
}

/**
 * Saves and loads one session's record, `<sessions dir>/<id>.json` (the sessions dir lives in the
 * repository's common git dir, never in the person's working tree). Saves are atomic (a temp file renamed
 * over the old one, so a crash never leaves half a file) and applied in call order; secrets are redacted
 * before anything reaches the disk.
 */
export class SessionStore {
  /** The folder of all session records of the repository. */
  readonly dir: string;
  /** `<dir>/<id>.json` */
  readonly path: string;
  /**
   * `<dir>/<id>.audit.jsonl`: the framework's audit trail of the session, one JSON line per tool call (which role
   * asked, redacted parameters, approval, outcome, duration); appended across resumes, removed with the record.
   */
  readonly auditPath: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    sessionsDir: string,
    readonly id: string,
  ) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) throw new AgentError('VALIDATION', `'${id}' is not a session id.`, { id });
    this.dir = sessionsDir;
    this.path = join(sessionsDir, `${id}.json`);
    this.auditPath = join(sessionsDir, `${id}.audit.jsonl`);
  }

  /** Every session record in `sessionsDir`, newest first; unreadable records are listed with their problem. */
  static async list(sessionsDir: string): Promise<Array<{ id: string; state?: SessionState; problem?: string }>> {
    const names = await readdir(sessionsDir).catch(() => [] as string[]);
    const records = await Promise.all(
      names
        .filter((name) => name.endsWith('.json'))
        .map(async (name) => {
          const id = name.slice(0, -'.json'.length);
          try {
            return { id, state: await new SessionStore(sessionsDir, id).load() };
          } catch (err) {
            return { id, problem: (err as Error).message };
          }
        }),
    );
    return records.sort((a, b) => (b.state?.updatedAt ?? '').localeCompare(a.state?.updatedAt ?? ''));
  }

  /** Validates and writes the state; resolves once it is on disk. */
  save(state: SessionState): Promise<void> {
    const run = this.queue.then(() => this.write(state));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(state: SessionState): Promise<void> {
    const parsed = SessionStateSchema.safeParse(state);
    if (!parsed.success) {
      const problems = issueLines(parsed.error.issues);
      throw new SessionStateError(`Refusing to save an invalid session state: ${problems.slice(0, 5).join('; ')}.`, { problems });
    }
    await mkdir(this.dir, { recursive: true });
    // Redact string by string, except the paths the session needs verbatim (redaction shortens the home folder to ~).
    const text = `${JSON.stringify(parsed.data, (key, value: unknown) => (typeof value === 'string' && !VERBATIM_KEYS.has(key) ? redactSecrets(value) : value), 2)}\n`;
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      // A new file only (O_EXCL): nothing planted at the temporary name is written through.
      await writeFile(temp, text, { encoding: 'utf8', flag: 'wx' });
      await rename(temp, this.path);
    } catch (cause) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new SessionStateError(
        `Could not save the session state to ${this.path}: ${(cause as Error).message}`,
        { path: this.path },
        { cause },
      );
    }
  }

  /**
   * The saved state, or undefined when there is none. A file that is not JSON or does not match the
   * schema is a SessionStateError naming the problem (the file is kept for inspection).
   */
  async load(): Promise<SessionState | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new SessionStateError(`Could not read ${this.path}: ${(cause as Error).message}`, { path: this.path }, { cause });
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (cause) {
      throw new SessionStateError(
        `${this.path} is not valid JSON (${(cause as Error).message}); it was left untouched — delete it or start a new session.`,
        { path: this.path },
        { cause },
      );
    }
    const parsed = SessionStateSchema.safeParse(data);
    if (!parsed.success) {
      const problems = issueLines(parsed.error.issues);
      throw new SessionStateError(
        `${this.path} does not hold a valid session (${problems.slice(0, 3).join('; ')}); it was left untouched — delete it to start a new session.`,
        { path: this.path, problems },
      );
    }
    return parsed.data;
  }

  /** Removes the saved record (`tdd-agent sessions --prune`, or Delete session in the panel). */
  async clear(): Promise<void> {
    await this.queue;
    await rm(this.path, { force: true });
    await rm(this.auditPath, { force: true });
  }
}
