import { execFile } from 'node:child_process';
import { simpleGit, type SimpleGit } from 'simple-git';
import { configArgs, NULL_DEVICE, PROGRAM_OVERRIDES } from './gitConfigOverrides';
import { gitEnvironment } from './gitEnvironment';

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
  /** An index file of its own (`GIT_INDEX_FILE`) for building trees without touching the repository's index. */
  indexFile?: string;
  /**
   * Read no system or global config file (`GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL=/dev/null`): only the
   * repository's own config and the `-c` settings. For calls on a session's worktree, which no setting of the
   * person's machine should reach (their identity is read once and given with `config`).
   */
  repositoryConfigOnly?: boolean;
  /** More `name=value` settings, given as `-c` after the product's own (see PROGRAM_OVERRIDES). */
  config?: readonly string[];
}

/** Runs one git command and resolves to its stdout. */
export type GitRun = (args: string[]) => Promise<string>;

/**
 * The one way the product talks to git: the clean environment of `gitEnvironment`, no configured program
 * (PROGRAM_OVERRIDES: hooks pointing nowhere, so `worktree add`, `commit` and `checkout` run no hook of the
 * person's repository; no fsmonitor, pager, editor, external diff, gpg or credential helper), and no optional
 * locks (a read such as `status` never rewrites the person's index). A patch-producing `git diff` needs
 * `--no-ext-diff` (the empty `diff.external` fails instead of running anything).
 */
export function productGit(baseDir: string, options: ProductGitOptions = {}): { git: SimpleGit; run: GitRun } {
  const { env, allow } = gitEnvironment(options.env ?? process.env);
  const git = simpleGit({
    baseDir,
    abort: options.signal,
    trimmed: false,
    config: [...PROGRAM_OVERRIDES],
    allowEnvironment: allow,
    unsafe: {
      allowUnsafeHooksPath: true,
      allowUnsafeConfigPaths: true,
      allowUnsafeFsMonitor: true,
      allowUnsafePager: true,
      allowUnsafeEditor: true,
      allowUnsafeDiffExternal: true,
      allowUnsafeCredentialHelper: true,
      allowUnsafeAskPass: true,
    },
  }).env(env);
  const pinned = [
    ...configArgs([...PROGRAM_OVERRIDES, ...(options.config ?? [])]),
    '--no-optional-locks',
    ...(options.gitDir ? [`--git-dir=${options.gitDir}`] : []),
    ...(options.workTree ? [`--work-tree=${options.workTree}`] : []),
  ];
  // GIT_* names outside the safe list are gone already (gitEnvironment); as simple-git does, abbreviated options are refused.
  const runEnv: Record<string, string> = { ...env, GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS: 'true' };
  if (options.indexFile) runEnv.GIT_INDEX_FILE = options.indexFile;
  if (options.repositoryConfigOnly) Object.assign(runEnv, { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: NULL_DEVICE });
  return { git, run: (args) => runGit(baseDir, [...pinned, ...args], runEnv, options.signal) };
}

/** A failed git call: `message` is git's stderr. */
export class GitCommandError extends Error {
  /** The exit code git ended with. */
  readonly exitCode: number | null;
  constructor(message: string, exitCode: number | null) {
    super(message);
    this.name = 'GitCommandError';
    this.exitCode = exitCode;
  }
}

/**
 * Runs git directly (one `execFile`, no shell) and resolves to its stdout. It rejects as simple-git's `raw` does: when
 * git exits non-zero and wrote to stderr (an exit code without stderr, such as `merge-base --is-ancestor`'s, resolves),
 * or could not start. simple-git is not used here because it waits 50 ms after every call that printed nothing (`add`,
 * `commit -q`, a clean `status`), which was most of the supervisor's time between test runs.
 */
function runGit(cwd: string, args: string[], env: Record<string, string>, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, env, signal, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const exitCode = typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : null;
        if (exitCode !== null && !stderr) return resolve(stdout);
        reject(exitCode !== null ? new GitCommandError(stderr, exitCode) : err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
