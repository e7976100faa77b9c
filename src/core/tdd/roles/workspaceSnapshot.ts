import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { SKIPPED_DIRS } from '../../testRunners/testFiles';

const MAX_FILES = 400;

/** One file of the workspace as the role's context lists it. */
export interface WorkspaceFile {
  /** Workspace-relative path with forward slashes. */
  path: string;
  size: number;
  /** Last modification time (ms since the epoch): the context shows files that changed last, last. */
  mtimeMs: number;
}

/**
 * Lists the workspace's files (sorted, forward slashes), skipping dependency and tool folders and a worktree's
 * `.git` file (it only points at the repository, by absolute path).
 */
export async function listWorkspaceFiles(root: string, signal?: AbortSignal): Promise<WorkspaceFile[]> {
  const files: WorkspaceFile[] = [];
  async function walk(dir: string): Promise<void> {
    signal?.throwIfAborted();
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (files.length >= MAX_FILES) return;
      if (entry.name === '.git') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) await walk(full);
      } else if (entry.isFile()) {
        const info = await stat(full);
        files.push({ path: relative(root, full).split(sep).join('/'), size: info.size, mtimeMs: info.mtimeMs });
      }
    }
  }
  await walk(root);
  return files;
}

/** Reads a file as text, or undefined when it looks binary (contains a NUL byte). */
export async function readTextFile(root: string, path: string): Promise<string | undefined> {
  const buffer = await readFile(join(root, path));
  if (buffer.includes(0)) return undefined;
  return buffer.toString('utf8');
}
