/** A session's dependency plan: which installed Node packages and Python environment it uses, and what it is missing. */
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { productGit } from '../../hostGit/gitClient';
import { getLogger } from '../../logging/logger';
import type { SessionGitInfo } from '../git/sessionGitInfo';
import { productCacheDir } from '../git/sessionPaths';
import { commitTree, type CommitTree } from './commitTree';
import { isDirectory, within } from './hostPaths';
import { LOCKFILES, nodeManager, personInstall, storeKey } from './nodePackages';
import type {
  MissingDependencies,
  NodeDependencies,
  ProjectDependencies,
  ProjectDependenciesOptions,
  PythonDependencies,
} from './projectDependencyTypes';
import {
  declaresPythonDependencies,
  editableSourceRoots,
  findVirtualEnvironment,
  interpreterRoots,
  PYTHON_LOCKFILES,
  PYTHON_MANIFESTS,
  pythonRuntimeRequirements,
  venvCommand,
} from './pythonEnvironment';

export { linkNodeModules } from './installedModules';
export { declaredPackageManager, LOCKFILES, storeKey } from './nodePackages';
export type {
  MissingDependencies,
  NodeDependencies,
  NodePackageManager,
  ProjectDependencies,
  ProjectDependenciesOptions,
  PythonDependencies,
  PythonNeeds,
} from './projectDependencyTypes';
export { editableSourceRoots } from './pythonEnvironment';

const log = getLogger('tdd.session');

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
 *   `venv`; the profile's order; never one git tracks, which is the repository's code) as the interpreter, with the
 *   worktree's sources first on PYTHONPATH (the folders an editable install points at in the person's checkout, mapped
 *   into the worktree), and its base interpreter's folder when it is a real installation the sandbox may show. Without
 *   one, the test command's own interpreter (`python3` from PATH: pyenv, conda, the system's) runs the tests as it is;
 *   `pythonNeeds` says what the preflight checks it has, and the command that would make an environment.
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
  if (result.sandbox.nodeModules) {
    await ensureFolder(info.worktree, 'node_modules');
    // A package folder the worktree no longer has as a folder of its own (deleted, or made a link) gets no mount point.
    const packages = result.sandbox.nodeModules.packages ?? [];
    const placed: typeof packages = [];
    for (const p of packages) if (await ensureFolder(info.worktree, `${p.folder}/node_modules`)) placed.push(p);
    if (packages.length) result.sandbox.nodeModules.packages = placed;
    if (result.node?.packages)
      result.node.packages = result.node.packages.filter((p) => placed.some((q) => q.folder === p.folder));
  }
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
  return (await previewProjectDependencies(repository, options)).missing;
}

/**
 * For a preflight, before any worktree exists: the plan a session started now from the repository's HEAD would make
 * (its paths in the person's checkout instead of a worktree): what is `missing`, the Python environment the sandbox
 * would show, and what the test command's interpreter must have (`pythonNeeds`). Creates and runs nothing.
 */
export async function previewProjectDependencies(
  repository: { root: string; commonDir: string; head: string | null },
  options: ProjectDependenciesOptions = {},
): Promise<ProjectDependencies> {
  if (!repository.head) return { repository: repository.root, missing: [], sandbox: {} };
  const { run } = productGit(repository.root, { env: options.env, repositoryConfigOnly: true });
  const tree = await commitTree(run, repository.head);
  const where = { repository: repository.root, commonDir: repository.commonDir, worktree: repository.root };
  return planDependencies(where, tree, options);
}

/** The plan of {@link prepareProjectDependencies} for a tree, without touching the worktree. */
async function planDependencies(
  info: Pick<SessionGitInfo, 'repository' | 'commonDir' | 'worktree'>,
  tree: CommitTree,
  options: ProjectDependenciesOptions,
): Promise<ProjectDependencies> {
  const result: ProjectDependencies = { repository: info.repository, missing: [], sandbox: {} };
  const packageJson = await tree.read('package.json');
  if (packageJson !== null) result.node = await planNode(info, tree, packageJson, options, result);
  await planPython(info, tree, options, result);
  log.info('the project’s dependencies for the session', {
    node: result.node ? `${result.node.source} (${result.node.packageManager}, ${result.node.how})` : 'none',
    python: result.python?.venv ?? 'none',
    missing: result.missing.map((m) => m.command),
  });
  return result;
}

/** The Node dependencies a session would use: the tracked, the person's or an installed `node_modules`, shown read-only. */
async function planNode(
  info: Pick<SessionGitInfo, 'repository' | 'commonDir' | 'worktree'>,
  tree: CommitTree,
  packageJson: string,
  options: ProjectDependenciesOptions,
  result: ProjectDependencies,
): Promise<NodeDependencies | undefined> {
  const node = await nodeSource(info, tree, packageJson, options, result);
  if (!node || node.source === 'tracked') return node;
  if (!(await tree.ignored('node_modules/'))) {
    result.missing.push({
      language: 'node',
      command: "add 'node_modules/' to .gitignore and commit it",
      reason: `git does not ignore node_modules in ${info.repository}, so the session cannot put the installed packages there without committing them`,
    });
    return undefined;
  }
  const platform = options.platform ?? process.platform;
  node.how = options.sandbox === 'off' || platform !== 'linux' ? 'linked' : 'mount';
  if (node.source === 'person') {
    const packages = await packageModules(info.repository, tree);
    if (packages.length) node.packages = packages;
  }
  result.sandbox.nodeModules = {
    source: node.path,
    how: node.how === 'linked' ? 'linked' : 'mount',
    ...(node.packages ? { packages: node.packages.map((p) => ({ folder: p.folder, source: p.path })) } : {}),
  };
  return node;
}

/** Where the project's `node_modules` would come from; what cannot be had is added to `result.missing`. */
async function nodeSource(
  info: Pick<SessionGitInfo, 'repository' | 'commonDir' | 'worktree'>,
  tree: CommitTree,
  packageJson: string,
  options: ProjectDependenciesOptions,
  result: ProjectDependencies,
): Promise<NodeDependencies | undefined> {
  const env = options.env ?? process.env;
  const { entries, read } = tree;
  const worktree = info.worktree;
  const { manager, version } = nodeManager(packageJson, entries);
  const installCommand = personInstall(manager);
  const personModules = join(info.repository, 'node_modules');
  const lockName = LOCKFILES[manager].find((name) => entries.get(name) === 'blob');
  const lockText = lockName ? await read(lockName) : null;
  const lockfile =
    lockName && lockText !== null ? { name: lockName, text: lockText, key: storeKey(manager, lockName, lockText) } : undefined;
  if (entries.has('node_modules')) {
    return {
      packageManager: manager,
      version,
      source: 'tracked',
      path: join(worktree, 'node_modules'),
      packageJson,
      how: 'none',
      installCommand,
    };
  } else if (await isDirectory(personModules)) {
    return {
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
    return { packageManager: manager, version, source: 'store', path, packageJson, lockfile, how: 'mount', installCommand };
  } else if (manager !== 'npm') {
    result.missing.push({
      language: 'node',
      command: installCommand,
      reason: `the project uses ${manager} but has neither a node_modules folder nor a ${LOCKFILES[manager][0]} to install from`,
    });
  }
  return undefined;
}

/** The Python environment a session would show (the person's, read-only), or what the test command's interpreter needs. */
async function planPython(
  info: Pick<SessionGitInfo, 'repository' | 'commonDir' | 'worktree'>,
  tree: CommitTree,
  options: ProjectDependenciesOptions,
  result: ProjectDependencies,
): Promise<void> {
  const env = options.env ?? process.env;
  const { entries, read } = tree;
  const worktree = info.worktree;
  const pythonFiles = new Map<string, string | null>();
  for (const name of PYTHON_MANIFESTS) if (entries.get(name) === 'blob') pythonFiles.set(name, await read(name));
  // A lockfile counts only beside a manifest, and only its name is read.
  if (pythonFiles.size > 0) for (const name of PYTHON_LOCKFILES) if (entries.get(name) === 'blob') pythonFiles.set(name, '');
  if (pythonFiles.size > 0) {
    const venv = await findVirtualEnvironment(info.repository, env);
    const requirements = pythonRuntimeRequirements(pythonFiles);
    if (venv) {
      const editable = await editableSourceRoots(venv, info.repository);
      const mapped = editable.map((path) => join(worktree, relative(info.repository, path)));
      const fallback = entries.get('src') === 'tree' ? [join(worktree, 'src')] : [worktree];
      const { roots, refused } = await interpreterRoots(venv, { home: env.HOME, gitDirs: [info.commonDir] });
      if (refused.length) log.info('the sandbox does not show these folders the virtual environment names', { venv, refused });
      const python: PythonDependencies = {
        venv,
        interpreterRoots: roots,
        ...(refused.length ? { refusedRoots: refused } : {}),
        sourceRoots: mapped.length ? mapped : fallback,
      };
      result.python = python;
      // The person's own sources the editable install points at are hidden (bubblewrap), unless one holds the
      // environment or the git dir (a flat layout's `.pth` names the repository's root): PYTHONPATH still wins there.
      const hidden = editable.filter((path) => !within(venv, path) && !within(info.commonDir, path));
      result.sandbox.python = { venv, interpreterRoots: roots, sourceRoots: python.sourceRoots, hiddenSources: hidden };
      result.pythonNeeds = { requirements };
    } else {
      // No environment of the person's: the test command's interpreter runs the tests as it is (the preflight checks,
      // in the sandbox, that it has pytest and these requirements); making an environment is advice for when it does not.
      const pytest = options.testCommand === undefined || /\bpytest\b/.test(options.testCommand);
      result.pythonNeeds = {
        requirements,
        ...(declaresPythonDependencies(pythonFiles) || pytest ? { venvCommand: venvCommand(pythonFiles, { pytest }) } : {}),
      };
    }
  }
}

/**
 * The workspace packages' installed folders in the person's checkout: for each folder whose package.json the commit
 * holds, its `node_modules` when that is a folder there (not a link) and git ignores it.
 */
async function packageModules(repository: string, tree: CommitTree): Promise<Array<{ folder: string; path: string }>> {
  const found: Array<{ folder: string; path: string }> = [];
  for (const folder of await tree.packageFolders()) {
    const modules = join(repository, folder, 'node_modules');
    const entry = await lstat(modules).catch(() => undefined);
    if (!entry?.isDirectory() || !(await tree.ignored(`${folder}/node_modules/`))) continue;
    // A folder on the way that leads out of the checkout (a link) would show whatever it leads to: only the checkout's own.
    const real = await realpath(modules).catch(() => undefined);
    if (!real || !within(real, await realpath(repository).catch(() => repository))) continue;
    found.push({ folder, path: real });
  }
  return found;
}

/**
 * Makes `<root>/<path>` a folder unless something stands there (a folder already, or an entry left as it is). The
 * worktree's files may be the agents': every folder on the way must be a folder of its own, never a link, or nothing
 * is made. True when a folder stands there at the end.
 */
async function ensureFolder(root: string, path: string): Promise<boolean> {
  const parts = path.split('/');
  let dir = root;
  for (const [i, part] of parts.entries()) {
    dir = join(dir, part);
    const entry = await lstat(dir).catch(() => undefined);
    if (entry) {
      if (!entry.isDirectory()) return false;
      continue;
    }
    if (i < parts.length - 1) return false;
    await mkdir(dir);
  }
  return true;
}

/** The message of a session that cannot start for what is missing. */
export function missingDependenciesMessage(missing: MissingDependencies[], repository: string): string {
  const lines = missing.map((m) => `  ${m.command}    (${m.reason})`);
  return `The session's tests need the project's dependencies, which it cannot find or install. In ${repository}, run:\n${lines.join('\n')}\nthen start the session again.`;
}
