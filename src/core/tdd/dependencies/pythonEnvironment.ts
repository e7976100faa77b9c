/** The person's Python virtual environment for a session: where it and its interpreter are, what an editable install points at, what to run without one. */
import { readdir, readFile, realpath } from 'node:fs/promises';
import { parse as parseToml } from 'smol-toml';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { virtualEnvironmentCandidates } from '../../project/pythonProject';
import { isTrackedByGit } from '../../project/trackedFiles';
import { isFile, within } from './hostPaths';
import { visibleToolchainRoots, type ToolchainRootContext } from './toolchainRoots';

/** The files of the base commit's root a plan reads. */
export const PYTHON_MANIFESTS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'requirements-dev.txt'];

/**
 * The virtual environment the person uses for this repository, in the project profile's order (its interpreter runs
 * the tests): `VIRTUAL_ENV`, then `.venv`, `venv`; a folder with pyvenv.cfg and bin/python, by its real path. One that
 * git tracks is the repository's code, not the person's installation, and is passed over.
 */
export async function findVirtualEnvironment(repository: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const { venv: dir } of virtualEnvironmentCandidates(repository, env)) {
    if (!(await isFile(join(dir, 'pyvenv.cfg'))) || !(await isFile(join(dir, 'bin', 'python')))) continue;
    if (await isTrackedByGit(dir)) continue;
    return realpath(dir);
  }
  return undefined;
}

/**
 * Where a virtual environment's interpreter lives, as the sandbox may show it: pyvenv.cfg's `home` (its prefix when it
 * is a `bin`) and where `bin/python` leads, each kept only when `toolchainRootVerdict` finds a real Python
 * installation outside everything the sandbox keeps private (a base interpreter under HOME, as pyenv's, is seen only
 * through the toolchains on PATH); the others are returned with the reason.
 */
export async function interpreterRoots(
  venv: string,
  context: ToolchainRootContext,
): Promise<{ roots: string[]; refused: Array<{ path: string; reason: string }> }> {
  const candidates = new Set<string>();
  const cfg = await readFile(join(venv, 'pyvenv.cfg'), 'utf8').catch(() => '');
  const home = /^\s*home\s*=\s*(.+?)\s*$/m.exec(cfg)?.[1];
  if (home && isAbsolute(home)) candidates.add(basename(home) === 'bin' ? dirname(home) : home);
  const python = await realpath(join(venv, 'bin', 'python')).catch(() => undefined);
  if (python && !within(python, venv))
    candidates.add(basename(dirname(python)) === 'bin' ? dirname(dirname(python)) : dirname(python));
  const { visible, refused } = await visibleToolchainRoots(
    [...candidates].filter((root) => !within(venv, root)),
    context,
  );
  return { roots: visible, refused };
}

/**
 * The folders of the person's checkout an editable install put on the environment's path: the lines of its `.pth`
 * files, and the package folders setuptools' editable finders map (`MAPPING = {'pkg': '/repo/src/pkg'}`), kept when
 * they lie in `repository`.
 */
export async function editableSourceRoots(venv: string, repository: string): Promise<string[]> {
  const found = new Set<string>();
  const lib = join(venv, 'lib');
  const versions = await readdir(lib).catch(() => [] as string[]);
  for (const version of versions) {
    const site = join(lib, version, 'site-packages');
    for (const name of await readdir(site).catch(() => [] as string[])) {
      const file = join(site, name);
      if (name.endsWith('.pth')) {
        for (const line of (await readFile(file, 'utf8').catch(() => '')).split(/\r?\n/)) {
          const path = line.trim();
          if (isAbsolute(path) && within(resolve(path), repository)) found.add(resolve(path));
        }
      } else if (/^__editable__.*finder\.py$/.test(name)) {
        const text = await readFile(file, 'utf8').catch(() => '');
        const mapping = /MAPPING\s*(?::[^=]*)?=\s*\{([^}]*)\}/.exec(text)?.[1] ?? '';
        for (const m of mapping.matchAll(/:\s*['"]([^'"]+)['"]/g)) {
          const path = resolve(m[1]!);
          if (within(path, repository)) found.add(dirname(path));
        }
      }
    }
  }
  return [...found];
}

/** The lockfiles of the tools that make a project's environment themselves, each with the command that makes it in `.venv`. */
export const PYTHON_LOCKFILES = ['uv.lock', 'pdm.lock', 'poetry.lock'];

/** A TOML table's body (up to the next table's header), by its exact header. */
function tomlTable(text: string, header: string): string {
  const escaped = header.replace(/[.[\]]/g, '\\$&');
  return new RegExp(`^\\[${escaped}\\]\\s*$([\\s\\S]*?)(?=^\\[|(?![\\s\\S]))`, 'm').exec(text)?.[1] ?? '';
}

/**
 * True when a Python project declares packages it needs: `[project] dependencies`, poetry's
 * `[tool.poetry.dependencies]` beyond `python`, a requirements file with lines, a setup.py.
 */
export function declaresPythonDependencies(files: Map<string, string | null>): boolean {
  const pyproject = files.get('pyproject.toml');
  if (pyproject) {
    const deps = /^dependencies\s*=\s*\[([\s\S]*?)\]/m.exec(tomlTable(pyproject, 'project'))?.[1] ?? '';
    if (/["']/.test(deps.replace(/#.*$/gm, ''))) return true;
    const poetry = tomlTable(pyproject, 'tool.poetry.dependencies').replace(/#.*$/gm, '');
    if (/^\s*(?!python\s*=)["']?[A-Za-z0-9]/m.test(poetry)) return true;
  }
  for (const name of ['requirements.txt', 'requirements-dev.txt']) {
    if ((files.get(name) ?? '').split(/\r?\n/).some((l) => l.trim() && !l.trim().startsWith('#'))) return true;
  }
  return files.get('setup.py') != null;
}

/** A distribution's name at the start of a requirement (`attrs>=21`, `Foo_Bar[extra] @ https://…`). */
const REQUIREMENT_NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(?:[<>=!~@(]|$)/;

/**
 * The distributions a Python project needs at run time, by its pyproject.toml: `[project] dependencies` and poetry's
 * `[tool.poetry.dependencies]` (not `python`, not optional ones). A requirement with an environment marker
 * (`tomli; python_version < "3.11"`) or a condition of poetry's (`python = …`, `markers = …`) is left out: whether it
 * applies is the interpreter's to say. Requirements files and setup.py are not read (they often list tools the tests do
 * not import, and setup.py is a program). A pyproject.toml that is not TOML gives none.
 */
export function pythonRuntimeRequirements(files: Map<string, string | null>): string[] {
  const text = files.get('pyproject.toml');
  if (!text) return [];
  let data: { project?: { dependencies?: unknown }; tool?: { poetry?: { dependencies?: unknown } } };
  try {
    data = parseToml(text) as typeof data;
  } catch {
    return [];
  }
  const names = new Set<string>();
  const pep621 = data.project?.dependencies;
  for (const spec of Array.isArray(pep621) ? pep621 : []) {
    if (typeof spec !== 'string' || spec.includes(';')) continue;
    const name = REQUIREMENT_NAME.exec(spec)?.[1];
    if (name) names.add(name);
  }
  const poetry = data.tool?.poetry?.dependencies;
  if (poetry && typeof poetry === 'object') {
    for (const [name, spec] of Object.entries(poetry as Record<string, unknown>)) {
      if (name.toLowerCase() === 'python' || !REQUIREMENT_NAME.test(name)) continue;
      if (Array.isArray(spec)) continue; // one entry per condition
      if (spec && typeof spec === 'object') {
        const table = spec as Record<string, unknown>;
        if (table.optional === true || 'python' in table || 'markers' in table || 'platform' in table) continue;
      }
      names.add(name);
    }
  }
  return [...names];
}

/**
 * The command that makes the virtual environment a session uses: the project (editable) and its requirements, and
 * pytest when the tests run with it (the preflight refuses an environment without it), so one command is enough.
 */
export function venvCommand(files: Map<string, string | null>, options: { pytest?: boolean } = {}): string {
  // uv, pdm and poetry install what their lockfile says, dev group included, into the project's `.venv` (poetry keeps
  // its environments elsewhere unless told). Only when the project names pytest: else the lock does not bring it.
  const pyproject = files.get('pyproject.toml') ?? '';
  if (options.pytest === false || /\bpytest\b/.test(pyproject)) {
    if (files.has('uv.lock')) return 'uv sync';
    if (files.has('pdm.lock')) return 'pdm install';
    if (files.has('poetry.lock') || /^\[tool\.poetry\]/m.test(pyproject))
      return 'poetry config virtualenvs.in-project true --local && poetry install';
  }
  const installable = files.get('pyproject.toml') != null || files.get('setup.py') != null;
  const what = [installable ? '-e .' : '', files.get('requirements.txt') != null ? '-r requirements.txt' : '']
    .filter(Boolean)
    .join(' ');
  return `python3 -m venv .venv && .venv/bin/pip install ${what || '-e .'}${options.pytest === false ? '' : ' pytest'}`;
}
