/** Making a session's branch and worktree in the person's repository: what it is asked, a free branch name, the identity its commits are made as. */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { FALLBACK_GIT_IDENTITY } from '../../hostGit/gitEnvironment';
import { GitCommandError, productGit, type GitRun } from '../../hostGit/gitClient';
import { GitOperationError } from './errors';
import { SESSION_BRANCH_PREFIX } from './sessionBranchName';

/** Options of {@link SessionWorktree.create}. */
export interface CreateSessionWorktreeOptions {
  /** Kata slug for the branch name. */
  slug: string;
  /** Copy the person's uncommitted (tracked and untracked, not ignored) files into the session's first commit. */
  fromWorkingTree?: boolean;
  /** True when the session ran `git init` itself. */
  createdRepository?: boolean;
  /** Folder for worktrees (default: the product's cache folder, see worktreesRootFor). */
  worktreesRoot?: string;
  env?: NodeJS.ProcessEnv;
  now?: Date;
}

/** How many names {@link SessionWorktree.create} tries: `tdd/<kata>-<time>`, then `-2`, `-3`, … */
const MAX_BRANCH_NAME_TRIES = 50;

/** What git says when `worktree add -b` lost the race for a branch name to another session. */
const NAME_TAKEN = /already exists|cannot lock ref/i;

/**
 * `user.name=…` and `user.email=…` for the session's commits: the person's, as their own git config says
 * (system, global and repository config, read once in their repository), else FALLBACK_GIT_IDENTITY. Session
 * calls read no global config, so the identity is always given explicitly.
 */
export async function personIdentity(repository: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  const { run } = productGit(repository, { env });
  const get = async (key: string): Promise<string> => (await run(['config', '--get', key]).catch(() => '')).trim();
  const [name, email] = await Promise.all([get('user.name'), get('user.email')]);
  return [`user.name=${name || FALLBACK_GIT_IDENTITY.name}`, `user.email=${email || FALLBACK_GIT_IDENTITY.email}`];
}

/**
 * Creates the session branch and its worktree in one `git worktree add -b`, which fails when the branch exists:
 * a name another session took in the meantime (two sessions started in the same second) moves on to the next
 * suffix. A folder left where a name's worktree would go is skipped the same way (git would create the branch,
 * then refuse the folder).
 */
export async function addSessionWorktree(
  personRun: GitRun,
  target: { root: string; branchBase: string; base: string },
): Promise<{ branch: string; path: string }> {
  for (let n = 1; n <= MAX_BRANCH_NAME_TRIES; n++) {
    const branch = n === 1 ? target.branchBase : `${target.branchBase}-${n}`;
    const path = join(target.root, branch.slice(SESSION_BRANCH_PREFIX.length));
    if (await lstat(path).catch(() => undefined)) continue;
    try {
      await personRun(['worktree', 'add', '-q', '-b', branch, path, target.base]);
      return { branch, path };
    } catch (err) {
      if (err instanceof GitCommandError && NAME_TAKEN.test(err.message)) continue;
      throw err;
    }
  }
  throw new GitOperationError(
    `No free session branch name: ${target.branchBase} and ${MAX_BRANCH_NAME_TRIES - 1} numbered names after it are taken (or their folders in ${target.root} exist). Delete old tdd/ branches or their folders, then start again.`,
    { branch: target.branchBase, worktreesRoot: target.root },
  );
}
