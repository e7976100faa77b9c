import { productGit, type GitRun, type ProductGitOptions } from './gitClient';
import { driverOverrides, UNTRUSTED_WORKTREE_OVERRIDES } from './gitConfigOverrides';

/** Options of {@link untrustedTreeGit}: those of productGit; `config` comes after the overrides. */
export type UntrustedTreeGitOptions = Omit<ProductGitOptions, 'repositoryConfigOnly'>;

/**
 * git for a tree whose files generated code may have written (a session's worktree, or a checkout of a session
 * branch): productGit reading only the repository's own config, with UNTRUSTED_WORKTREE_OVERRIDES, and every
 * filter, diff and merge driver that config defines turned off (a `.gitattributes` in the tree could select any
 * of them). The drivers are read once, from what git itself reads there (`git config --list`, includes and the
 * worktree's `config.worktree` too). Rejects when a driver cannot be turned off (see driverOverrides).
 */
export async function untrustedTreeGit(baseDir: string, options: UntrustedTreeGitOptions = {}): Promise<GitRun> {
  const isolated = { ...options, repositoryConfigOnly: true };
  const { run: listConfig } = productGit(baseDir, { ...isolated, config: UNTRUSTED_WORKTREE_OVERRIDES });
  const names = (await listConfig(['config', '--list', '--name-only', '-z'])).split('\0').filter(Boolean);
  const config = [...UNTRUSTED_WORKTREE_OVERRIDES, ...driverOverrides(names), ...(options.config ?? [])];
  return productGit(baseDir, { ...isolated, config }).run;
}
