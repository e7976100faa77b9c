import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentError } from '../../errors/agentError';
import type { Phase, SessionStatus } from '../events';
import type { GitSessionInfo } from '../git';
import type { Kata } from '../kata';
import { CycleSummarySchema, SessionTotalsSchema, type CycleSummary, type SessionTotals } from './sessionSummary';
import type { SessionTally } from './sessionTally';

/** `.tdd/session.json`: enough to show a session again and to resume it after a stop or a crash. */
export const PersistedSessionSchema = z.object({
  format: z.literal('tdd-agent-session'),
  version: z.literal(1),
  kata: z.object({ title: z.string(), slug: z.string(), language: z.string() }),
  branch: z.string(),
  status: z.enum(['running', 'completed', 'max_cycles', 'failed', 'cancelled']),
  cycle: z.number().int().nonnegative(),
  phase: z.enum(['TESTING', 'IMPLEMENTING', 'REFACTORING', 'DONE']),
  updatedAt: z.string(),
  git: z.object({
    originalBranch: z.string().nullable(),
    originalHead: z.string(),
    sessionBranch: z.string().optional(),
    stashRef: z.string().optional(),
    createdRepository: z.boolean(),
    initialCommit: z.string().optional(),
  }),
  cycles: z.array(CycleSummarySchema),
  totals: SessionTotalsSchema,
});
export type PersistedSession = z.infer<typeof PersistedSessionSchema>;

/** The state to resume from. */
export interface ResumePoint {
  git: GitSessionInfo;
  cycles: CycleSummary[];
  totals: SessionTotals;
}

/**
 * Saves the session after every phase (atomically: temp file + rename, so a crash never leaves half
 * a file) and loads it to resume. `.tdd/` is excluded from git by the GitWorkspace.
 */
export class SessionPersistence {
  readonly path: string;

  constructor(workspace: string) {
    this.path = join(workspace, '.tdd', 'session.json');
  }

  async save(state: { kata: Kata; branch: string; git: GitSessionInfo; status: SessionStatus; cycle: number; phase: Phase; tally: SessionTally }): Promise<void> {
    const record: PersistedSession = {
      format: 'tdd-agent-session',
      version: 1,
      kata: { title: state.kata.title, slug: state.kata.slug, language: state.kata.language },
      branch: state.branch,
      status: state.status,
      cycle: state.cycle,
      phase: state.phase,
      updatedAt: new Date().toISOString(),
      git: state.git,
      cycles: state.tally.cycles,
      totals: state.tally.totals,
    };
    await mkdir(join(this.path, '..'), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`, 'utf8');
    await rename(temp, this.path);
  }

  /** Reads the saved session; undefined when there is none. A corrupt file is a clear CONFIG error. */
  async load(): Promise<PersistedSession | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AgentError('CONFIG', `The session file .tdd/session.json is not valid JSON; delete it to start a new session.`, {});
    }
    const result = PersistedSessionSchema.safeParse(parsed);
    if (!result.success) throw new AgentError('CONFIG', `The session file .tdd/session.json is not a tdd-agent session (${result.error.issues[0]?.message}); delete it to start a new session.`, {});
    return result.data;
  }

  /** The session to resume for this kata, or a clear error saying why there is none. */
  async loadForResume(kata: Kata): Promise<ResumePoint> {
    const saved = await this.load();
    if (!saved) throw new AgentError('CONFIG', 'There is no session to resume in this workspace (.tdd/session.json is missing). Start one without --resume.', {});
    if (saved.kata.slug !== kata.slug) throw new AgentError('CONFIG', `The saved session is for the kata '${saved.kata.title}', not '${kata.title}'.`, { saved: saved.kata.slug });
    if (saved.status === 'completed') throw new AgentError('CONFIG', `The saved session of '${saved.kata.title}' already completed; start a new one without --resume.`, {});
    if (!saved.git.sessionBranch) throw new AgentError('CONFIG', 'The saved session never created its branch; start a new one without --resume.', {});
    return { git: saved.git, cycles: saved.cycles, totals: saved.totals };
  }
}
