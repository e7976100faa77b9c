import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

/** Where the product keeps its own files: `TDD_AGENT_CACHE_DIR`, else the OS cache folder's `tdd-agent`. */
export function productCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TDD_AGENT_CACHE_DIR) return env.TDD_AGENT_CACHE_DIR;
  const home = env.HOME || env.USERPROFILE || homedir();
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'tdd-agent');
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'tdd-agent');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'tdd-agent');
}

/**
 * The folder holding one repository's session worktrees: outside the person's working tree (so their
 * tree, its ignored files and its tools never see session files) and outside `.git` (so nothing a test
 * runner looks for upwards, such as `node_modules` or `pyproject.toml`, is found in the person's repository).
 */
export function worktreesRootFor(commonDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const repoName = basename(commonDir === '.git' ? process.cwd() : commonDir.replace(/[\\/]\.git$/, '')) || 'repo';
  const key = createHash('sha256').update(commonDir).digest('hex').slice(0, 10);
  return join(productCacheDir(env), 'worktrees', `${repoName.replace(/[^A-Za-z0-9._-]/g, '_')}-${key}`);
}

/** Session records of a repository: `<common git dir>/tdd-agent/sessions/`, with the repository, never in its working tree. */
export function sessionsDirFor(commonDir: string): string {
  return join(commonDir, 'tdd-agent', 'sessions');
}
