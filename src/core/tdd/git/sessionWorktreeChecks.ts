/** The refusals of the session's git: a worktree that is not the session's own, a branch not (only) its own, a path outside the workspace. */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { AgentError } from '../../errors/agentError';
import { productGit, type GitRun } from '../../hostGit/gitClient';
import { GitOperationError } from './errors';
import { SESSION_BRANCH_PREFIX } from './sessionBranchName';
import type { SessionGitInfo } from './sessionGitInfo';
import { parseWorktreeList, WORKTREE_LIST_ARGS } from './worktreeList';

/** Makes a workspace-relative path safe for git: no absolute paths, no `..`, nothing inside .git. */
export function safeRelative(root: string, path: string): string {
  const normalized = normalize(path).split(sep).join('/').replace(/^\.\//, '').replace(/\/+$/, '');
  const absolute = resolve(root, normalized);
  if (isAbsolute(path) || normalized.startsWith('../') || normalized === '..' || !absolute.startsWith(root + sep)) {
    throw new AgentError(
      'VALIDATION',
      `Path '${path}' is outside the workspace; only workspace-relative paths can be reverted.`,
      { path },
    );
  }
  if (normalized === '.git' || normalized.startsWith('.git/')) {
    throw new AgentError('VALIDATION', `Path '${path}' is inside .git and cannot be reverted.`, { path });
  }
  return normalized;
}

function invalidSession(message: string, details: Record<string, unknown>): AgentError {
  return new AgentError('SESSION_STATE_INVALID', `${message} Nothing was changed.`, details);
}

/**
 * Checks that a saved session's worktree is that session's: a `tdd/` branch that exists, a worktree git
 * registered for that branch, and a worktree whose `.git` points back to it. Anything else is a
 * SESSION_STATE_INVALID refusal that changes nothing.
 */
export async function assertSessionWorktree(info: SessionGitInfo, env?: NodeJS.ProcessEnv): Promise<void> {
  const details = { branch: info.sessionBranch, worktree: info.worktree };
  if (!info.sessionBranch.startsWith(SESSION_BRANCH_PREFIX) || info.sessionBranch.length <= SESSION_BRANCH_PREFIX.length) {
    throw invalidSession(
      `The saved session names the branch '${info.sessionBranch}', which is not a session branch (tdd/…); refusing to work on it.`,
      details,
    );
  }
  const { run: personRun } = productGit(info.repository, { env });
  if (!(await personRun(['rev-parse', '--verify', '-q', `refs/heads/${info.sessionBranch}`]).catch(() => '')).trim()) {
    throw invalidSession(`The session branch ${info.sessionBranch} does not exist any more; start a new session.`, details);
  }
  const listing = parseWorktreeList(await personRun(WORKTREE_LIST_ARGS).catch(() => ''));
  const registered = listing.some((w) => w.path === info.worktree && w.branch === `refs/heads/${info.sessionBranch}`);
  if (!registered) {
    throw invalidSession(
      `The session's worktree ${info.worktree} is not registered with git for ${info.sessionBranch} (was it removed or moved?); start a new session.`,
      details,
    );
  }
  const expectedGitDir = resolve(info.commonDir, 'worktrees') + sep;
  const backLink = (await readFile(join(info.worktreeGitDir, 'gitdir'), 'utf8').catch(() => '')).trim();
  const dotGit = (await readFile(join(info.worktree, '.git'), 'utf8').catch(() => '')).trim();
  if (
    !info.worktreeGitDir.startsWith(expectedGitDir) ||
    backLink !== join(info.worktree, '.git') ||
    dotGit !== `gitdir: ${info.worktreeGitDir}`
  ) {
    throw invalidSession(
      `The session's worktree ${info.worktree} does not point back to its own git data; refusing to use it.`,
      details,
    );
  }
}

/** Refuses `action` unless the worktree's HEAD (`current`, '' when detached) is on the session branch. */
export function assertBranch(info: SessionGitInfo, action: string, current: string): void {
  if (current !== info.sessionBranch) {
    throw new GitOperationError(
      `Refusing to ${action}: the session worktree is on ${current || 'a detached HEAD'}, not on ${info.sessionBranch}.`,
      {
        current,
        sessionBranch: info.sessionBranch,
      },
    );
  }
}

/**
 * Refuses to commit while the session branch is checked out in another worktree too (the person ran
 * `git checkout --ignore-other-worktrees tdd/…`): the commit would move the branch under that checkout, whose
 * files and index would then show the session's changes undone. One `git worktree list`.
 */
export async function assertBranchOnlyHere(info: SessionGitInfo, run: GitRun): Promise<void> {
  const ref = `refs/heads/${info.sessionBranch}`;
  const elsewhere = parseWorktreeList(await run(WORKTREE_LIST_ARGS))
    .filter((w) => w.branch === ref && w.path !== info.worktree)
    .map((w) => w.path);
  if (elsewhere.length === 0) return;
  throw new GitOperationError(
    `Refusing to commit: the session branch ${info.sessionBranch} is also checked out in ${elsewhere.join(', ')}; ` +
      'a commit would move that checkout’s branch under it. Switch that checkout to another branch, then continue. Nothing was staged or committed.',
    { sessionBranch: info.sessionBranch, checkedOutIn: elsewhere },
  );
}
