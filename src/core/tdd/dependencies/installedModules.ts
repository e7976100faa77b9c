/** The worktree's `node_modules` entry: looked at, replaced or filled with links by an install, never following a link. */
import { cp, lstat, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The worktree's `node_modules` entry, looked at without following a link. */
export async function installedEntry(dir: string): Promise<'directory' | 'other' | 'none'> {
  try {
    return (await lstat(join(dir, 'node_modules'))).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'none';
  }
}

/** Moves the staged `node_modules` into the worktree, replacing whatever entry is there without following a link. */
export async function moveInto(staged: string, dir: string): Promise<void> {
  const target = join(dir, 'node_modules');
  await rm(target, { recursive: true, force: true }); // a link is removed itself, never what it points to
  try {
    await rename(staged, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(staged, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  }
}

/**
 * For sandboxes that cannot mount (off, macOS): fills the worktree's `node_modules` folder with a link per top-level
 * entry of `source` (a link of the source's own is copied with its text), as the mount shows it under bubblewrap.
 * Entries already there are left alone. Tool caches (`.vite`, `.cache`) are not linked, so they are written in the
 * worktree's folder.
 */
export async function linkNodeModules(source: string, worktree: string): Promise<number> {
  const target = join(worktree, 'node_modules');
  const folder = await lstat(target).catch(() => undefined);
  if (!folder?.isDirectory()) return 0;
  let made = 0;
  for (const entry of await readdir(source, { withFileTypes: true }).catch(() => [])) {
    if (entry.name.startsWith('.') && !['.bin', '.pnpm', '.modules.yaml', '.package-lock.json'].includes(entry.name)) continue;
    const link = entry.isSymbolicLink() ? await readlink(join(source, entry.name)) : join(source, entry.name);
    try {
      await symlink(link, join(target, entry.name));
      made++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return made;
}
