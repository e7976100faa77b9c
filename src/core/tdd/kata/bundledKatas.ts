import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { KataError } from './errors';
import type { Kata } from './kataSchema';
import { loadKata } from './loadKata';
import { parseKata } from './parseKata';
import { type Language } from '../../vocabulary';

/** A kata shipped in the repository's `katas/` folder. */
export interface BundledKata {
  slug: string;
  title: string;
  path: string;
}

function moduleDir(): string {
  return typeof __dirname === 'string' ? __dirname : process.cwd();
}

/**
 * The bundled `katas/` folder: the first one found walking up from this module's folder, which works for
 * sources run by tsx (`src/core/tdd/kata` → `../../../../katas`) and for the esbuild bundles (`dist/` → `../katas`).
 */
export function bundledKatasDir(startDir: string = moduleDir()): string | undefined {
  for (let dir = resolve(startDir); ; dir = dirname(dir)) {
    const candidate = join(dir, 'katas');
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The bundled katas, sorted by slug; an empty list when the folder is not found. */
export function listBundledKatas(startDir?: string): BundledKata[] {
  const dir = bundledKatasDir(startDir);
  if (!dir) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md') && name.toLowerCase() !== 'readme.md')
    .map((name) => {
      const path = join(dir, name);
      const kata = parseKata(readFileSync(path, 'utf8'), { fileName: path });
      return { slug: kata.slug, title: kata.title, path };
    })
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

/**
 * Loads a kata given either a path to a markdown file or the slug of a bundled kata (`fizzbuzz`).
 * Unknown names are a KataError listing the bundled katas.
 */
export async function resolveKata(pathOrSlug: string, options: { language?: Language; startDir?: string } = {}): Promise<Kata> {
  // "Add a foreign_key helper" is no file name: a sentence is a task, which runs without a kata file.
  const sentence = /\s/.test(pathOrSlug.trim()) && !/\.md$/i.test(pathOrSlug.trim()) && !existsSync(pathOrSlug);
  if (!sentence && (existsSync(pathOrSlug) || /[\\/]|\.md$/i.test(pathOrSlug))) return loadKata(pathOrSlug, options);
  const bundled = listBundledKatas(options.startDir);
  const match = bundled.find((k) => k.slug === pathOrSlug.toLowerCase());
  if (!match) {
    throw new KataError(
      `No kata file '${pathOrSlug}' and no bundled kata with that name. Bundled katas: ${bundled.map((k) => k.slug).join(', ') || '(none found)'}.${sentence ? ' It reads like a task in plain words: run it as a task instead of a kata.' : ''}`,
      { kata: pathOrSlug, bundled: bundled.map((k) => k.slug), ...(sentence ? { looksLikeTask: true } : {}) },
    );
  }
  return loadKata(match.path, options);
}
