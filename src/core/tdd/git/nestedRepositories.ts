/** Removing the repositories nested in the session worktree before staging, so git never stages one as a gitlink. */
import type { GitRun } from '../../hostGit/gitClient';
import { getLogger } from '../../logging/logger';
import { GitOperationError } from './errors';
import { removeGitEntry } from './worktreeFolders';
import { nestedRepositoryFolders, STATUS_ARGS } from './worktreeStatus';

const log = getLogger('tdd.git');

/** How many rounds of removing nested repositories a commit makes: each round uncovers those nested in the last. */
const MAX_NESTED_ROUNDS = 20;

/**
 * {@link SessionWorktree.removeNestedRepositories} in the worktree `dir`, given the nested repositories a status
 * already found and the gitlinks of the index: the `.git` entry (never followed) at each gitlink's path, then at
 * each nested repository git names, round after round as removing one uncovers those nested in it.
 */
export async function removeNested(run: GitRun, dir: string, found: string[], gitlinks: string[]): Promise<string[]> {
  const removed: string[] = [];
  let nested = found;
  for (const gitlink of gitlinks) {
    const entry = await removeGitEntry(dir, gitlink);
    if (entry) removed.push(entry);
  }
  for (let round = 1; nested.length > 0; round++) {
    if (round > MAX_NESTED_ROUNDS) {
      throw new GitOperationError(
        `Refusing to stage anything: repositories are nested more than ${MAX_NESTED_ROUNDS} deep in the session worktree (${nested.join(', ')}).`,
        { nested },
      );
    }
    for (const folder of nested) {
      const entry = await removeGitEntry(dir, folder);
      if (!entry) {
        throw new GitOperationError(
          `Refusing to stage anything: git sees a nested repository at ${folder} but its .git could not be removed safely.`,
          { folder },
        );
      }
      removed.push(entry);
    }
    // The folders just made plain may hold repositories of their own.
    nested = nestedRepositoryFolders(await run(STATUS_ARGS));
  }
  if (removed.length > 0) log.warn('removed nested repositories from the session worktree', { removed });
  return removed;
}
