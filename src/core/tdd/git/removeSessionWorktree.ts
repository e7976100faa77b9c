/** Removing a session's worktree (folder and git's record of it) from the person's repository; its branch stays. */
import { productGit } from '../../hostGit/gitClient';
import { getLogger } from '../../logging/logger';
import { removeProjectViewLayer } from '../../osSandbox/projectView';
import type { SessionGitInfo } from './sessionGitInfo';
import { parseWorktreeList, WORKTREE_LIST_ARGS } from './worktreeList';

const log = getLogger('tdd.git');

/** Options of {@link removeSessionWorktree}. */
export interface RemoveSessionWorktreeOptions {
  /** Called with a sentence saying why the worktree was left in place (the person locked it). */
  onKept?: (reason: string) => void;
}

/**
 * Removes a session's worktree folder and git's record of it; the branch and its commits stay. Runs in
 * the person's repository with one `--force` (the worktree's uncommitted files are the session's own), which
 * git refuses for a locked worktree: a worktree the person locked (`git worktree lock`) is left in place, and
 * `onKept` says why. Resolves to true when it was removed, false when it was not registered or is locked.
 */
export async function removeSessionWorktree(
  info: Pick<SessionGitInfo, 'repository' | 'worktree'>,
  env?: NodeJS.ProcessEnv,
  options: RemoveSessionWorktreeOptions = {},
): Promise<boolean> {
  const { run } = productGit(info.repository, { env });
  const record = parseWorktreeList(await run(WORKTREE_LIST_ARGS).catch(() => '')).find((w) => w.path === info.worktree);
  if (!record) return false;
  if (record.locked !== null) {
    const reason =
      `The session worktree ${info.worktree} is locked (git worktree lock${record.locked ? `: ${record.locked}` : ''}) and was left in place; ` +
      `run git worktree unlock ${info.worktree} to let it be removed.`;
    log.warn('kept the locked session worktree', { worktree: info.worktree, lock: record.locked });
    options.onKept?.(reason);
    return false;
  }
  await run(['worktree', 'remove', '--force', info.worktree]);
  removeProjectViewLayer(info.worktree); // the session's copy-on-write layer of the person's ignored files
  log.info('removed the session worktree', { worktree: info.worktree });
  return true;
}
