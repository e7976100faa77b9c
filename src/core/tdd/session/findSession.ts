import { AgentError } from '../../errors/agentError';
import type { SessionState } from './sessionState';
import { SessionStore } from './sessionStore';

/** True while the process that runs a session is alive (a second process must not take it over). */
export function isRunningElsewhere(state: SessionState): boolean {
  if (state.status !== 'running' || state.pid === undefined || state.pid === process.pid) return false;
  try {
    process.kill(state.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A session that can go on: interrupted, cancelled or failed, with its worktree kept, and not running now. */
export function isResumable(state: SessionState): boolean {
  return ['running', 'cancelled', 'failed'].includes(state.status) && state.worktreeKept && !isRunningElsewhere(state);
}

/**
 * The saved session to resume: the one named `id`, or the newest resumable session of the kata `slug`.
 * A missing, finished or running session is a CONFIG refusal that names what there is instead.
 */
export async function findResumableSession(sessionsDir: string, slug: string, id?: string): Promise<SessionState> {
  const records = await SessionStore.list(sessionsDir);
  if (id !== undefined) {
    const record = records.find((r) => r.id === id);
    if (!record)
      throw new AgentError('CONFIG', `There is no session '${id}' in this repository. List them with 'tdd-agent sessions'.`, {
        id,
      });
    if (!record.state)
      throw new AgentError('SESSION_STATE_INVALID', record.problem ?? `The record of session '${id}' cannot be read.`, { id });
    return checkResumable(record.state);
  }
  const ofKata = records.filter((r) => r.state?.kata.slug === slug).map((r) => r.state!);
  const candidate = ofKata.find(isResumable) ?? ofKata[0];
  if (!candidate)
    throw new AgentError(
      'CONFIG',
      `There is no session of the kata '${slug}' to resume in this repository. Start one without resuming.`,
      { slug },
    );
  return checkResumable(candidate);
}

function checkResumable(state: SessionState): SessionState {
  if (isRunningElsewhere(state)) {
    throw new AgentError('CONFIG', `Session ${state.id} is still running (process ${state.pid}); stop it first.`, {
      id: state.id,
      pid: state.pid,
    });
  }
  if (!isResumable(state)) {
    const why = state.worktreeKept
      ? `it ${state.status === 'completed' ? 'completed' : `ended (${state.status})`}`
      : 'its worktree was removed';
    throw new AgentError(
      'CONFIG',
      `Session ${state.id} cannot be resumed: ${why}. Its branch ${state.branch} keeps its commits; start a new session.`,
      {
        id: state.id,
        status: state.status,
      },
    );
  }
  return state;
}
