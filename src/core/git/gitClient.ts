import { simpleGit, type SimpleGit } from 'simple-git';
import { gitEnvironment } from './gitEnvironment';

/** Where hooks are looked for in every git call of the product: nowhere, so no hook of the repository ever runs. */
export const NO_HOOKS_PATH = process.platform === 'win32' ? 'NUL' : '/dev/null';

/** Options of {@link productGit}. */
export interface ProductGitOptions {
  /** Environment to clean and use (default: this process's). */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /**
   * Pin the repository instead of discovering it from `baseDir`: a worktree's `.git` file is inside the
   * folder generated code may write, so session calls name their git dir and work tree explicitly.
   */
  gitDir?: string;
  workTree?: string;
}

/** Runs one git command and resolves to its stdout. */
export type GitRun = (args: string[]) => Promise<string>;

/**
 * The one way the product talks to git: the clean environment of {@link gitEnvironment}, hooks turned
 * off (`core.hooksPath` pointing nowhere, so `worktree add`, `commit` and `checkout` run no hook of the
 * person's repository), and no optional locks (a read such as `status` never rewrites the person's index).
 */
export function productGit(baseDir: string, options: ProductGitOptions = {}): { git: SimpleGit; run: GitRun } {
  const { env, allow } = gitEnvironment(options.env ?? process.env);
  const git = simpleGit({
    baseDir,
    abort: options.signal,
    trimmed: false,
    config: [`core.hooksPath=${NO_HOOKS_PATH}`],
    allowEnvironment: allow,
    unsafe: { allowUnsafeHooksPath: true, allowUnsafeConfigPaths: true },
  }).env(env);
  const pinned = [
    '--no-optional-locks',
    ...(options.gitDir ? [`--git-dir=${options.gitDir}`] : []),
    ...(options.workTree ? [`--work-tree=${options.workTree}`] : []),
  ];
  return { git, run: (args) => git.raw([...pinned, ...args]) };
}
