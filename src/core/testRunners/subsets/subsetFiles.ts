import { lstat, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { plainWord } from '../reports/commandLine';
import type { TestSubset } from '../types';
import type { SubsetFiles } from './subsetCommand';

/** A workspace-relative path as runners are given it (forward slashes, no `./`), or undefined when it leaves the workspace. */
function workspacePath(path: string): string | undefined {
  const p = path.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
  if (!p || p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.split('/').includes('..')) return undefined;
  return p;
}

/** True when `path` (workspace-relative) is a regular file; a link is not followed, and does not count. */
async function isFile(workspace: string, path: string): Promise<boolean> {
  const stats = await lstat(join(workspace, path)).catch(() => undefined);
  return stats?.isFile() ?? false;
}

/**
 * The subset's files that are there to run: inside the workspace and regular files (a pytest node id `file::test`
 * counts when its file does); deleted and renamed files, folders and links are left out. Never throws.
 */
export async function existingSubsetFiles(workspace: string, subset: TestSubset): Promise<SubsetFiles> {
  const keep = async (paths: readonly string[] = []): Promise<string[]> => {
    const kept: string[] = [];
    for (const raw of paths) {
      const path = workspacePath(raw);
      const file = path?.split('::')[0];
      if (path && file && (await isFile(workspace, file))) kept.push(path);
    }
    return [...new Set(kept)];
  };
  return { testFiles: await keep(subset.testFiles), sourceFiles: await keep(subset.sourceFiles) };
}

const MOCHA_CONFIG_FILES = [
  '.mocharc.js',
  '.mocharc.cjs',
  '.mocharc.mjs',
  '.mocharc.json',
  '.mocharc.jsonc',
  '.mocharc.yaml',
  '.mocharc.yml',
];
/** A `spec` entry in a mocha config file (JSON, YAML or a JS module). */
const SPEC_ENTRY = /(?:^|[\s{,'"])spec['"]?\s*[:=]/m;

/**
 * True when mocha's configuration names spec files (`spec` in a `.mocharc.*`, the file `--config` names, or
 * package.json's `mocha` entry): mocha adds them to the files given on its command line, so a subset would run the
 * whole suite anyway. `words` are the command's words (`--no-config`, `--config <file>`, `--no-package` are read).
 */
export async function mochaConfigNamesSpec(workspace: string, words: readonly string[]): Promise<boolean> {
  const plain = words.map((w) => plainWord(w) ?? '');
  const configAt = plain.findIndex((w) => w === '--config' || w.startsWith('--config='));
  const named = configAt < 0 ? undefined : plain[configAt]!.includes('=') ? plain[configAt]!.slice(9) : plain[configAt + 1];
  const files = named ? [named] : plain.includes('--no-config') ? [] : MOCHA_CONFIG_FILES;
  for (const file of files) {
    const text = await readFile(resolve(workspace, file), 'utf8').catch(() => undefined);
    if (text !== undefined && SPEC_ENTRY.test(text)) return true;
  }
  if (plain.includes('--no-package')) return false;
  const pkg = await readFile(join(workspace, 'package.json'), 'utf8').catch(() => undefined);
  if (pkg === undefined) return false;
  try {
    const mocha = (JSON.parse(pkg) as { mocha?: unknown }).mocha;
    return typeof mocha === 'object' && mocha !== null && 'spec' in mocha;
  } catch {
    return false;
  }
}
