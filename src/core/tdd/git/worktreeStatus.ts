/** Reading the session worktree's `git status`: the arguments it runs with, its branch header and the nested repositories it names. */

/** `git status` of the worktree: every changed file, untracked ones one by one, nested repositories never entered. */
export const STATUS_ARGS = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'];

/**
 * The folders (`vendor`) that `git status --porcelain -z --untracked-files=all` reports as untracked `vendor/`:
 * with every untracked file listed one by one, git names a folder only for a nested repository (a `.git` folder
 * or a gitfile pointing to a repository), which `git add` would stage as a gitlink. `.tdd/` included.
 */
export function nestedRepositoryFolders(status: string): string[] {
  return status
    .split('\0')
    .filter((entry) => entry.startsWith('?? ') && entry.endsWith('/'))
    .map((entry) => entry.slice(3, -1));
}

/** The branch named by `git status --branch`'s header (without `## `): '' for a detached HEAD. */
export function branchOfStatusHeader(header: string): string {
  if (header.startsWith('HEAD (no branch)')) return '';
  const unborn = /^(?:No commits yet on|Initial commit on) (\S+)/.exec(header);
  if (unborn) return unborn[1]!;
  return header.split('...')[0]!.split(' ')[0]!;
}
