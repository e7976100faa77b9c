import { join } from 'node:path';
import type { SandboxPolicy } from './types';

/**
 * The confinement of everything a session runs (test runs, quality gates, `run_command`, the Testing
 * view's runs): write only in the session's worktree, its `.git` file read-only on top, and the
 * repository's common git dir readable (git inside the sandbox can read the history, never change it),
 * its config shown sanitised (no credentials in remote URLs, no includes, no credential helpers).
 * @param dir the session worktree
 * @param commonDir the repository's common git dir (`git rev-parse --git-common-dir`)
 * @param passEnvironment variables shown inside beyond the allow-list (see {@link SandboxPolicy.passEnvironment})
 */
export function worktreePolicy(dir: string, commonDir: string, passEnvironment?: string[]): SandboxPolicy {
  return {
    writableRoots: [dir],
    readOnlyPaths: [join(dir, '.git')],
    readableRoots: [commonDir],
    gitDirs: [commonDir],
    ...(passEnvironment?.length ? { passEnvironment } : {}),
  };
}
