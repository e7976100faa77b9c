/** What a session's dependency plan says: where its Node packages and Python environment come from, and what is missing. */
import type { SandboxMode, WorktreeDependencies } from '../../osSandbox';

/** The package managers whose installs a session can reuse or make. */
export type NodePackageManager = 'npm' | 'pnpm' | 'yarn';

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
  /**
   * The workspace packages' own `node_modules` in the person's checkout (pnpm links each package's dependencies there,
   * `packages/app/node_modules/lib` → `../../lib`), each shown at `<worktree>/<folder>/node_modules` as the root's is.
   * Only with `source: 'person'`; absent when there are none.
   */
  packages?: Array<{ folder: string; path: string }>;
}

/** The person's Python virtual environment, as the session uses it. */
export interface PythonDependencies {
  /** The environment's folder (real path). */
  venv: string;
  /**
   * Where its interpreter lives (pyvenv.cfg's `home`, and where `bin/python` leads), when that is a real Python
   * installation the sandbox may show (see `toolchainRootVerdict`).
   */
  interpreterRoots: string[];
  /** The folders pyvenv.cfg or the interpreter link named that the sandbox does not show, each with the reason. */
  refusedRoots?: Array<{ path: string; reason: string }>;
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
  /**
   * For a Python project: what the preflight checks that the test command's interpreter has (in the sandbox), and,
   * when the person has no virtual environment, the command that would make one (advice, when something is missing).
   */
  pythonNeeds?: PythonNeeds;
}

/** What a Python project's tests need from the interpreter that runs them. */
export interface PythonNeeds {
  /** The distributions pyproject.toml says the project needs at run time (`pythonRuntimeRequirements`). */
  requirements: string[];
  /** The command that makes a virtual environment with them, when the project has none (`venvCommand`). */
  venvCommand?: string;
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
  /**
   * The session's test command, when known: the command that makes a missing virtual environment installs pytest
   * unless this is a command without it (default: with pytest, the Python default).
   */
  testCommand?: string;
}
