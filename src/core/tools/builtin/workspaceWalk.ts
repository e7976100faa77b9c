import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { toWorkspaceRelative } from '../../workspaceSandbox/workspacePath';

/** Folders listed but never entered by `list_files` and `search_files` (case-insensitive). */
export const SKIPPED_DIRECTORIES: readonly string[] = ['.git', 'node_modules'];

/** One entry met while walking the workspace. */
export interface WalkEntry {
  absolute: string;
  /** Workspace-relative, `/`-separated. */
  relative: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** A folder in {@link SKIPPED_DIRECTORIES}: listed, not entered. */
  skipped: boolean;
}

function kindOf(entry: Dirent): WalkEntry['kind'] {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  return entry.isFile() ? 'file' : 'other';
}

/**
 * Walks a workspace folder breadth-first (so a capped listing still shows the top levels),
 * names sorted within each folder. Never follows symbolic links (they could leave the
 * workspace or loop) and never enters `.git` or `node_modules`. Unreadable folders are passed
 * over. Stops with an AbortError when `signal` fires; the caller stops it early by breaking.
 */
export async function* walkWorkspace(
  root: string,
  start: string,
  options: { recursive: boolean; signal?: AbortSignal },
): AsyncGenerator<WalkEntry> {
  const queue = [start];
  while (queue.length > 0) {
    options.signal?.throwIfAborted();
    const dir = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const absolute = path.join(dir, entry.name);
      const kind = kindOf(entry);
      const skipped = kind === 'directory' && SKIPPED_DIRECTORIES.includes(entry.name.toLowerCase());
      yield { absolute, relative: toWorkspaceRelative(root, absolute), kind, skipped };
      if (kind === 'directory' && !skipped && options.recursive) queue.push(absolute);
    }
  }
}
