import { access } from 'node:fs/promises';
import { AgentError } from '../../errors/agentError';
import type { RecordedSessionStatus } from '../../vocabulary';
import { productGit } from '../../hostGit/gitClient';
import { inspectWorkspace, removeSessionWorktree, SESSION_BRANCH_PREFIX, sessionsDirFor } from '../git';
import { isResumable, isRunningElsewhere } from './findSession';
import { diskUsage } from './diskUsage';
import { projectViewLayer } from '../../osSandbox/projectView';
import { SessionLockedError, sessionLockHolder } from './sessionLock';
import type { SessionState } from './sessionState';
import { SessionStore } from './sessionStore';

/** One session of a repository, as `tdd-agent sessions` and the panel list it. */
export interface SessionListing {
  id: string;
  state?: SessionState;
  /** Why the record cannot be read (then `state` is absent). */
  problem?: string;
  /** True while another process runs it. */
  running: boolean;
  resumable: boolean;
}

/**
 * How a session's record reads to a person: a `running` record whose process is alive elsewhere (`listing.running`),
 * or that this process runs now (`runningHere(id)`, with the record's pid this process's), is running; any other
 * `running` record was interrupted (its process died, or the window that ran it was reloaded). Otherwise the status it
 * ended with.
 */
export function recordedStatus(
  listing: Pick<SessionListing, 'id' | 'running'> & { state: Pick<SessionState, 'status' | 'pid'> },
  runningHere: (id: string) => boolean = () => false,
  pid = process.pid,
): RecordedSessionStatus {
  const { state } = listing;
  if (state.status !== 'running') return state.status;
  if (listing.running) return 'running';
  return state.pid === pid && runningHere(listing.id) ? 'running' : 'interrupted';
}

/** The repository's common git dir, or undefined when `workspace` is not a repository root. */
async function commonDirOf(workspace: string): Promise<string | undefined> {
  const facts = await inspectWorkspace(workspace);
  return facts.kind === 'repository' ? facts.repository.commonDir : undefined;
}

/** Every session recorded for the repository at `workspace`, newest first (none outside a repository). */
export async function listSessions(workspace: string): Promise<SessionListing[]> {
  const commonDir = await commonDirOf(workspace);
  if (!commonDir) return [];
  const sessionsDir = sessionsDirFor(commonDir);
  return Promise.all(
    (await SessionStore.list(sessionsDir)).map(async ({ id, state, problem }) => {
      const locked = (await sessionLockHolder(sessionsDir, id)) !== undefined;
      return {
        id,
        state,
        problem,
        running: locked || (state ? isRunningElsewhere(state) : false),
        resumable: !locked && (state ? isResumable(state) : false),
      };
    }),
  );
}

/** The record of session `id` of the repository at `workspace` and its store; a CONFIG AgentError when there is none. */
export async function loadSession(workspace: string, id: string): Promise<{ store: SessionStore; state: SessionState }> {
  const commonDir = await commonDirOf(workspace);
  if (!commonDir)
    throw new AgentError('CONFIG', `${workspace} is not the root of a git repository, so it has no sessions.`, { workspace });
  const store = new SessionStore(sessionsDirFor(commonDir), id);
  const state = await store.load();
  if (!state) throw new AgentError('CONFIG', `There is no session '${id}' in this repository.`, { id });
  return { store, state };
}

/**
 * Removes a session: its worktree (if kept) and its record; with `deleteBranch`, also its `tdd/` branch
 * and commits. A running session is refused. Never touches any other branch or the person's checkout.
 */
export async function deleteSession(
  workspace: string,
  id: string,
  options: { deleteBranch?: boolean } = {},
): Promise<{ worktreeRemoved: boolean; branchDeleted: boolean; freedBytes: number }> {
  const { store, state } = await loadSession(workspace, id);
  if (isRunningElsewhere(state))
    throw new AgentError('CONFIG', `Session ${id} is still running (process ${state.pid}); stop it first.`, { id });
  const holder = await sessionLockHolder(store.dir, id);
  if (holder) throw new SessionLockedError(id, holder);
  // The worktree and its copy-on-write layer of the person's ignored files (removed with it).
  const size = (await diskUsage(state.git.worktree)) + (await diskUsage(projectViewLayer(state.git.worktree)));
  const worktreeRemoved = await removeSessionWorktree(state.git);
  let branchDeleted = false;
  if (options.deleteBranch && state.git.sessionBranch.startsWith(SESSION_BRANCH_PREFIX)) {
    const { run } = productGit(state.git.repository);
    branchDeleted = await run(['branch', '-D', '--', state.git.sessionBranch]).then(
      () => true,
      () => false,
    );
  }
  await store.clear();
  return { worktreeRemoved, branchDeleted, freedBytes: worktreeRemoved ? size : 0 };
}

/**
 * Removes the records (and any worktree left) of sessions that finished, failed or lost their worktree; branches stay.
 * Returns the sessions pruned, each with the disk space its worktree took.
 */
export async function pruneSessions(workspace: string): Promise<Array<{ id: string; freedBytes: number }>> {
  const pruned: Array<{ id: string; freedBytes: number }> = [];
  for (const listing of await listSessions(workspace)) {
    const state = listing.state;
    if (!state || listing.running) continue;
    const finished = state.status === 'completed' || state.status === 'max_cycles' || state.status === 'failed';
    const worktreeGone = !(await access(state.git.worktree).then(
      () => true,
      () => false,
    ));
    if (!finished && !worktreeGone) continue;
    const { freedBytes } = await deleteSession(workspace, listing.id);
    pruned.push({ id: listing.id, freedBytes });
  }
  return pruned;
}
