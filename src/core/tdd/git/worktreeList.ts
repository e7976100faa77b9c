/** One worktree of a repository, as `git worktree list --porcelain -z` describes it. */
export interface WorktreeRecord {
  /** The worktree's folder. */
  path: string;
  /** `refs/heads/<name>` when a branch is checked out there, else null (detached HEAD, bare repository). */
  branch: string | null;
  /** The reason given to `git worktree lock` ('' without one), or null when the worktree is not locked. */
  locked: string | null;
}

/** The arguments that list a repository's worktrees in the form {@link parseWorktreeList} reads. */
export const WORKTREE_LIST_ARGS = ['worktree', 'list', '--porcelain', '-z'];

/**
 * Parses `git worktree list --porcelain -z`: one NUL-terminated line per attribute, an empty line after each
 * worktree. Paths are taken as they are (with `-z` git does not quote them).
 */
export function parseWorktreeList(output: string): WorktreeRecord[] {
  const records: WorktreeRecord[] = [];
  let current: WorktreeRecord | undefined;
  for (const line of output.split('\0')) {
    if (line === '') {
      current = undefined;
      continue;
    }
    if (line.startsWith('worktree ')) {
      current = { path: line.slice('worktree '.length), branch: null, locked: null };
      records.push(current);
    } else if (!current) continue;
    else if (line.startsWith('branch ')) current.branch = line.slice('branch '.length);
    else if (line === 'locked' || line.startsWith('locked ')) current.locked = line.slice('locked '.length);
  }
  return records;
}
