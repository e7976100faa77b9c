import { posix } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parseJsoncText } from '../../json/jsonText';
import { readTextFile } from './workspaceSnapshot';

/**
 * One import a source file makes: the module as written and the names it takes from it.
 *
 * - JavaScript/TypeScript: `specifier` as written (`'..'`, `'./units.js'`, `'@/util'`, `'@scope/pkg/sub'`).
 * - Python: the module dotted, a relative one with its leading dots (`'textkit.core'`, `'.core'`, `'..'`).
 */
export interface ImportStatement {
  specifier: string;
  /**
   * The names taken (`default` for a default import); undefined when the whole module is taken: a namespace
   * (`import * as m`, `const m = require(…)`, `import pkg.mod`), a side-effect import, `export *`, `from m import *`,
   * a dynamic `import()`.
   */
  names?: string[];
}

/** A workspace file an import reaches, and the names taken from it (undefined: the module whole). */
export interface ResolvedImport {
  file: string;
  names?: string[];
}

/** What a `package.json` of the workspace says about where its code is. */
export interface PackageManifest {
  /** The folder it is in, workspace-relative (`''` for the root). */
  dir: string;
  name?: string;
  main?: string;
  /** `exports` as written: a string, a map of conditions, or a map of subpaths (`"."`, `"./sub"`, `"./*"`). */
  exports?: unknown;
}

/** What a `tsconfig.json` or `jsconfig.json` says about module resolution, its paths made workspace-relative. */
export interface TsConfigPaths {
  /** The folder it is in. */
  dir: string;
  /** `compilerOptions.baseUrl`, resolved. */
  baseUrl?: string;
  /** `compilerOptions.paths`: pattern → substitutions, resolved against `baseUrl` (or the config's folder). */
  paths?: Array<[string, string[]]>;
  /** `outDir` and `rootDir`, resolved: a built file under `outDir` stands for its source under `rootDir`. */
  outDir?: string;
  rootDir?: string;
}

/** The manifests module resolution reads, besides the list of files. */
export interface ProjectManifests {
  packages?: readonly PackageManifest[];
  tsconfigs?: readonly TsConfigPaths[];
  /** Folders Python imports from besides the root, `src/` and an importing file's own: pytest's `pythonpath`, setuptools' `where`. */
  pythonRoots?: readonly string[];
}

const JS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** A `.js` import of a TypeScript source (`./units.js` for `units.ts`), as TypeScript's ESM imports write it. */
const TS_FOR_JS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};
/**
 * The conditions a package's `exports` is read with: Node's for `import` and for `require` (a project's tests may do
 * either; the first listed in the package's own order wins), and the bundlers' `module`.
 */
const RUNTIME_CONDITIONS = new Set(['node', 'import', 'require', 'module', 'default']);
/** Conditions that point at sources or declarations: used only when the runtime's conditions reach no file of the workspace. */
const SOURCE_CONDITIONS = new Set(['source', 'development', 'types']);

/** At most this many manifests are read (a workspace's first 400 files are listed; a monorepo has one per package). */
const MAX_MANIFESTS = 64;

/**
 * Resolves an import to the workspace files it reaches, as the runtime does, from the list of the workspace's files
 * and the manifests that steer resolution:
 *
 * - JavaScript/TypeScript, relative (`'.'`, `'..'`, `'./x'`, `'../lib'`): the file as written, with each extension,
 *   a `.js` import standing for its `.ts` source; then a folder: its `package.json` `main`, then its `index` file
 *   (`index.js`, `index.ts`, `index.mjs`…). A built file (`dist/index.js`) that is not in the workspace stands for its
 *   source under the nearest tsconfig's `rootDir` (`outDir` → `rootDir`, `.js` → `.ts`, `.d.ts` → `.ts`).
 * - Bare specifiers: the nearest tsconfig's `paths` (with `*`) and `baseUrl`; then a package of the workspace by its
 *   `name` (the package itself, or another package of a monorepo) through its `exports` — a string, conditions
 *   (`import`/`require`, `node`, `default`), subpaths and `*` patterns — or `main` and `index` without one.
 *   Anything else (an installed dependency, a Node builtin) reaches no project file.
 * - Python: absolute modules from the importing file's own folder (pytest's rootdir insertion: the first folder
 *   upwards without an `__init__.py`), the root, `src/` and the configured roots; a package is its `__init__.py`;
 *   `from pkg import x` reaches `pkg/__init__.py` for the names and `pkg/x.py` when `x` is a submodule; relative
 *   imports (`from .core import a`, `from .. import b`) from the file's package.
 */
export class ModuleResolver {
  private readonly packages: readonly PackageManifest[];
  private readonly tsconfigs: readonly TsConfigPaths[];
  private readonly pythonRoots: readonly string[];

  constructor(
    private readonly files: ReadonlySet<string>,
    manifests: ProjectManifests = {},
  ) {
    this.packages = manifests.packages ?? [];
    this.tsconfigs = manifests.tsconfigs ?? [];
    this.pythonRoots = manifests.pythonRoots ?? [];
  }

  /** The workspace files `from` reaches through one import (none for a dependency, a builtin or a missing file). */
  resolve(from: string, statement: ImportStatement): ResolvedImport[] {
    if (from.endsWith('.py')) return this.resolvePython(from, statement);
    const file = this.resolveJs(from, statement.specifier);
    return file ? [{ file, ...(statement.names ? { names: statement.names } : {}) }] : [];
  }

  /** True when `path` is a package's entry: an `index` file, an `__init__.py`, or what a package.json's `main` or `exports` names. */
  isEntry(path: string): boolean {
    if (/(?:^|\/)(?:index\.[cm]?[jt]sx?|__init__\.py)$/.test(path)) return true;
    return this.packages.some((p) => this.packageTarget(p, '.') === path);
  }

  // --- JavaScript and TypeScript ---------------------------------------------------------------------------------

  private resolveJs(from: string, specifier: string): string | undefined {
    if (specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../')) {
      const target = within(posix.join(posix.dirname(from), specifier));
      return target === undefined ? undefined : this.fileOrFolder(target);
    }
    if (specifier.startsWith('/') || /^[a-z]+:/i.test(specifier)) return undefined; // absolute, node:, http:
    const config = this.tsconfigFor(from);
    for (const [pattern, substitutions] of config?.paths ?? []) {
      const star = matchPattern(pattern, specifier);
      if (star === undefined) continue;
      for (const substitution of substitutions) {
        const target = within(substitution.replace('*', star));
        const found = target === undefined ? undefined : this.fileOrFolder(target);
        if (found) return found;
      }
    }
    if (config?.baseUrl !== undefined) {
      const target = within(posix.join(config.baseUrl, specifier));
      const found = target === undefined ? undefined : this.fileOrFolder(target);
      if (found) return found;
    }
    const parts = specifier.split('/');
    const nameLength = specifier.startsWith('@') ? 2 : 1;
    const name = parts.slice(0, nameLength).join('/');
    const subpath = parts.length > nameLength ? `./${parts.slice(nameLength).join('/')}` : '.';
    const pkg = this.packages.find((p) => p.name === name);
    if (!pkg) return undefined;
    if (pkg.exports !== undefined) return this.packageTarget(pkg, subpath);
    return this.fileOrFolder(within(posix.join(pkg.dir, subpath)) ?? pkg.dir);
  }

  /** A file as Node's LOAD_AS_FILE, then LOAD_AS_DIRECTORY, find it (TypeScript's sources for `.js` included). */
  private fileOrFolder(target: string): string | undefined {
    return this.asFile(target) ?? this.asFolder(target);
  }

  private asFile(target: string): string | undefined {
    if (target !== '' && this.files.has(target)) return target;
    const extension = posix.extname(target);
    for (const ts of TS_FOR_JS[extension] ?? []) {
      const source = target.slice(0, -extension.length) + ts;
      if (this.files.has(source)) return source;
    }
    if (target === '') return undefined;
    return JS_EXTENSIONS.map((e) => target + e).find((c) => this.files.has(c)) ?? this.sourceOfBuilt(target);
  }

  private asFolder(target: string): string | undefined {
    const pkg = this.packages.find((p) => p.dir === target);
    if (pkg?.main) {
      const main = within(posix.join(target, pkg.main));
      const found = main === undefined ? undefined : (this.asFile(main) ?? this.asIndex(main));
      if (found) return found;
    }
    return this.asIndex(target);
  }

  private asIndex(folder: string): string | undefined {
    return JS_EXTENSIONS.map((e) => (folder ? `${folder}/index${e}` : `index${e}`)).find((c) => this.files.has(c));
  }

  /** The source of a built file that is not in the workspace: `dist/x.js` → `src/x.ts` by the nearest tsconfig. */
  private sourceOfBuilt(target: string): string | undefined {
    const config = this.tsconfigFor(target);
    if (!config?.outDir || config.rootDir === undefined) return undefined;
    const out = `${config.outDir}/`;
    if (!target.startsWith(out)) return undefined;
    const rest = target.slice(out.length).replace(/\.d\.[cm]?ts$/, '.js');
    const stem = posix.join(config.rootDir, rest).replace(/\.[cm]?jsx?$/, '');
    return JS_EXTENSIONS.slice(0, 4)
      .map((e) => stem + e)
      .find((c) => this.files.has(c));
  }

  /** The file a package's `exports` (or `main`) gives for a subpath, read with the runtime's conditions, then the sources'. */
  private packageTarget(pkg: PackageManifest, subpath: string): string | undefined {
    if (pkg.exports === undefined) {
      if (subpath !== '.') return undefined;
      return pkg.main ? this.asFile(within(posix.join(pkg.dir, pkg.main)) ?? '') : undefined;
    }
    const entry = subpathEntry(pkg.exports, subpath);
    if (!entry) return undefined;
    for (const wanted of [RUNTIME_CONDITIONS, SOURCE_CONDITIONS]) {
      for (const target of conditionalTargets(entry.value, wanted)) {
        const path = within(posix.join(pkg.dir, target.replace(/\*/g, entry.star ?? '*')));
        const found = path === undefined ? undefined : this.asFile(path);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** The nearest tsconfig.json (or jsconfig.json) at or above the folder of `path`. */
  private tsconfigFor(path: string): TsConfigPaths | undefined {
    let best: TsConfigPaths | undefined;
    for (const config of this.tsconfigs)
      if ((config.dir === '' || path.startsWith(`${config.dir}/`)) && (!best || config.dir.length > best.dir.length))
        best = config;
    return best;
  }

  // --- Python ----------------------------------------------------------------------------------------------------

  private resolvePython(from: string, statement: ImportStatement): ResolvedImport[] {
    const dots = /^\.*/.exec(statement.specifier)![0].length;
    const dotted = statement.specifier.slice(dots);
    const module = dotted ? dotted.split('.').join('/') : '';
    let roots: string[];
    if (dots > 0) {
      let base = posix.dirname(from) === '.' ? '' : posix.dirname(from);
      for (let i = 1; i < dots; i++) base = base.includes('/') ? posix.dirname(base) : '';
      roots = [base];
    } else roots = [...new Set([this.importerBase(from), '', 'src', ...this.pythonRoots])];
    for (const root of roots) {
      const at = module ? (root ? `${root}/${module}` : module) : root;
      const found: ResolvedImport[] = [];
      const moduleFile = this.pythonModule(at);
      if (moduleFile) found.push({ file: moduleFile, ...(statement.names ? { names: statement.names } : {}) });
      // `from pkg import x` may import the submodule `pkg/x.py`.
      for (const name of statement.names ?? []) {
        const submodule = this.pythonModule(at ? `${at}/${name}` : name);
        if (submodule) found.push({ file: submodule });
      }
      if (found.length) return found;
    }
    return [];
  }

  private pythonModule(at: string): string | undefined {
    if (!at) return undefined;
    return [`${at}.py`, `${at}/__init__.py`].find((c) => this.files.has(c));
  }

  /** The folder pytest puts on `sys.path` for a file: the first one upwards that is not a package. */
  private importerBase(from: string): string {
    let dir = posix.dirname(from) === '.' ? '' : posix.dirname(from);
    while (dir && this.files.has(`${dir}/__init__.py`)) dir = dir.includes('/') ? posix.dirname(dir) : '';
    return dir;
  }
}

/** A workspace-relative path without `./`, `''` for the root; undefined when it leaves the workspace. */
function within(path: string): string | undefined {
  const normal = posix.normalize(path).replace(/\/$/, '');
  if (normal === '.') return '';
  if (normal === '..' || normal.startsWith('../') || normal.startsWith('/')) return undefined;
  return normal.replace(/^\.\//, '');
}

/** What `*` stands for when `specifier` matches a tsconfig `paths` pattern (`''` for an exact match), or undefined. */
function matchPattern(pattern: string, specifier: string): string | undefined {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === specifier ? '' : undefined;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  if (specifier.length < prefix.length + suffix.length || !specifier.startsWith(prefix) || !specifier.endsWith(suffix))
    return undefined;
  return specifier.slice(prefix.length, specifier.length - suffix.length);
}

/** The value `exports` gives a subpath (`"."` or `"./x"`, `*` patterns matched), and what the `*` stood for. */
function subpathEntry(exports: unknown, subpath: string): { value: unknown; star?: string } | undefined {
  const isSubpathMap =
    typeof exports === 'object' &&
    exports !== null &&
    !Array.isArray(exports) &&
    Object.keys(exports).some((k) => k.startsWith('.'));
  if (!isSubpathMap) return subpath === '.' ? { value: exports } : undefined;
  const map = exports as Record<string, unknown>;
  if (subpath in map) return { value: map[subpath] };
  for (const [key, value] of Object.entries(map)) {
    const star = key.includes('*') ? matchPattern(key, subpath) : undefined;
    if (star !== undefined) return { value, star };
  }
  return undefined;
}

/** The targets a conditional `exports` value gives with `conditions`, in the order the runtime tries them. */
function conditionalTargets(value: unknown, conditions: ReadonlySet<string>, depth = 0): string[] {
  if (depth > 8) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => conditionalTargets(v, conditions, depth + 1));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([condition]) => conditions.has(condition))
    .flatMap(([, v]) => conditionalTargets(v, conditions, depth + 1));
}

/**
 * Reads the manifests that steer module resolution from the workspace's files: every `package.json` (name, main,
 * exports), every `tsconfig.json` and `jsconfig.json` (baseUrl, paths, outDir, rootDir; a relative `extends` followed),
 * and Python's extra import roots from `pyproject.toml` (`[tool.pytest.ini_options] pythonpath`, setuptools'
 * `packages.find.where` and `package-dir`, hatch's wheel `packages`) and from `pytest.ini`, `setup.cfg` and
 * `tox.ini` (`pythonpath =`). Bounded reads that never follow a link; a manifest that does not parse is skipped.
 */
export async function readProjectManifests(root: string, paths: readonly string[]): Promise<ProjectManifests> {
  const read = async (path: string): Promise<string | undefined> => {
    const file = await readTextFile(root, path);
    return file.kind === 'text' ? file.text : undefined;
  };
  const named = (pattern: RegExp) => paths.filter((p) => pattern.test(p)).slice(0, MAX_MANIFESTS);
  const packages: PackageManifest[] = [];
  for (const path of named(/(?:^|\/)package\.json$/)) {
    const value = jsonObject(await read(path));
    if (!value) continue;
    packages.push({
      dir: folderOf(path),
      ...(typeof value.name === 'string' ? { name: value.name } : {}),
      ...(typeof value.main === 'string' ? { main: value.main } : {}),
      ...(value.exports !== undefined && value.exports !== null ? { exports: value.exports } : {}),
    });
  }
  const tsconfigs: TsConfigPaths[] = [];
  for (const path of named(/(?:^|\/)[tj]sconfig\.json$/)) {
    const options = await compilerOptions(path, read, paths);
    if (!options) continue;
    const dir = folderOf(path);
    const at = (value: unknown, from = dir) => (typeof value === 'string' ? within(posix.join(from, value)) : undefined);
    const baseUrl = at(options.baseUrl);
    const config: TsConfigPaths = { dir };
    if (baseUrl !== undefined) config.baseUrl = baseUrl;
    if (typeof options.paths === 'object' && options.paths !== null) {
      config.paths = Object.entries(options.paths as Record<string, unknown>)
        .filter((e): e is [string, string[]] => Array.isArray(e[1]))
        .map(([pattern, list]) => [
          pattern,
          list.flatMap((s) => (typeof s === 'string' ? [at(s, baseUrl ?? dir) ?? ''] : [])).filter(Boolean),
        ]);
    }
    const outDir = at(options.outDir);
    if (outDir) config.outDir = outDir;
    const rootDir =
      at(options.rootDir) ?? (outDir && paths.some((p) => p.startsWith(`${dir ? `${dir}/` : ''}src/`)) ? at('src') : undefined);
    if (rootDir !== undefined) config.rootDir = rootDir;
    if (config.baseUrl !== undefined || config.paths?.length || config.outDir) tsconfigs.push(config);
  }
  return { packages, tsconfigs, pythonRoots: await pythonRoots(paths, read) };
}

/** A tsconfig's `compilerOptions`, those of the configs it `extends` (relative ones, three levels) under its own. */
async function compilerOptions(
  path: string,
  read: (path: string) => Promise<string | undefined>,
  paths: readonly string[],
  depth = 0,
): Promise<Record<string, unknown> | undefined> {
  const config = jsonObject(await read(path), true);
  if (!config) return undefined;
  const own = (
    typeof config.compilerOptions === 'object' && config.compilerOptions !== null ? config.compilerOptions : {}
  ) as Record<string, unknown>;
  const base = typeof config.extends === 'string' && config.extends.startsWith('.') ? config.extends : undefined;
  if (!base || depth >= 3) return own;
  const target = within(posix.join(folderOf(path), base));
  const file = target === undefined ? undefined : [target, `${target}.json`].find((c) => paths.includes(c));
  const inherited = file ? await compilerOptions(file, read, paths, depth + 1) : undefined;
  if (!inherited) return own;
  // Paths in an extended config are relative to that config: made relative to this one's folder.
  const rebased: Record<string, unknown> = { ...inherited };
  for (const key of ['baseUrl', 'outDir', 'rootDir'])
    if (typeof inherited[key] === 'string')
      rebased[key] = posix.relative(folderOf(path) || '.', posix.join(folderOf(file!), inherited[key])) || '.';
  return { ...rebased, ...own };
}

async function pythonRoots(paths: readonly string[], read: (path: string) => Promise<string | undefined>): Promise<string[]> {
  const roots: string[] = [];
  const add = (value: unknown) => {
    for (const v of Array.isArray(value) ? value : [value]) {
      const root = typeof v === 'string' ? within(v) : undefined;
      if (root) roots.push(root);
    }
  };
  if (paths.includes('pyproject.toml')) {
    const text = await read('pyproject.toml');
    try {
      const tool = (text ? (parseToml(text).tool as Record<string, any> | undefined) : undefined) ?? {};
      add(tool.pytest?.ini_options?.pythonpath);
      add(tool.setuptools?.packages?.find?.where);
      add(tool.setuptools?.['package-dir']?.['']);
      for (const pkg of (tool.hatch?.build?.targets?.wheel?.packages as unknown[] | undefined) ?? [])
        if (typeof pkg === 'string' && pkg.includes('/')) add(posix.dirname(pkg));
    } catch {
      // not TOML: no extra roots from it
    }
  }
  for (const ini of ['pytest.ini', 'setup.cfg', 'tox.ini'].filter((p) => paths.includes(p))) {
    const line = /^[ \t]*pythonpath[ \t]*=[ \t]*([^\n]+)/m.exec((await read(ini)) ?? '');
    if (line) add(line[1]!.trim().split(/\s+/));
  }
  return [...new Set(roots)].filter((r) => r !== '' && r !== 'src');
}

function jsonObject(text: string | undefined, comments = false): Record<string, any> | undefined {
  if (text === undefined) return undefined;
  if (!comments) {
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, any>) : undefined;
    } catch {
      return undefined;
    }
  }
  const parsed = parseJsoncText(text);
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)
    ? (parsed.value as Record<string, any>)
    : undefined;
}

function folderOf(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}
