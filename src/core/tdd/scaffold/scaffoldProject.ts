import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { AgentError } from '../../errors/agentError';
import { scaffoldPlan, type ScaffoldKata } from './scaffoldFiles';
import { isLanguage, languagesInWords, type Language } from '../../vocabulary';

/** What scaffoldProject wrote. */
export interface ScaffoldResult {
  language: Language;
  /** Files written (workspace-relative). */
  created: string[];
  /** Files that already existed and were left alone. */
  skipped: string[];
  testCommand: string;
  needsInstall: boolean;
  notes: string[];
}

/** Entries that do not make a workspace "non-empty": git data and the session's own folder. */
const IGNORED_ENTRIES = new Set(['.git', '.tdd']);

/** True when the folder holds nothing but `.git` and `.tdd` (or does not exist yet). */
export async function isEmptyWorkspace(dir: string): Promise<boolean> {
  const entries = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  return entries.every((name) => IGNORED_ENTRIES.has(name));
}

/**
 * Writes a minimal project for the kata's language into `dir`: a test command that runs with zero tests,
 * the source and test folders, and a .gitignore. Existing files are never overwritten (they are listed in
 * `skipped`), so running it on a non-empty workspace cannot destroy anything.
 */
export async function scaffoldProject(dir: string, language: Language, kata: ScaffoldKata): Promise<ScaffoldResult> {
  if (!isLanguage(language)) {
    throw new AgentError(
      'VALIDATION',
      `Cannot scaffold a project for language '${String(language)}': use ${languagesInWords()}.`,
      { language },
    );
  }
  const root = resolve(dir);
  const plan = scaffoldPlan(language, kata);
  const created: string[] = [];
  const skipped: string[] = [];
  for (const [path, content] of Object.entries(plan.files)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    try {
      await writeFile(file, content, { flag: 'wx' }); // wx: fail instead of overwriting
      created.push(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      skipped.push(path);
    }
  }
  return { language, created, skipped, testCommand: plan.testCommand, needsInstall: plan.needsInstall, notes: plan.notes };
}
