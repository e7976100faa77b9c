/** How a file differs from the last commit. */
export type FileChange = 'added' | 'modified' | 'deleted';

/** A workspace-relative path (forward slashes) and how it changed since the last commit. */
export interface ChangedFile {
  path: string;
  change: FileChange;
  /**
   * For a file whose tests live inside its code (Rust's `#[cfg(test)] mod tests`): whether the change touched those
   * tests, the code around them, or both (see the role boundaries' test regions). Absent for any other file.
   */
  regions?: { tests: boolean; code: boolean };
}

/** The session's own state folder: never reported, committed, stashed or rolled back. */
export const SESSION_DIR = '.tdd';

/** True for paths inside the session's own state folder. */
export function isSessionStatePath(path: string): boolean {
  return path === SESSION_DIR || path.startsWith(`${SESSION_DIR}/`);
}

/**
 * Parses `git status --porcelain=v1 -z --untracked-files=all --no-renames`. Untracked and newly added
 * files are `added`; a file added to the index and then deleted from disk never existed for the
 * last commit and is left out.
 */
export function parsePorcelainStatus(output: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  for (const entry of output.split('\0')) {
    if (entry.length < 4) continue;
    const x = entry[0];
    const y = entry[1];
    const path = entry.slice(3);
    if (isSessionStatePath(path)) continue;
    if (x === '!') continue;
    let change: FileChange;
    if (x === '?' || (x === 'A' && y !== 'D')) change = 'added';
    else if (x === 'A' && y === 'D') continue;
    else if (x === 'D' || y === 'D') change = 'deleted';
    else change = 'modified';
    files.push({ path, change });
  }
  return files;
}
