import { copyFile, lstat, mkdir, readlink, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { productGit } from '../../hostGit/gitClient';

/** What {@link copyWorkingTree} copied into the worktree. */
export interface SnapshotResult {
  copied: number;
  removed: number;
}

/**
 * Makes `worktree` (a checkout of the person's HEAD) hold what the person's working tree holds:
 * tracked files as they are on disk, untracked files that are not ignored, and tracked files the person
 * deleted removed. Reads the person's tree only (`ls-files` takes no lock and writes no index); ignored
 * files and submodules are never copied.
 */
export async function copyWorkingTree(personRoot: string, worktree: string, env?: NodeJS.ProcessEnv): Promise<SnapshotResult> {
  const { run } = productGit(personRoot, { env });
  const list = async (args: string[]): Promise<string[]> => (await run(['ls-files', '-z', ...args])).split('\0').filter(Boolean);
  const tracked = await list(['--cached']);
  const untracked = await list(['--others', '--exclude-standard']);
  let copied = 0;
  let removed = 0;
  for (const path of new Set([...tracked, ...untracked])) {
    const from = join(personRoot, path);
    const to = join(worktree, path);
    const info = await lstat(from).catch(() => undefined);
    if (!info) {
      await rm(to, { force: true });
      removed++;
      continue;
    }
    if (info.isDirectory()) continue; // a submodule: its own repository, never copied
    await mkdir(dirname(to), { recursive: true });
    await rm(to, { force: true });
    if (info.isSymbolicLink()) await symlink(await readlink(from), to);
    else await copyFile(from, to);
    copied++;
  }
  return { copied, removed };
}
