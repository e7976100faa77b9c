import { resolve } from 'node:path';
import { NamedFileError, readNamedText } from '../../namedFiles/readNamedFile';
import { KataError } from './errors';
import type { Kata } from './kataSchema';
import { parseKata } from './parseKata';
import { type Language } from '../../vocabulary';

/**
 * Reads and parses a kata file (a bounded regular file, see `readNamedFile.ts`); a missing file, a FIFO, a device, a
 * folder or a file over 1 MiB is a KataError naming the path and what it is.
 */
export async function loadKata(path: string, options: { language?: Language } = {}): Promise<Kata> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readNamedText(file);
  } catch (cause) {
    if (!(cause instanceof NamedFileError)) throw cause;
    throw new KataError(`Kata file ${file} ${cause.reason}.`, { file, problem: cause.problem }, { cause });
  }
  return parseKata(text, { fileName: file, language: options.language });
}
