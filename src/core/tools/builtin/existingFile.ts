import { open, stat } from 'node:fs/promises';
import { looksBinary } from './textLimits';

/** Files larger than this are not loaded as text (for reads, edits and diff previews). */
export const MAX_TEXT_FILE_BYTES = 8 * 1024 * 1024;

/** What is at a path right now, as far as a text tool cares. */
export type ExistingFile =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'binary'; bytes: number }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'text'; bytes: number; text: string };

/**
 * Reads the file at an already sandbox-checked absolute path: missing, a directory, binary
 * (a NUL byte early on), larger than {@link MAX_TEXT_FILE_BYTES}, or its UTF-8 text.
 * Only the first `MAX_TEXT_FILE_BYTES + 1` bytes are ever read, so a huge file cannot exhaust memory.
 */
export async function readExistingFile(absolute: string): Promise<ExistingFile> {
  let info;
  try {
    info = await stat(absolute);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'ENOTDIR')
      return { kind: 'missing' };
    throw error;
  }
  if (info.isDirectory()) return { kind: 'directory' };
  if (info.size > MAX_TEXT_FILE_BYTES) return { kind: 'too-large', bytes: info.size };
  const handle = await open(absolute, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(info.size, MAX_TEXT_FILE_BYTES) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const data = buffer.subarray(0, bytesRead);
    if (bytesRead > MAX_TEXT_FILE_BYTES) return { kind: 'too-large', bytes: bytesRead };
    if (looksBinary(data)) return { kind: 'binary', bytes: bytesRead };
    return { kind: 'text', bytes: bytesRead, text: data.toString('utf8') };
  } finally {
    await handle.close();
  }
}
