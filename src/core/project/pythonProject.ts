import { access, constants, realpath } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { iniWords, readIniSections } from './iniSections';
import { folderEntries, isProjectFolder, readProjectFile } from './projectFiles';
import { isTrackedByGit } from './trackedFiles';
import type { PythonEnvironment } from './projectProfile';

/** What a Python project's manifests and pytest's configuration say. */
export interface PythonProjectFacts {
  /** Manifests at the root (`pyproject.toml`, `setup.cfg`, `setup.py`, `requirements*.txt`). */
  manifests: string[];
  /** The file pytest takes its configuration from, when there is one. */
  pytestConfig?: string;
  /** pytest's `testpaths`: the folders it collects from. */
  testpaths?: string[];
  /** pytest's `python_files`: which file names are tests. */
  pythonFiles?: string[];
  /** `src` for a src/ layout, `flat` for packages or modules at the root. */
  layout: 'src' | 'flat';
  /** The package folders (`src/pkg`, or `pkg` at the root); empty for modules only. */
  packages: string[];
  python: PythonEnvironment;
  notes: string[];
}

/** Folders at the root that hold no package of the library, whatever they contain. */
const NOT_PACKAGES = new Set([
  'tests',
  'test',
  'docs',
  'doc',
  'examples',
  'example',
  'scripts',
  'benchmarks',
  'build',
  'dist',
  'venv',
  'site-packages',
]);

/** True when `name` at the root names a Python manifest. */
export function isPythonManifest(name: string): boolean {
  return /^(pyproject\.toml|setup\.cfg|setup\.py|requirements.*\.txt)$/.test(name);
}

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * The interpreter the tests run with: the activated virtual environment's (`VIRTUAL_ENV`), else one in the
 * project (`.venv/bin/python`, `venv/bin/python`), else `python3` from PATH. The environment is named by its real path
 * (a `.venv` that links to a folder elsewhere): the session's sandbox shows it there, and nowhere else. An environment
 * git tracks is the repository's code (a committed `.venv/bin/python` is whatever program its author wrote), not the
 * person's installation: it is never chosen.
 */
export async function pythonEnvironment(root: string, env: NodeJS.ProcessEnv): Promise<PythonEnvironment> {
  const bin = process.platform === 'win32' ? join('Scripts', 'python.exe') : join('bin', 'python');
  for (const { venv, activated } of virtualEnvironmentCandidates(root, env)) {
    if (!(await executable(join(venv, bin)))) continue;
    if (await isTrackedByGit(venv)) continue;
    const real = await realpath(venv).catch(() => venv);
    return { interpreter: join(real, bin), venv: real, activated };
  }
  return { interpreter: 'python3' };
}

/**
 * Where a project's virtual environment may be, in the order it wins: the activated one (`VIRTUAL_ENV`), then
 * `.venv`, then `venv` in the project. The profile's interpreter and the folder the sandbox shows both come from it.
 */
export function virtualEnvironmentCandidates(root: string, env: NodeJS.ProcessEnv): Array<{ venv: string; activated: boolean }> {
  const active = env.VIRTUAL_ENV;
  return [
    ...(active && isAbsolute(active) ? [{ venv: active, activated: true }] : []),
    ...['.venv', 'venv'].map((name) => ({ venv: join(root, name), activated: false })),
  ];
}

/** A TOML value that lists words: an array of strings, or one string split on whitespace (as pytest reads it). */
function tomlWords(value: unknown): string[] | undefined {
  if (typeof value === 'string') return iniWords(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return undefined;
}

interface PytestSettings {
  file: string;
  testpaths?: string[];
  pythonFiles?: string[];
}

/** pytest's own order: pytest.ini, .pytest.ini, pyproject.toml (with a pytest table), tox.ini `[pytest]`, setup.cfg `[tool:pytest]`. */
async function pytestSettings(root: string, entries: string[], notes: string[]): Promise<PytestSettings | undefined> {
  for (const file of ['pytest.ini', '.pytest.ini']) {
    if (!entries.includes(file)) continue;
    const section = readIniSections((await readProjectFile(root, file)) ?? '').get('pytest');
    return { file, testpaths: iniWords(section?.get('testpaths')), pythonFiles: iniWords(section?.get('python_files')) };
  }
  if (entries.includes('pyproject.toml')) {
    const text = (await readProjectFile(root, 'pyproject.toml')) ?? '';
    try {
      const data = parseToml(text) as { tool?: { pytest?: { ini_options?: Record<string, unknown> } & Record<string, unknown> } };
      const pytest = data.tool?.pytest;
      const options = pytest?.ini_options ?? (pytest && Object.keys(pytest).length > 0 ? pytest : undefined);
      if (options)
        return { file: 'pyproject.toml', testpaths: tomlWords(options.testpaths), pythonFiles: tomlWords(options.python_files) };
    } catch (err) {
      const where = err instanceof TomlError ? ` (line ${err.line})` : '';
      notes.push(`pyproject.toml is not valid TOML${where}, so pytest's settings in it were not read.`);
    }
  }
  for (const [file, name] of [
    ['tox.ini', 'pytest'],
    ['setup.cfg', 'tool:pytest'],
  ] as const) {
    if (!entries.includes(file)) continue;
    const section = readIniSections((await readProjectFile(root, file)) ?? '').get(name);
    if (section)
      return { file, testpaths: iniWords(section.get('testpaths')), pythonFiles: iniWords(section.get('python_files')) };
  }
  return undefined;
}

/** Package folders (holding `__init__.py`) directly in `dir`. */
async function packagesIn(root: string, dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of (await folderEntries(root, dir)).sort()) {
    if (name.startsWith('.') || name.startsWith('_') || NOT_PACKAGES.has(name) || name.endsWith('.egg-info')) continue;
    const path = dir === '.' ? name : `${dir}/${name}`;
    if ((await isProjectFolder(root, path)) && (await readProjectFile(root, `${path}/__init__.py`)) !== undefined)
      found.push(path);
  }
  return found;
}

/**
 * Reads a Python project at `root`: its manifests, pytest's configuration (a TOML file that cannot be parsed is a
 * note, not a refusal: pytest itself will say what is wrong), the layout and the interpreter. Undefined when the
 * root has no Python manifest.
 */
export async function readPythonProject(root: string, env: NodeJS.ProcessEnv): Promise<PythonProjectFacts | undefined> {
  const entries = await folderEntries(root);
  const manifests = entries.filter(isPythonManifest).sort();
  if (manifests.length === 0) return undefined;
  const notes: string[] = [];
  const pytest = await pytestSettings(root, entries, notes);
  const srcPackages = (await isProjectFolder(root, 'src')) ? await packagesIn(root, 'src') : [];
  const srcModules = srcPackages.length === 0 && (await folderEntries(root, 'src')).some((n) => n.endsWith('.py'));
  const layout = srcPackages.length > 0 || srcModules ? 'src' : 'flat';
  return {
    manifests,
    pytestConfig: pytest?.file,
    testpaths: pytest?.testpaths?.length ? pytest.testpaths.map((p) => p.replace(/^\.\//, '').replace(/\/+$/, '')) : undefined,
    pythonFiles: pytest?.pythonFiles?.length ? pytest.pythonFiles : undefined,
    layout,
    packages: layout === 'src' ? srcPackages : await packagesIn(root, '.'),
    python: await pythonEnvironment(root, env),
    notes,
  };
}
