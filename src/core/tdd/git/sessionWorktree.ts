import { mkdir, readdir, readFile, realpath, rmdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { AgentError } from '../../errors/agentError';
import { FALLBACK_GIT_IDENTITY } from '../../git/gitEnvironment';
import { productGit, type GitRun } from '../../git/gitClient';
import { getLogger } from '../../logging/logger';
import { redactSecrets } from '../../security/redact';
import { isSessionStatePath, parsePorcelainStatus, type ChangedFile } from './changedFiles';
import { GitOperationError } from './errors';
import type { PersonRepository } from './personRepository';
import { SESSION_BRANCH_PREFIX, sessionBranchName } from './sessionBranchName';
import { worktreesRootFor } from './sessionPaths';
import { copyWorkingTree } from './workingTreeSnapshot';

const log = getLogger('tdd.git');

/** Where a session lives in git, persisted with the session so it can be resumed, reviewed or deleted. */
export interface SessionGitInfo {
  /** The person's working tree root: read, never written. */
  repository: string;
  /** The repository's common git dir. */
  commonDir: string;
  /** The session's own worktree folder (outside the person's working tree). */
  worktree: string;
  /** The worktree's git dir (`<commonDir>/worktrees/<name>`), named explicitly in every session git call. */
  worktreeGitDir: string;
  /** `tdd/<kata>-<time>`. */
  sessionBranch: string;
  /** The commit the session branch started from. */
  baseCommit: string;
  /** The person's branch when the session started (null: detached HEAD, or a branch without commits yet). */
  baseBranch: string | null;
  /** True when the session ran `git init` (the folder was not a repository). */
  createdRepository: boolean;
  /** True when the session's first commit is a snapshot of the person's working tree. */
  fromWorkingTree: boolean;
}

/** A commit as the agents' context shows it. */
export interface CommitInfo {
  sha: string;
  shortSha: string;
  subject: string;
  author: string;
  date: string;
}

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

/** What {@link SessionWorktree.create} made besides the worktree: the snapshot commit, when asked for. */
export interface CreatedWorktree {
  worktree: SessionWorktree;
  snapshotCommit?: string;
}

/** Makes a workspace-relative path safe for git: no absolute paths, no `..`, nothing inside .git. */
function safeRelative(root: string, path: string): string {
  const normalized = normalize(path).split(sep).join('/').replace(/^\.\//, '').replace(/\/+$/, '');
  const absolute = resolve(root, normalized);
  if (isAbsolute(path) || normalized.startsWith('../') || normalized === '..' || !absolute.startsWith(root + sep)) {
    throw new AgentError(
      'VALIDATION',
      `Path '${path}' is outside the workspace; only workspace-relative paths can be reverted.`,
      { path },
    );
  }
  if (normalized === '.git' || normalized.startsWith('.git/')) {
    throw new AgentError('VALIDATION', `Path '${path}' is inside .git and cannot be reverted.`, { path });
  }
  return normalized;
}

/** `-c user.name=… -c user.email=…` for what the repository and machine leave unset. */
async function identityArgs(run: GitRun): Promise<string[]> {
  const get = async (key: string): Promise<string> => (await run(['config', '--get', key]).catch(() => '')).trim();
  const args: string[] = [];
  if (!(await get('user.name'))) args.push('-c', `user.name=${FALLBACK_GIT_IDENTITY.name}`);
  if (!(await get('user.email'))) args.push('-c', `user.email=${FALLBACK_GIT_IDENTITY.email}`);
  return args;
}

function invalidSession(message: string, details: Record<string, unknown>): AgentError {
  return new AgentError('SESSION_STATE_INVALID', `${message} Nothing was changed.`, details);
}

/**
 * A session's own git worktree on its own `tdd/<kata>-<time>` branch. Every commit, rollback and revert
 * happens here; the person's working tree, index, HEAD, stash and ignored files are never touched. Git
 * calls name the worktree's git dir and work tree explicitly (its `.git` file could be rewritten by code
 * run without a sandbox), and run no hooks.
 */
export class SessionWorktree {
  private constructor(
    readonly info: SessionGitInfo,
    private readonly run: GitRun,
    private readonly identity: string[],
  ) {}

  /** The worktree folder, where the agents and test runs work. */
  get dir(): string {
    return this.info.worktree;
  }

  /**
   * Creates the session branch from the person's HEAD (or from an empty commit in a repository without
   * commits) and checks it out in a new worktree. The person's HEAD, index and files are not changed.
   */
  static async create(repo: PersonRepository, options: CreateSessionWorktreeOptions): Promise<CreatedWorktree> {
    const { run: personRun } = productGit(repo.root, { env: options.env });
    const personIdentity = await identityArgs(personRun);
    // A repository without commits: an empty commit that no branch of the person's points to.
    const base =
      repo.head ??
      (
        await personRun([
          ...personIdentity,
          'commit-tree',
          (await personRun(['hash-object', '-t', 'tree', '-w', '/dev/null'])).trim(),
          '-m',
          'chore: initial empty commit (tdd-agent)',
        ])
      ).trim();

    const branchBase = sessionBranchName(options.slug, options.now);
    let branch = branchBase;
    for (let n = 2; (await personRun(['rev-parse', '--verify', '-q', `refs/heads/${branch}`]).catch(() => '')).trim(); n++)
      branch = `${branchBase}-${n}`;
    const root = options.worktreesRoot ?? worktreesRootFor(repo.commonDir, options.env);
    await mkdir(root, { recursive: true });
    const path = join(await realpath(root), branch.slice(SESSION_BRANCH_PREFIX.length));
    if (await stat(path).catch(() => undefined))
      throw new GitOperationError(`The worktree folder ${path} already exists; remove it or start again.`, { path });

    await personRun(['worktree', 'add', '-q', '-b', branch, path, base]);
    const { run: probe } = productGit(path, { env: options.env });
    const worktreeGitDir = await realpath((await probe(['rev-parse', '--absolute-git-dir'])).trim());
    const info: SessionGitInfo = {
      repository: repo.root,
      commonDir: repo.commonDir,
      worktree: path,
      worktreeGitDir,
      sessionBranch: branch,
      baseCommit: base,
      baseBranch: repo.head ? repo.branch : null, // an unborn branch is no base to compare with
      createdRepository: options.createdRepository ?? false,
      fromWorkingTree: options.fromWorkingTree ?? false,
    };
    const worktree = await SessionWorktree.open(info, options.env);
    log.info('created the session worktree', { branch, worktree: path, from: repo.branch ?? base });
    let snapshotCommit: string | undefined;
    if (options.fromWorkingTree) {
      const copied = await copyWorkingTree(repo.root, path, options.env);
      snapshotCommit = (await worktree.commitAll('chore: snapshot of the working tree (tdd-agent)')) ?? undefined;
      log.info('copied the working tree into the session', { ...copied, commit: snapshotCommit });
    }
    return { worktree, snapshotCommit };
  }

  /**
   * Re-attaches to a session's worktree after checking that it is that session's: a `tdd/` branch that
   * exists, a worktree git registered for that branch, and a worktree whose `.git` points back to it.
   * Anything else is a SESSION_STATE_INVALID refusal that changes nothing.
   */
  static async attach(info: SessionGitInfo, env?: NodeJS.ProcessEnv): Promise<SessionWorktree> {
    const details = { branch: info.sessionBranch, worktree: info.worktree };
    if (!info.sessionBranch.startsWith(SESSION_BRANCH_PREFIX) || info.sessionBranch.length <= SESSION_BRANCH_PREFIX.length) {
      throw invalidSession(
        `The saved session names the branch '${info.sessionBranch}', which is not a session branch (tdd/…); refusing to work on it.`,
        details,
      );
    }
    const { run: personRun } = productGit(info.repository, { env });
    if (!(await personRun(['rev-parse', '--verify', '-q', `refs/heads/${info.sessionBranch}`]).catch(() => '')).trim()) {
      throw invalidSession(`The session branch ${info.sessionBranch} does not exist any more; start a new session.`, details);
    }
    const listing = await personRun(['worktree', 'list', '--porcelain']).catch(() => '');
    const registered = listing.split('\n\n').some((block) => {
      const lines = block.split('\n');
      return lines.includes(`worktree ${info.worktree}`) && lines.includes(`branch refs/heads/${info.sessionBranch}`);
    });
    if (!registered) {
      throw invalidSession(
        `The session's worktree ${info.worktree} is not registered with git for ${info.sessionBranch} (was it removed or moved?); start a new session.`,
        details,
      );
    }
    const expectedGitDir = resolve(info.commonDir, 'worktrees') + sep;
    const backLink = (await readFile(join(info.worktreeGitDir, 'gitdir'), 'utf8').catch(() => '')).trim();
    const dotGit = (await readFile(join(info.worktree, '.git'), 'utf8').catch(() => '')).trim();
    if (
      !info.worktreeGitDir.startsWith(expectedGitDir) ||
      backLink !== join(info.worktree, '.git') ||
      dotGit !== `gitdir: ${info.worktreeGitDir}`
    ) {
      throw invalidSession(
        `The session's worktree ${info.worktree} does not point back to its own git data; refusing to use it.`,
        details,
      );
    }
    const worktree = await SessionWorktree.open(info, env);
    await worktree.assertOnSessionBranch('resume');
    return worktree;
  }

  private static async open(info: SessionGitInfo, env?: NodeJS.ProcessEnv): Promise<SessionWorktree> {
    const { run } = productGit(info.worktree, { env, gitDir: info.worktreeGitDir, workTree: info.worktree });
    return new SessionWorktree(info, run, await identityArgs(run));
  }

  /** The current commit's sha. */
  async headSha(): Promise<string> {
    return (await this.run(['rev-parse', 'HEAD'])).trim();
  }

  /** True when anything differs from the last commit (untracked files included). */
  async isDirty(): Promise<boolean> {
    return (await this.changedFiles()).length > 0;
  }

  /** Every file that differs from the last commit, untracked files included, ignored files left out. */
  async changedFiles(): Promise<ChangedFile[]> {
    return parsePorcelainStatus(await this.run(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']));
  }

  private async assertOnSessionBranch(action: string): Promise<void> {
    this.assertBranch(action, (await this.run(['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => '')).trim());
  }

  /** The branch HEAD is on ('' when detached) and every changed file, from one git status. */
  private async branchAndChanges(): Promise<{ branch: string; changed: ChangedFile[] }> {
    const out = await this.run(['status', '--porcelain=v1', '-z', '--branch', '--untracked-files=all', '--no-renames']);
    if (!out.startsWith('## ')) return { branch: '', changed: parsePorcelainStatus(out) };
    const end = out.indexOf('\0');
    return {
      branch: branchOfStatusHeader(out.slice(3, end < 0 ? undefined : end)),
      changed: end < 0 ? [] : parsePorcelainStatus(out.slice(end + 1)),
    };
  }

  private assertBranch(action: string, current: string): void {
    if (current !== this.info.sessionBranch) {
      throw new GitOperationError(
        `Refusing to ${action}: the session worktree is on ${current || 'a detached HEAD'}, not on ${this.info.sessionBranch}.`,
        {
          current,
          sessionBranch: this.info.sessionBranch,
        },
      );
    }
  }

  /** Commits every change (untracked files included) and returns the new sha, or null when there was nothing to commit. */
  async commitAll(message: string): Promise<string | null> {
    const clean = redactSecrets(message).trim() || 'chore: tdd-agent commit';
    // The branch check and "anything to commit?" in one status call.
    const { branch, changed } = await this.branchAndChanges();
    this.assertBranch('commit', branch);
    if (changed.length === 0) return null;
    await this.run(['add', '-A']);
    await this.run([...this.identity, 'commit', '-q', '--no-verify', '-m', clean]);
    return this.headSha();
  }

  /**
   * Discards every uncommitted change in the worktree: tracked files go back to HEAD, untracked files are
   * removed. Safe because everything in the worktree is the session's own. Returns what was discarded.
   */
  async rollbackToHead(): Promise<ChangedFile[]> {
    await this.assertOnSessionBranch('discard changes');
    const changed = await this.changedFiles();
    if (changed.length === 0) return [];
    await this.run(['reset', '-q', '--hard', 'HEAD']);
    await this.run(['clean', '-f', '-d', '-q']);
    await this.pruneEmptyDirs(changed.filter((f) => f.change === 'added').map((f) => f.path));
    return changed;
  }

  /** Puts the given paths back as in HEAD: modified/deleted files restored, files not in HEAD removed. */
  async revertPaths(paths: string[]): Promise<void> {
    const relative = [...new Set(paths.map((p) => safeRelative(this.dir, p)))].filter((p) => !isSessionStatePath(p));
    if (relative.length === 0) return;
    await this.assertOnSessionBranch('revert files');
    await this.run(['reset', '-q', 'HEAD', '--', ...relative]);
    const tracked = (await this.run(['ls-tree', '-r', '--name-only', '-z', 'HEAD', '--', ...relative]))
      .split('\0')
      .filter(Boolean);
    if (tracked.length > 0) await this.run(['checkout', '-q', 'HEAD', '--', ...tracked]);
    await this.run(['clean', '-f', '-d', '-q', '--', ...relative]);
    await this.pruneEmptyDirs(relative);
  }

  /** Removes folders left empty by removing session files (git does not track folders). */
  private async pruneEmptyDirs(paths: string[]): Promise<void> {
    for (const path of paths) {
      let dir = dirname(resolve(this.dir, path));
      while (dir.startsWith(this.dir + sep)) {
        const entries = await readdir(dir).catch(() => undefined);
        if (!entries || entries.length > 0) break;
        await rmdir(dir).catch(() => undefined);
        dir = dirname(dir);
      }
    }
  }

  /** A file's content in HEAD, or null when HEAD has no such file. */
  async headContent(path: string): Promise<string | null> {
    const relative = safeRelative(this.dir, path);
    try {
      return await this.run(['cat-file', 'blob', `HEAD:${relative}`]);
    } catch {
      return null;
    }
  }

  /** The last `n` commits of the session branch, newest first. */
  async recentCommits(n = 5): Promise<CommitInfo[]> {
    const format = ['%H', '%h', '%s', '%an', '%aI'].join('%x1f') + '%x1e';
    const output = await this.run(['log', `-n${Math.max(0, Math.floor(n))}`, `--format=${format}`]);
    return output
      .split('\x1e')
      .map((record) => record.trim())
      .filter(Boolean)
      .map((record) => {
        const [sha, shortSha, subject, author, date] = record.split('\x1f');
        return { sha, shortSha, subject, author, date };
      });
  }

  /** Commits on the session branch since it started. */
  async commitCount(): Promise<number> {
    return Number((await this.run(['rev-list', '--count', `${this.info.baseCommit}..HEAD`]).catch(() => '0')).trim()) || 0;
  }
}

/**
 * Removes a session's worktree folder and git's record of it; the branch and its commits stay. Runs in
 * the person's repository with `--force` (the worktree's uncommitted files are the session's own).
 */
export async function removeSessionWorktree(
  info: Pick<SessionGitInfo, 'repository' | 'worktree'>,
  env?: NodeJS.ProcessEnv,
): Promise<boolean> {
  const { run } = productGit(info.repository, { env });
  const listing = await run(['worktree', 'list', '--porcelain']).catch(() => '');
  if (!listing.split('\n').includes(`worktree ${info.worktree}`)) return false;
  await run(['worktree', 'remove', '--force', '--force', info.worktree]);
  log.info('removed the session worktree', { worktree: info.worktree });
  return true;
}

/** The branch named by `git status --branch`'s header (without `## `): '' for a detached HEAD. */
function branchOfStatusHeader(header: string): string {
  if (header.startsWith('HEAD (no branch)')) return '';
  const unborn = /^(?:No commits yet on|Initial commit on) (\S+)/.exec(header);
  if (unborn) return unborn[1]!;
  return header.split('...')[0]!.split(' ')[0]!;
}
