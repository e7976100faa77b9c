import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, realpath, stat, symlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { productGit, type GitRun } from '../../git/gitClient';
import { getLogger } from '../../logging/logger';
import type { SandboxMode, WorktreeDependencies } from '../../osSandbox';
import type { SessionGitInfo } from '../git/sessionWorktree';
import { productCacheDir } from '../git/sessionPaths';

const log = getLogger('tdd.session');

/** The package managers whose installs a session can reuse or make. */
export type NodePackageManager = 'npm' | 'pnpm' | 'yarn';

/** Lockfiles by package manager, in the order they are looked for. */
export const LOCKFILES: Readonly<Record<NodePackageManager, readonly string[]>> = Object.freeze({
  pnpm: ['pnpm-lock.yaml'],
  npm: ['npm-shrinkwrap.json', 'package-lock.json'],
  yarn: ['yarn.lock'],
});

/** Where the session's `node_modules` comes from. */
export interface NodeDependencies {
  packageManager: NodePackageManager;
  /** The version `packageManager` in package.json names (`10.34.9`), when it names one of this manager. */
  version?: string;
  /**
   * `person`: the person's own `<repo>/node_modules`; `store`: the product's install of the same lockfile, shared by
   * every session (made once by `installDependencies` when missing); `tracked`: the base commit holds a
   * `node_modules` of its own, nothing to add.
   */
  source: 'person' | 'store' | 'tracked';
  /** The folder the tests see as the worktree's `node_modules` (real path; for `store`, it may not exist yet). */
  path: string;
  /** The lockfile of the base commit (`pnpm-lock.yaml`), and the sha256 of its manager, name and content (the store's key). */
  lockfile?: { name: string; text: string; key: string };
  /** The base commit's package.json (a store install reads it with the lockfile, never the worktree's). */
  packageJson: string;
  /** How the worktree sees it: mounted by the sandbox, or a folder of links the supervisor makes (no sandbox, macOS). */
  how: 'mount' | 'linked' | 'none';
  /** The install a person would run (`pnpm install`), for messages. */
  installCommand: string;
}

/** The person's Python virtual environment, as the session uses it. */
export interface PythonDependencies {
  /** The environment's folder (real path). */
  venv: string;
  /** Where its interpreter lives (pyvenv.cfg's `home`, and where `bin/python` leads). */
  interpreterRoots: string[];
  /** The worktree's folders that an editable install points at in the person's checkout (else `src/` or the root). */
  sourceRoots: string[];
}

/** Something the session needs and cannot make itself: what to run, and why. */
export interface MissingDependencies {
  language: 'node' | 'python';
  /** What the person runs in their repository (`pnpm install`, `python3 -m venv .venv && .venv/bin/pip install -e .`). */
  command: string;
  reason: string;
}

/** What {@link prepareProjectDependencies} found: what the session's processes use, and what is missing. */
export interface ProjectDependencies {
  /** The person's working tree the dependencies were looked for in. */
  repository: string;
  node?: NodeDependencies;
  python?: PythonDependencies;
  /** Each thing the session cannot run without; `installDependencies` refuses with their commands. */
  missing: MissingDependencies[];
  /** What the sandbox is told (`worktreePolicy`'s last argument). */
  sandbox: WorktreeDependencies;
}

/** Options of {@link prepareProjectDependencies}. */
export interface ProjectDependenciesOptions {
  /** The session's sandbox mode: `off` (or a platform without bubblewrap) makes a folder of links instead of a mount. */
  sandbox?: SandboxMode;
  /** Where the shared installs live. Default `<productCacheDir>/deps`. */
  storeRoot?: string;
  /** Environment read for `VIRTUAL_ENV` (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
}

/** The files of the base commit's root a plan reads. */
const PYTHON_MANIFESTS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'requirements-dev.txt'];

/** The manager a package.json's `packageManager` field names, and its version (`pnpm@10.34.9+sha512…`). */
export function declaredPackageManager(packageJson: string): { name: NodePackageManager; version?: string } | undefined {
  try {
    const field = (JSON.parse(packageJson) as { packageManager?: unknown }).packageManager;
    const m = typeof field === 'string' ? /^(npm|pnpm|yarn)@([^+\s]+)/.exec(field.trim()) : null;
    return m ? { name: m[1] as NodePackageManager, version: m[2] } : undefined;
  } catch {
    return undefined;
  }
}

/** The key of a shared install: the manager, the lockfile's name and its bytes. */
export function storeKey(manager: NodePackageManager, lockfileName: string, lockfileText: string): string {
  return createHash('sha256').update(`${manager}\0${lockfileName}\0`).update(lockfileText).digest('hex').slice(0, 32);
}

/** The command a person runs to install a project with `manager`. */
function personInstall(manager: NodePackageManager): string {
  return manager === 'npm' ? 'npm install' : `${manager} install`;
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** True when `path` is `root` or below it. */
function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A commit's root entries (name → `blob` / `tree`), a reader of its files, and git's ignore check where it is checked out. */
interface CommitTree {
  entries: Map<string, string>;
  read: (path: string) => Promise<string | null>;
  ignored: (path: string) => Promise<boolean>;
}

/** The root of `commit` read through `run` (files through git: a worktree's files may be the agents'). */
async function commitTree(run: GitRun, commit: string): Promise<CommitTree> {
  const listing = await run(['ls-tree', '-z', commit]).catch(() => '');
  const entries = new Map<string, string>();
  for (const line of listing.split('\0')) {
    const m = /^\d+ (\w+) [0-9a-f]+\t(.+)$/.exec(line);
    if (m) entries.set(m[2]!, m[1]!);
  }
  return {
    entries,
    read: (path) =>
      entries.get(path) === 'blob' ? run(['cat-file', 'blob', `${commit}:${path}`]).catch(() => null) : Promise.resolve(null),
    // check-ignore prints the path when it is ignored (its exit code 1 without output reads as success here).
    ignored: (path) =>
      run(['check-ignore', '--', path]).then(
        (out) => out.trim() !== '',
        () => false,
      ),
  };
}

/** The virtual environment the person uses for this repository: `.venv`, `venv`, then `VIRTUAL_ENV`; a folder with pyvenv.cfg and bin/python. */
async function findVirtualEnvironment(repository: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const candidates = [join(repository, '.venv'), join(repository, 'venv')];
  if (env.VIRTUAL_ENV && isAbsolute(env.VIRTUAL_ENV)) candidates.push(env.VIRTUAL_ENV);
  for (const dir of candidates) {
    if ((await isFile(join(dir, 'pyvenv.cfg'))) && (await isFile(join(dir, 'bin', 'python')))) return realpath(dir);
  }
  return undefined;
}

/** Where a virtual environment's interpreter lives: pyvenv.cfg's `home` (its prefix when it is a `bin`), and where `bin/python` leads. */
async function interpreterRoots(venv: string): Promise<string[]> {
  const roots = new Set<string>();
  const cfg = await readFile(join(venv, 'pyvenv.cfg'), 'utf8').catch(() => '');
  const home = /^\s*home\s*=\s*(.+?)\s*$/m.exec(cfg)?.[1];
  if (home && isAbsolute(home)) roots.add(basename(home) === 'bin' ? dirname(home) : home);
  const python = await realpath(join(venv, 'bin', 'python')).catch(() => undefined);
  if (python && !within(python, venv))
    roots.add(basename(dirname(python)) === 'bin' ? dirname(dirname(python)) : dirname(python));
  return [...roots].filter((root) => root !== '/' && !within(venv, root));
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

/** True when a Python project declares packages it needs (`[project] dependencies`, a requirements file with lines, a setup.py). */
function declaresPythonDependencies(files: Map<string, string | null>): boolean {
  const pyproject = files.get('pyproject.toml');
  if (pyproject) {
    const project = /^\[project\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(pyproject)?.[1] ?? '';
    const deps = /^dependencies\s*=\s*\[([\s\S]*?)\]/m.exec(project)?.[1] ?? '';
    if (/["']/.test(deps.replace(/#.*$/gm, ''))) return true;
  }
  for (const name of ['requirements.txt', 'requirements-dev.txt']) {
    if ((files.get(name) ?? '').split(/\r?\n/).some((l) => l.trim() && !l.trim().startsWith('#'))) return true;
  }
  return files.get('setup.py') != null;
}

/** The command that makes the virtual environment a session uses. */
function venvCommand(files: Map<string, string | null>): string {
  const installable = files.get('pyproject.toml') != null || files.get('setup.py') != null;
  const what = [installable ? '-e .' : '', files.get('requirements.txt') != null ? '-r requirements.txt' : '']
    .filter(Boolean)
    .join(' ');
  return `python3 -m venv .venv && .venv/bin/pip install ${what || '-e .'}`;
}

/** The manager of a Node project: package.json's `packageManager`, else the lockfile found, else npm. */
function nodeManager(packageJson: string, entries: Map<string, string>): { manager: NodePackageManager; version?: string } {
  const declared = declaredPackageManager(packageJson);
  if (declared) return { manager: declared.name, version: declared.version };
  for (const manager of ['pnpm', 'yarn', 'npm'] as const) {
    if (LOCKFILES[manager].some((name) => entries.get(name) === 'blob')) return { manager };
  }
  return { manager: 'npm' };
}

/**
 * Finds the project's installed dependencies for a session, before its sandbox is made (the result's `sandbox` goes
 * to `worktreePolicy`), from the base commit's manifests (read through git) and the person's checkout (read
 * only):
 *
 * - **Node** (a package.json): the person's `<repo>/node_modules`, used as it is; else, with a lockfile, the product's
 *   shared install of that lockfile (`<cache>/deps/<key>/node_modules`, made by `installDependencies` with the
 *   project's own manager, frozen, when no session made it yet); else nothing here (installDependencies installs
 *   into the worktree as before). The worktree's `node_modules` becomes an empty folder, the mount point, only when
 *   git ignores that path in the worktree; otherwise the session cannot use an install and says so.
 * - **Python** (pyproject.toml, setup.py, setup.cfg or requirements): the person's virtual environment (`.venv`,
 *   `venv`, `VIRTUAL_ENV`) as the interpreter, with the worktree's sources first on PYTHONPATH (the folders an
 *   editable install points at in the person's checkout, mapped into the worktree). Without one, a project that
 *   declares dependencies is `missing` (the command to make it), one that declares none runs the system's Python.
 *
 * Never throws for what it does not find; it reports it in `missing`.
 */
export async function prepareProjectDependencies(
  info: SessionGitInfo,
  options: ProjectDependenciesOptions = {},
): Promise<ProjectDependencies> {
  // Only the repository's own config, as the session's git reads it: a global excludes file must not count as ignored.
  const { run } = productGit(info.worktree, {
    gitDir: info.worktreeGitDir,
    workTree: info.worktree,
    env: options.env,
    repositoryConfigOnly: true,
  });
  const result = await planDependencies(info, await commitTree(run, info.baseCommit), options);
  if (result.sandbox.nodeModules) await ensureFolder(join(info.worktree, 'node_modules'));
  return result;
}

/**
 * For a preflight, before any worktree exists: what a session started now from the repository's HEAD would find
 * missing (an empty list when it can run: the person's installs are there, or the lockfile can be installed into the
 * shared store, or the project needs nothing). Creates nothing. Show {@link missingDependenciesMessage} when not empty.
 */
export async function checkProjectDependencies(
  repository: { root: string; commonDir: string; head: string | null },
  options: ProjectDependenciesOptions = {},
): Promise<MissingDependencies[]> {
  if (!repository.head) return [];
  const { run } = productGit(repository.root, { env: options.env, repositoryConfigOnly: true });
  const tree = await commitTree(run, repository.head);
  const where = { repository: repository.root, commonDir: repository.commonDir, worktree: repository.root };
  return (await planDependencies(where, tree, options)).missing;
}

/** The plan of {@link prepareProjectDependencies} for a tree, without touching the worktree. */
async function planDependencies(
  info: Pick<SessionGitInfo, 'repository' | 'commonDir' | 'worktree'>,
  tree: CommitTree,
  options: ProjectDependenciesOptions,
): Promise<ProjectDependencies> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const { entries, read, ignored } = tree;
  const result: ProjectDependencies = { repository: info.repository, missing: [], sandbox: {} };
  const worktree = info.worktree;

  const packageJson = await read('package.json');
  if (packageJson !== null) {
    const { manager, version } = nodeManager(packageJson, entries);
    const installCommand = personInstall(manager);
    const personModules = join(info.repository, 'node_modules');
    const lockName = LOCKFILES[manager].find((name) => entries.get(name) === 'blob');
    const lockText = lockName ? await read(lockName) : null;
    const lockfile =
      lockName && lockText !== null ? { name: lockName, text: lockText, key: storeKey(manager, lockName, lockText) } : undefined;
    let node: NodeDependencies | undefined;
    if (entries.has('node_modules')) {
      node = {
        packageManager: manager,
        version,
        source: 'tracked',
        path: join(worktree, 'node_modules'),
        packageJson,
        how: 'none',
        installCommand,
      };
    } else if (await isDirectory(personModules)) {
      node = {
        packageManager: manager,
        version,
        source: 'person',
        path: await realpath(personModules),
        packageJson,
        lockfile,
        how: 'mount',
        installCommand,
      };
    } else if (lockfile && manager === 'yarn' && /^__metadata:/m.test(lockfile.text)) {
      result.missing.push({
        language: 'node',
        command: 'yarn install',
        reason:
          'a session installs only yarn 1 projects itself; with yarn 2 or later it uses your own node_modules (nodeLinker: node-modules)',
      });
    } else if (lockfile) {
      const storeRoot = options.storeRoot ?? join(productCacheDir(env), 'deps');
      const path = join(storeRoot, lockfile.key, 'node_modules');
      node = { packageManager: manager, version, source: 'store', path, packageJson, lockfile, how: 'mount', installCommand };
    } else if (manager !== 'npm') {
      result.missing.push({
        language: 'node',
        command: installCommand,
        reason: `the project uses ${manager} but has neither a node_modules folder nor a ${LOCKFILES[manager][0]} to install from`,
      });
    }
    if (node && node.source !== 'tracked') {
      if (!(await ignored('node_modules/'))) {
        result.missing.push({
          language: 'node',
          command: "add 'node_modules/' to .gitignore and commit it",
          reason: `git does not ignore node_modules in ${info.repository}, so the session cannot put the installed packages there without committing them`,
        });
        node = undefined;
      } else {
        node.how = options.sandbox === 'off' || platform !== 'linux' ? 'linked' : 'mount';
        result.sandbox.nodeModules = { source: node.path, how: node.how === 'linked' ? 'linked' : 'mount' };
      }
    }
    result.node = node;
  }

  const pythonFiles = new Map<string, string | null>();
  for (const name of PYTHON_MANIFESTS) if (entries.get(name) === 'blob') pythonFiles.set(name, await read(name));
  if (pythonFiles.size > 0) {
    const venv = await findVirtualEnvironment(info.repository, env);
    if (venv) {
      const editable = await editableSourceRoots(venv, info.repository);
      const mapped = editable.map((path) => join(worktree, relative(info.repository, path)));
      const fallback = entries.get('src') === 'tree' ? [join(worktree, 'src')] : [worktree];
      const python: PythonDependencies = {
        venv,
        interpreterRoots: await interpreterRoots(venv),
        sourceRoots: mapped.length ? mapped : fallback,
      };
      result.python = python;
      // The person's own sources the editable install points at are hidden (bubblewrap), unless one holds the
      // environment or the git dir (a flat layout's `.pth` names the repository's root): PYTHONPATH still wins there.
      const hidden = editable.filter((path) => !within(venv, path) && !within(info.commonDir, path));
      result.sandbox.python = { ...python, hiddenSources: hidden };
    } else if (declaresPythonDependencies(pythonFiles)) {
      result.missing.push({
        language: 'python',
        command: venvCommand(pythonFiles),
        reason: `the project declares Python dependencies and ${info.repository} has no virtual environment (.venv, venv or VIRTUAL_ENV)`,
      });
    }
  }
  log.info('the project’s dependencies for the session', {
    node: result.node ? `${result.node.source} (${result.node.packageManager}, ${result.node.how})` : 'none',
    python: result.python?.venv ?? 'none',
    missing: result.missing.map((m) => m.command),
  });
  return result;
}

/** Makes `dir` a folder unless something stands there (a folder already, or an entry left as it is). */
async function ensureFolder(dir: string): Promise<void> {
  const entry = await lstat(dir).catch(() => undefined);
  if (!entry) await mkdir(dir);
}

/**
 * For sandboxes that cannot mount (off, macOS): fills the worktree's `node_modules` folder with a link per top-level
 * entry of `source` (a link of the source's own is copied with its text), as the mount shows it under bubblewrap.
 * Entries already there are left alone. Tool caches (`.vite`, `.cache`) are not linked, so they are written in the
 * worktree's folder.
 */
export async function linkNodeModules(source: string, worktree: string): Promise<number> {
  const target = join(worktree, 'node_modules');
  const folder = await lstat(target).catch(() => undefined);
  if (!folder?.isDirectory()) return 0;
  let made = 0;
  for (const entry of await readdir(source, { withFileTypes: true }).catch(() => [])) {
    if (entry.name.startsWith('.') && !['.bin', '.pnpm', '.modules.yaml', '.package-lock.json'].includes(entry.name)) continue;
    const link = entry.isSymbolicLink() ? await readlink(join(source, entry.name)) : join(source, entry.name);
    try {
      await symlink(link, join(target, entry.name));
      made++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return made;
}

/** The message of a session that cannot start for what is missing. */
export function missingDependenciesMessage(missing: MissingDependencies[], repository: string): string {
  const lines = missing.map((m) => `  ${m.command}    (${m.reason})`);
  return `The session's tests need the project's dependencies, which it cannot find or install. In ${repository}, run:\n${lines.join('\n')}\nthen start the session again.`;
}
