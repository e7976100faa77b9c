import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { AgentError } from '../errors/agentError';

/**
 * Reading a file whose path a person or a file names — a flag (`--prices`, `--mcp-config`, `--cassette`), a kata, an
 * eval set and the files it lists, `tdd-agent.json`, an agent config — as a bounded regular file:
 *
 * - The path is opened with `O_NONBLOCK` (a FIFO never blocks the open, whether or not anything writes to it) and
 *   `O_NOCTTY` (a terminal never becomes the process's), and the open descriptor is `fstat`ed: what was opened is
 *   what is judged, with no window between a look and the open.
 * - Anything but a regular file — a FIFO, a device (`/dev/zero` never ends), a socket, a folder — is refused at once,
 *   naming the path and what it is; nothing is read from it.
 * - A file over the size bound is refused with its size, and no more than the bound is ever read, whatever size the
 *   file claims (one that grows while it is read is refused too).
 *
 * A link is followed: a person may name a link to their file. Trees an attacker writes are read with
 * `untrustedTree.ts` instead, which follows none (and shares {@link specialFileKind} and {@link readAtMost}).
 */

const { O_RDONLY } = constants;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOCTTY = constants.O_NOCTTY ?? 0;
const OPEN_FLAGS = O_RDONLY | O_NONBLOCK | O_NOCTTY;

/** The size bound of a named file unless its reader says otherwise: 1 MiB, far above any config, kata or price table. */
export const NAMED_FILE_MAX_BYTES = 1024 * 1024;

/** What stands at a path instead of a regular file. */
export type SpecialFileKind = 'directory' | 'fifo' | 'socket' | 'device';

/** Why a named file was not read: it is missing, not a regular file, over the bound, or the system refused it. */
export type NamedFileProblem = 'missing' | SpecialFileKind | 'too_large' | 'unreadable';

/** What a non-regular file is, from its `stat`: a folder, a FIFO, a socket, else a device. */
export function specialFileKind(info: Stats): SpecialFileKind {
  if (info.isDirectory()) return 'directory';
  if (info.isFIFO()) return 'fifo';
  if (info.isSocket()) return 'socket';
  return 'device';
}

const NOT_A_FILE: Record<SpecialFileKind, string> = {
  directory: 'is a folder, not a file',
  fifo: 'is a FIFO (named pipe), not a file',
  socket: 'is a socket, not a file',
  device: 'is a device, not a file',
};

/**
 * A named file that was not read (CONFIG): `message` is `<path> <reason>.`; `reason` (`is a FIFO (named pipe), not a
 * file`, `does not exist`, `is too large: 2000000 bytes, over the limit of 1048576`) lets a caller say it in its own words (`--prices FILE is a FIFO …`).
 */
export class NamedFileError extends AgentError {
  /** The path as it was given. */
  readonly path: string;
  /** What is wrong with it. */
  readonly problem: NamedFileProblem;
  /** The predicate of the message, without the path: `is a FIFO (named pipe), not a file`. */
  readonly reason: string;

  constructor(path: string, problem: NamedFileProblem, reason: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super('CONFIG', `${path} ${reason}.`, { path, problem, ...details }, cause === undefined ? undefined : { cause });
    this.name = 'NamedFileError';
    this.path = path;
    this.problem = problem;
    this.reason = reason;
  }
}

function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

function notAFile(path: string, info: Stats): NamedFileError {
  const kind = specialFileKind(info);
  return new NamedFileError(path, kind, NOT_A_FILE[kind]);
}

function tooLarge(path: string, size: number, maxBytes: number): NamedFileError {
  return new NamedFileError(path, 'too_large', `is too large: ${size} bytes, over the limit of ${maxBytes}`, {
    size,
    maxBytes,
  });
}

/**
 * The refusal of a path that would not open: a socket cannot be opened at all (`ENXIO`), so what `stat` says it is
 * comes first; then missing; then the system's reason.
 */
function openFailure(path: string, error: unknown, info: Stats | undefined): NamedFileError {
  if (info && !info.isFile()) return notAFile(path, info);
  const code = errnoOf(error) ?? 'unknown error';
  if (code === 'ENOENT' || code === 'ENOTDIR') return new NamedFileError(path, 'missing', 'does not exist', {}, error);
  return new NamedFileError(path, 'unreadable', `cannot be read (${code})`, { code }, error);
}

/** The refusal of what was opened, from the open descriptor's `fstat`, or undefined for a regular file within the bound. */
function openedProblem(path: string, info: Stats, maxBytes: number): NamedFileError | undefined {
  if (!info.isFile()) return notAFile(path, info);
  if (info.size > maxBytes) return tooLarge(path, info.size, maxBytes);
  return undefined;
}

function readFailure(path: string, error: unknown): NamedFileError {
  const code = errnoOf(error) ?? 'unknown error';
  return new NamedFileError(path, 'unreadable', `cannot be read (${code})`, { code }, error);
}

/**
 * Up to `maxBytes + 1` bytes of an open file from its start, whatever size it claims: more than `maxBytes` means
 * the file is over the bound (a sparse file can claim terabytes; `/proc` files claim none).
 */
export async function readAtMost(handle: FileHandle, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.allocUnsafe(Math.min(maxBytes + 1, 64 * 1024));
  while (total <= maxBytes) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, maxBytes + 1 - total), null);
    if (bytesRead === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, bytesRead)));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

function readAtMostSync(fd: number, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.allocUnsafe(Math.min(maxBytes + 1, 64 * 1024));
  while (total <= maxBytes) {
    const bytesRead = readSync(fd, chunk, 0, Math.min(chunk.length, maxBytes + 1 - total), null);
    if (bytesRead === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, bytesRead)));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/** Options of `readNamedFile`. */
export interface NamedFileOptions {
  /** The most bytes the file may hold; default {@link NAMED_FILE_MAX_BYTES}. */
  maxBytes?: number;
}

/**
 * The bytes of the regular file at `path` (a path a person or a file names), read as the module comment says. A
 * missing path, a FIFO, a device, a socket, a folder, a file over `maxBytes` or one the system will not read is a
 * {@link NamedFileError} naming the path and what it is; nothing ever blocks on a FIFO.
 */
export async function readNamedFile(path: string, options: NamedFileOptions = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? NAMED_FILE_MAX_BYTES;
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    throw openFailure(path, error, await stat(path).catch(() => undefined));
  }
  try {
    let info: Stats;
    let content: Buffer;
    try {
      info = await handle.stat();
      const problem = openedProblem(path, info, maxBytes);
      if (problem) throw problem;
      content = await readAtMost(handle, maxBytes);
    } catch (error) {
      throw error instanceof NamedFileError ? error : readFailure(path, error);
    }
    if (content.length > maxBytes) throw tooLarge(path, Math.max(content.length, info.size), maxBytes);
    return content;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The UTF-8 text of the regular file at `path`, read as `readNamedFile` reads. */
export async function readNamedText(path: string, options: NamedFileOptions = {}): Promise<string> {
  return (await readNamedFile(path, options)).toString('utf8');
}

/**
 * {@link readNamedText}, synchronously: for the few readers that must not wait (agent configs, read as an agent is
 * made). The same checks and the same refusals.
 */
export function readNamedTextSync(path: string, options: NamedFileOptions = {}): string {
  const maxBytes = options.maxBytes ?? NAMED_FILE_MAX_BYTES;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    let info: Stats | undefined;
    try {
      info = statSync(path);
    } catch {
      info = undefined;
    }
    throw openFailure(path, error, info);
  }
  try {
    let info: Stats;
    let content: Buffer;
    try {
      info = fstatSync(fd);
      const problem = openedProblem(path, info, maxBytes);
      if (problem) throw problem;
      content = readAtMostSync(fd, maxBytes);
    } catch (error) {
      throw error instanceof NamedFileError ? error : readFailure(path, error);
    }
    if (content.length > maxBytes) throw tooLarge(path, Math.max(content.length, info.size), maxBytes);
    return content.toString('utf8');
  } finally {
    try {
      closeSync(fd);
    } catch {
      /* closing a read-only descriptor loses nothing */
    }
  }
}
