import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kata } from '../kata';
import { scaffoldProject } from '../scaffold';

/** Files whose presence means the workspace already has a project for the language. */
const PROJECT_MARKERS: Record<Kata['language'], string[]> = {
  javascript: ['package.json'],
  typescript: ['package.json'],
  python: ['pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini', 'conftest.py'],
};

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Gives a workspace without a project for the kata's language a minimal one (test command, source and
 * test folders, .gitignore). A workspace holding only the kata file or a README counts as empty; existing
 * files are never overwritten. Returns true when files were written (the caller commits them).
 */
export async function prepareProject(workspace: string, kata: Kata): Promise<boolean> {
  for (const marker of PROJECT_MARKERS[kata.language]) {
    if (await exists(join(workspace, marker))) return false;
  }
  const result = await scaffoldProject(workspace, kata.language, kata);
  return result.created.length > 0;
}
