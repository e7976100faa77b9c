import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { readTreeEntry } from '../../workspaceSandbox/untrustedTree';
import { SKIPPED_DIRS } from '../../testRunners/testFiles';

const MAX_FILES = 400;

/**
 * Largest file the role context reads (256 KiB, ten times the default file budget of ~24 000 characters): a larger
 * one is named with its size, never read (generated code can leave a sparse file of any claimed size).
 */
export const MAX_CONTEXT_FILE_BYTES = 256 * 1024;

/** One file of the workspace as the role's context lists it. */
export interface WorkspaceFile {
  /** Workspace-relative path with forward slashes. */
  path: string;
  size: number;
  /** Last modification time (ms since the epoch): the context shows files that changed last, last. */
  mtimeMs: number;
}

/**
 * Lists the workspace's regular files (sorted, forward slashes), skipping dependency and tool folders, a worktree's
 * `.git` file (it only points at the repository, by absolute path), links (never followed: generated code may point
 * one anywhere) and special files.
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
        const info = await lstat(full).catch(() => undefined);
        if (!info?.isFile()) continue; // gone or swapped for a link since the listing
        files.push({ path: relative(root, full).split(sep).join('/'), size: info.size, mtimeMs: info.mtimeMs });
      }
    }
  }
  await walk(root);
  return files;
}

/** What {@link readTextFile} found: the text, or why there is none to show. */
export type WorkspaceText =
  | { kind: 'text'; text: string }
  /** Contains a NUL byte. */
  | { kind: 'binary' }
  /** Over the limit: not read; `size` is what the file claims. */
  | { kind: 'too_large'; size: number }
  /** Gone, a link or a special file: never followed or opened. */
  | { kind: 'not_a_file' };

/**
 * Reads a regular file of the workspace as text, never following a link on the way (lstat and `O_NOFOLLOW`), never
 * opening a special file, and reading at most `maxBytes` (default {@link MAX_CONTEXT_FILE_BYTES}).
 */
export async function readTextFile(root: string, path: string, maxBytes = MAX_CONTEXT_FILE_BYTES): Promise<WorkspaceText> {
  const entry = await readTreeEntry(root, path, maxBytes).catch(() => undefined);
  if (!entry) return { kind: 'not_a_file' }; // unreadable (permissions): the context lists it by path and size
  if (entry.kind === 'too_large') return { kind: 'too_large', size: entry.size };
  if (entry.kind !== 'file') return { kind: 'not_a_file' };
  if (entry.content.includes(0)) return { kind: 'binary' };
  return { kind: 'text', text: entry.content.toString('utf8') };
}
