import { join } from 'node:path';
import type { SandboxPolicy } from './types';

/**
 * The project's installed dependencies a session's processes use (found by the supervisor before the sandbox is made;
 * `prepareProjectDependencies` in the supervisor). Every path is absolute; none of them is ever writable inside.
 */
export interface WorktreeDependencies {
  /**
   * The `node_modules` the tests use: the person's own, or the product's shared install of the same lockfile.
   * `mount`: shown at `<worktree>/node_modules` by the sandbox (`ModulesMount`); `linked`: the supervisor made
   * `<worktree>/node_modules` itself (links into `source`, for sandboxes that cannot mount), so `source` is only made
   * readable.
   */
  nodeModules?: {
    source: string;
    how: 'mount' | 'linked';
    /**
     * The workspace packages' own installed folders (a monorepo's `packages/app/node_modules`), each shown at
     * `<worktree>/<folder>/node_modules` the same way (`folder` relative to the worktree, forward slashes).
     */
    packages?: Array<{ folder: string; source: string }>;
  };
  /** The person's Python virtual environment, used as the interpreter of every run. */
  python?: {
    /** The environment's folder (`<repo>/.venv`, or `VIRTUAL_ENV`): readable inside, its `bin` first on PATH. */
    venv: string;
    /** Folders the environment's interpreter lives in (pyvenv.cfg's `home`, often under HOME): readable inside. */
    interpreterRoots: string[];
    /** The worktree's source folders (`<worktree>/src`), first on PYTHONPATH: the session imports its own code, not the checkout an editable install points at. */
    sourceRoots: string[];
    /** The person's own source folders the environment's editable install points at: shown empty (bubblewrap), so a module the session deleted is not found there. */
    hiddenSources?: string[];
  };
}

/**
 * The confinement of everything a session runs (test runs, quality gates, `run_command`, the Testing
 * view's runs): write only in the session's worktree, its `.git` file read-only on top, and the
 * repository's common git dir readable (git inside the sandbox can read the history, never change it),
 * its config shown sanitised (no credentials in remote URLs, no includes, no credential helpers).
 * With `dependencies`, the project's installed packages are seen too, never writable: the `node_modules` at the
 * worktree's `node_modules`, the virtual environment readable at its own path with `VIRTUAL_ENV` set, its `bin`
 * first on PATH and the worktree's sources first on PYTHONPATH.
 * @param dir the session worktree
 * @param commonDir the repository's common git dir (`git rev-parse --git-common-dir`)
 * @param passEnvironment variables shown inside beyond the allow-list (see {@link SandboxPolicy.passEnvironment})
 * @param dependencies the project's installed dependencies (see {@link WorktreeDependencies})
 */
export function worktreePolicy(
  dir: string,
  commonDir: string,
  passEnvironment?: string[],
  dependencies: WorktreeDependencies = {},
): SandboxPolicy {
  const { nodeModules, python } = dependencies;
  const view = python ? pythonEnvironmentPolicy(python) : undefined;
  const readable = [
    ...(nodeModules?.how === 'linked' ? [nodeModules.source, ...(nodeModules.packages ?? []).map((p) => p.source)] : []),
    ...(view?.readableRoots ?? []),
  ];
  return {
    writableRoots: [dir],
    readOnlyPaths: [join(dir, '.git')],
    readableRoots: [commonDir, ...readable],
    gitDirs: [commonDir],
    ...(passEnvironment?.length ? { passEnvironment } : {}),
    ...(nodeModules?.how === 'mount'
      ? {
          modules: [
            { source: nodeModules.source, target: join(dir, 'node_modules') },
            ...(nodeModules.packages ?? []).map((p) => ({ source: p.source, target: join(dir, p.folder, 'node_modules') })),
          ],
        }
      : {}),
    ...(view ? { setEnvironment: view.setEnvironment, prependPaths: view.prependPaths } : {}),
    ...(view?.hiddenPaths ? { hiddenPaths: view.hiddenPaths } : {}),
  };
}

/**
 * What the sandbox shows of a Python environment (the session's, and the preflight's probe of its interpreter): the
 * environment and its interpreter's folders readable, `VIRTUAL_ENV` set, its `bin` first on PATH, the given sources
 * first on PYTHONPATH, the person's own sources hidden. The interpreter's folders are those the supervisor found to be
 * real Python installations the sandbox may show (`toolchainRootVerdict`): nothing else of the environment's files
 * widens the sandbox.
 */
export function pythonEnvironmentPolicy(
  python: NonNullable<WorktreeDependencies['python']>,
): Required<Pick<SandboxPolicy, 'readableRoots' | 'setEnvironment' | 'prependPaths'>> & Pick<SandboxPolicy, 'hiddenPaths'> {
  return {
    readableRoots: [python.venv, ...python.interpreterRoots],
    setEnvironment: { VIRTUAL_ENV: python.venv },
    prependPaths: { PATH: [join(python.venv, 'bin')], PYTHONPATH: python.sourceRoots },
    ...(python.hiddenSources?.length ? { hiddenPaths: python.hiddenSources } : {}),
  };
}
