import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, rename, rm, symlink, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AgentError } from '../errors/agentError';
import { readAtMost, specialFileKind, type SpecialFileKind } from '../namedFiles/readNamedFile';

/**
 * Reading and writing files of a tree whose every byte an attacker may have written (a session worktree, where
 * generated tests run): nothing here follows a symbolic link, opens a special file, or trusts a file's size.
 *
 * - Every folder on the way below the root is checked with `lstat`: a link, a file or a special file standing where
 *   a folder should be means the path does not exist below the root (reads), or is removed and replaced by a real
 *   folder (writes) — never followed.
 * - The last component is opened with `O_NOFOLLOW` (and `O_NONBLOCK`, so a FIFO swapped in cannot block), only when
 *   `lstat` says it is a regular file, and the open file must be the one `lstat` saw.
 * - Reads stop after `maxBytes`, whatever size the file claims (a sparse file can claim terabytes).
 * - Writes never write through an existing entry (a hard link to a file elsewhere would be changed in place): the
 *   content goes to a new file (`O_CREAT | O_EXCL | O_NOFOLLOW`) that is renamed over the old entry.
 *
 * Linux and macOS have no race-free `openat` in Node: a process running in the tree at the same time could swap a
 * folder for a link between the check and the use. The supervisor calls these between turns, when nothing of the
 * session runs (the sandbox ends every process of a test run with it).
 */

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;

/** What stands at a path of an untrusted tree, as {@link readTreeEntry} found it. */
export type TreeEntry =
  | { kind: 'missing' }
  | {
      kind: 'file';
      content: Buffer;
      /** True when any execute bit is set (the only mode bit git records). */
      executable: boolean;
    }
  | { kind: 'symlink'; target: string }
  /** A regular file over `maxBytes`: never read. `size` is what it claims; `identity` tells it apart from another. */
  | { kind: 'too_large'; size: number; identity: string }
  /** A folder, FIFO, socket or device: never opened. */
  | { kind: 'other'; type: SpecialFileKind; identity: string };

/** Bytes and kind of every entry equal (`too_large` and `other` by their identity: inode, size, change time). */
export function sameTreeEntry(a: TreeEntry, b: TreeEntry): boolean {
  switch (a.kind) {
    case 'missing':
      return b.kind === 'missing';
    case 'file':
      return b.kind === 'file' && a.executable === b.executable && a.content.equals(b.content);
    case 'symlink':
      return b.kind === 'symlink' && a.target === b.target;
    case 'too_large':
      return b.kind === 'too_large' && a.identity === b.identity;
    case 'other':
      return b.kind === 'other' && a.type === b.type && a.identity === b.identity;
  }
}

/**
 * The segments of a tree-relative path (`/` separators, as git writes them; one trailing `/`, git's mark of a folder,
 * is dropped). Refuses what could leave the root: an absolute path, `..`, `.` or empty segments, NUL bytes.
 */
function segmentsOf(relative: string): string[] {
  const segments = relative.replace(/(?<=.)\/$/, '').split('/');
  if (relative.includes('\0') || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new AgentError(
      'VALIDATION',
      `'${relative.replace(/\0/g, '\\0')}' is not a plain path below the worktree (no leading '/', '.', '..' or empty parts); it was not read or written.`,
      { path: relative },
    );
  }
  return segments;
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return undefined;
    throw error;
  }
}

function failure(action: string, relative: string, error: unknown): AgentError {
  const code = codeOf(error) ?? 'error';
  return new AgentError(
    'UNKNOWN',
    `Could not ${action} '${relative}' in the session worktree (${code}).`,
    { path: relative, code },
    { cause: error },
  );
}

function identityOf(info: Stats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.ctimeMs}`;
}

/** The real folder `segments` (all but the last) name below root, or undefined when a link, file or nothing stands on the way. */
async function existingParent(root: string, segments: readonly string[]): Promise<string | undefined> {
  let dir = root;
  for (const segment of segments.slice(0, -1)) {
    dir = join(dir, segment);
    if (!(await lstatOrUndefined(dir))?.isDirectory()) return undefined;
  }
  return dir;
}

/**
 * The UTF-8 text of a regular file at `relative` below `root` (read as {@link readTreeEntry} reads: no link followed,
 * no special file opened, at most `maxBytes`), or undefined for anything else: missing, a link, a folder, a device, too
 * large, or a path that could leave the root.
 */
export async function readTreeText(root: string, relative: string, maxBytes: number): Promise<string | undefined> {
  try {
    const entry = await readTreeEntry(root, relative, maxBytes);
    return entry.kind === 'file' ? entry.content.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** The names in the real folder at `relative` below `root` (`''` for the root), or none when a link or file stands on the way. */
export async function readTreeFolder(root: string, relative: string): Promise<string[]> {
  try {
    const segments = relative === '' ? [] : segmentsOf(relative);
    const parent = segments.length ? await existingParent(root, segments) : root;
    if (parent === undefined) return [];
    const path = segments.length ? join(parent, segments.at(-1)!) : root;
    if (!(await lstatOrUndefined(path))?.isDirectory()) return [];
    return await readdir(path);
  } catch {
    return [];
  }
}

/**
 * What stands at `relative` below `root`, without following any link: a regular file's bytes (when at most
 * `maxBytes`), a link's target, or what else it is. A path below a link or a file is `missing`, as git sees it.
 */
export async function readTreeEntry(root: string, relative: string, maxBytes: number): Promise<TreeEntry> {
  const segments = segmentsOf(relative);
  try {
    const parent = await existingParent(root, segments);
    if (parent === undefined) return { kind: 'missing' };
    const path = join(parent, segments.at(-1)!);
    const info = await lstatOrUndefined(path);
    if (!info) return { kind: 'missing' };
    if (info.isSymbolicLink()) return { kind: 'symlink', target: await readlink(path) };
    if (!info.isFile()) return { kind: 'other', type: specialFileKind(info), identity: identityOf(info) };
    if (info.size > maxBytes) return { kind: 'too_large', size: info.size, identity: identityOf(info) };
    const handle = await open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev) {
        // Swapped between lstat and open: report what is there now, never its bytes.
        return { kind: 'other', type: opened.isFile() ? 'device' : specialFileKind(opened), identity: identityOf(opened) };
      }
      const content = await readAtMost(handle, maxBytes);
      if (content.length > maxBytes)
        return { kind: 'too_large', size: Math.max(content.length, opened.size), identity: identityOf(opened) };
      return { kind: 'file', content, executable: (opened.mode & 0o111) !== 0 };
    } finally {
      await handle.close();
    }
  } catch (error) {
    // Gone, or a link swapped in, between the look and the open: it is not a regular file to read.
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return { kind: 'missing' };
    if (codeOf(error) === 'ELOOP') return { kind: 'other', type: 'device', identity: 'changed' };
    throw failure('read', relative, error);
  }
}

/**
 * Makes every folder on the way to `relative` a real folder below root: a link, file or special file standing where a
 * folder should be is removed (never followed), a missing folder is created. Returns the parent folder.
 */
async function realParent(root: string, segments: readonly string[]): Promise<string> {
  let dir = root;
  for (const segment of segments.slice(0, -1)) {
    dir = join(dir, segment);
    const info = await lstatOrUndefined(dir);
    if (info?.isDirectory()) continue;
    if (info) await unlink(dir); // a link is removed itself, not what it points to
    await mkdir(dir, { mode: 0o755 });
  }
  return dir;
}

/** Removes whatever stands at `path` (a folder with everything in it; links inside are removed, not followed). */
async function clear(path: string): Promise<void> {
  const info = await lstatOrUndefined(path);
  if (!info) return;
  if (info.isDirectory()) await rm(path, { recursive: true, force: true });
  else await unlink(path);
}

/**
 * Puts a regular file with `content` at `relative` below `root`: folders on the way made real (see above), and the
 * file written as a new file renamed over whatever stood there (a link, a hard link to a file elsewhere, a FIFO, a
 * folder), so nothing outside the tree is ever written.
 */
export async function writeTreeFile(root: string, relative: string, content: Buffer, executable = false): Promise<void> {
  const segments = segmentsOf(relative);
  try {
    const parent = await realParent(root, segments);
    const target = join(parent, segments.at(-1)!);
    const temp = join(parent, `.tdd-restore-${randomBytes(6).toString('hex')}`);
    const handle = await open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, executable ? 0o755 : 0o644);
    try {
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    try {
      if ((await lstatOrUndefined(target))?.isDirectory()) await clear(target);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  } catch (error) {
    throw failure('write', relative, error);
  }
}

/** Puts a symbolic link to `target` at `relative` below `root`, replacing whatever stood there (never following it). */
export async function writeTreeSymlink(root: string, relative: string, target: string): Promise<void> {
  const segments = segmentsOf(relative);
  try {
    const path = join(await realParent(root, segments), segments.at(-1)!);
    await clear(path);
    await symlink(target, path);
  } catch (error) {
    throw failure('write', relative, error);
  }
}

/**
 * Removes whatever stands at `relative` below `root` (a folder with its content). A path below a link or a file does
 * not exist below the root: nothing is removed, and the link is never followed.
 */
export async function removeTreeEntry(root: string, relative: string): Promise<void> {
  const segments = segmentsOf(relative);
  try {
    const parent = await existingParent(root, segments);
    if (parent !== undefined) await clear(join(parent, segments.at(-1)!));
  } catch (error) {
    throw failure('remove', relative, error);
  }
}
