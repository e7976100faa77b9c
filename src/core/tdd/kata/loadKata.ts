import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { KataError } from './errors';
import type { Kata } from './kataSchema';
import type { KataLanguage } from './languageDefaults';
import { parseKata } from './parseKata';

/** Reads and parses a kata file; a missing or unreadable file is a KataError naming the path. */
export async function loadKata(path: string, options: { language?: KataLanguage } = {}): Promise<Kata> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a folder, not a markdown file'
          : `cannot be read (${code ?? 'unknown error'})`;
    throw new KataError(`Kata file ${file} ${why}.`, { file }, { cause });
  }
  return parseKata(text, { fileName: file, language: options.language });
}
