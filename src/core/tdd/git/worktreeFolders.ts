/** Folders of the session worktree, looked at and removed without ever following a link. */
import { lstat, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * True when `dir` is `root` or below it through real folders only: every component from `root` down is a
 * directory and none is a symbolic link. A path through a link generated code planted could lead out of the
 * worktree, so nothing is removed there.
 */
export async function isRealFolderBelow(root: string, dir: string): Promise<boolean> {
  const rel = relative(root, dir);
  if (rel === '') return true;
  if (rel.startsWith('..') || rel.startsWith(sep)) return false;
  let current = root;
  for (const part of rel.split(sep)) {
    current = join(current, part);
    const info = await lstat(current).catch(() => undefined);
    if (!info?.isDirectory()) return false; // missing, a file, or a symbolic link (lstat does not follow it)
  }
  return true;
}

/**
 * Removes the `.git` entry of the folder `dir` (worktree-relative, `/`-separated) without following any link:
 * a gitfile or a symbolic link is unlinked, a folder removed with what is in it (links inside it are unlinked,
 * never followed). Returns the entry's worktree-relative path, or null when there was none or the folder is
 * reached through a link.
 */
export async function removeGitEntry(root: string, dir: string): Promise<string | null> {
  const folder = join(root, ...dir.split('/'));
  if (!(await isRealFolderBelow(root, folder))) return null;
  const entry = join(folder, '.git');
  const info = await lstat(entry).catch(() => undefined);
  if (!info) return null;
  if (info.isDirectory()) await rm(entry, { recursive: true, force: true });
  else await unlink(entry);
  return `${dir}/.git`;
}

/**
 * Removes folders left empty by removing session files (git does not track folders). Only real folders of the
 * worktree: a folder reached through a symbolic link (which could lead outside) is never listed or removed.
 */
export async function pruneEmptyDirs(root: string, paths: string[]): Promise<void> {
  for (const path of paths) {
    let dir = dirname(resolve(root, path));
    while (dir.startsWith(root + sep) && (await isRealFolderBelow(root, dir))) {
      const entries = await readdir(dir).catch(() => undefined);
      if (!entries || entries.length > 0) break;
      await rmdir(dir).catch(() => undefined);
      dir = dirname(dir);
    }
  }
}
