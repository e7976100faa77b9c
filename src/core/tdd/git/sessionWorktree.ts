import { lstat, mkdir, readdir, readFile, realpath, rmdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { AgentError } from '../../errors/agentError';
import { FALLBACK_GIT_IDENTITY } from '../../git/gitEnvironment';
import { GitCommandError, productGit, type GitRun } from '../../git/gitClient';
import { configArgs, DriverOverrideError } from '../../git/gitConfigOverrides';
import { untrustedTreeGit } from '../../git/untrustedTreeGit';
import { getLogger } from '../../logging/logger';
import { redactSecrets } from '../../security/redact';
import { isSessionStatePath, parsePorcelainStatus, type ChangedFile } from './changedFiles';
import { GitOperationError } from './errors';
import type { PersonRepository } from './personRepository';
import { SESSION_BRANCH_PREFIX, sessionBranchName } from './sessionBranchName';
import { worktreesRootFor } from './sessionPaths';
import { copyWorkingTree } from './workingTreeSnapshot';
import { isRealFolderBelow, removeGitEntry } from './worktreeFolders';
import { parseWorktreeList, WORKTREE_LIST_ARGS } from './worktreeList';
import { assertWorktreesRootOutside } from './worktreePlacement';
import { INITIAL_COMMIT_SUBJECT } from './setupCommits';

const log = getLogger('tdd.git');

/** How many names {@link SessionWorktree.create} tries: `tdd/<kata>-<time>`, then `-2`, `-3`, … */
const MAX_BRANCH_NAME_TRIES = 50;

/** How many rounds of removing nested repositories a commit makes: each round uncovers those nested in the last. */
const MAX_NESTED_ROUNDS = 20;

/** What git says when `worktree add -b` lost the race for a branch name to another session. */
const NAME_TAKEN = /already exists|cannot lock ref/i;

/** `git status` of the worktree: every changed file, untracked ones one by one, nested repositories never entered. */
const STATUS_ARGS = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'];

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

/**
 * `user.name=…` and `user.email=…` for the session's commits: the person's, as their own git config says
 * (system, global and repository config, read once in their repository), else FALLBACK_GIT_IDENTITY. Session
 * calls read no global config, so the identity is always given explicitly.
 */
async function personIdentity(repository: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  const { run } = productGit(repository, { env });
  const get = async (key: string): Promise<string> => (await run(['config', '--get', key]).catch(() => '')).trim();
  const [name, email] = await Promise.all([get('user.name'), get('user.email')]);
  return [`user.name=${name || FALLBACK_GIT_IDENTITY.name}`, `user.email=${email || FALLBACK_GIT_IDENTITY.email}`];
}

function invalidSession(message: string, details: Record<string, unknown>): AgentError {
  return new AgentError('SESSION_STATE_INVALID', `${message} Nothing was changed.`, details);
}

/**
 * A session's own git worktree on its own `tdd/<kata>-<time>` branch. Every commit, rollback and revert
 * happens here; the person's working tree, index, HEAD, stash and ignored files are never touched.
 *
 * Every byte of the worktree may have been written by generated code, so git is never let run, follow or trust
 * any of it: calls name the worktree's git dir and work tree explicitly (its `.git` file could be rewritten),
 * read only the repository's own config (no system or global file), run no hook, fsmonitor, pager, editor,
 * gpg, credential helper or submodule, turn off every filter, diff and merge driver the repository's config
 * defines (a `.gitattributes` in the worktree could select one), and commit as the identity read once from the
 * person's config. Nested repositories are never staged (see {@link removeNestedRepositories}).
 */
export class SessionWorktree {
  private removedNested: string[] = [];
  private gitlinks: string[] | undefined;

  private constructor(
    readonly info: SessionGitInfo,
    private readonly run: GitRun,
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
    const root = options.worktreesRoot ?? worktreesRootFor(repo.commonDir, options.env);
    await assertWorktreesRootOutside(root, repo);
    const { run: personRun } = productGit(repo.root, { env: options.env });
    const identity = await personIdentity(repo.root, options.env);
    // A repository without commits: an empty commit that no branch of the person's points to.
    const base =
      repo.head ??
      (
        await personRun([
          ...configArgs(identity),
          'commit-tree',
          (await personRun(['hash-object', '-t', 'tree', '-w', '/dev/null'])).trim(),
          '-m',
          INITIAL_COMMIT_SUBJECT,
        ])
      ).trim();

    await mkdir(root, { recursive: true });
    const { branch, path } = await addSessionWorktree(personRun, {
      root: await realpath(root),
      branchBase: sessionBranchName(options.slug, options.now),
      base,
    });
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
    const worktree = await SessionWorktree.open(info, options.env, identity);
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
    const listing = parseWorktreeList(await personRun(WORKTREE_LIST_ARGS).catch(() => ''));
    const registered = listing.some((w) => w.path === info.worktree && w.branch === `refs/heads/${info.sessionBranch}`);
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

  /**
   * The session's git: pinned to its git dir and work tree, only the repository's own config, the overrides of
   * UNTRUSTED_WORKTREE_OVERRIDES, every driver of the repository's config turned off, and the person's identity.
   */
  private static async open(info: SessionGitInfo, env?: NodeJS.ProcessEnv, identity?: string[]): Promise<SessionWorktree> {
    const config = identity ?? (await personIdentity(info.repository, env));
    try {
      return new SessionWorktree(
        info,
        await untrustedTreeGit(info.worktree, { env, gitDir: info.worktreeGitDir, workTree: info.worktree, config }),
      );
    } catch (err) {
      if (!(err instanceof DriverOverrideError)) throw err;
      throw new GitOperationError(`${err.message} Refusing to run git in the session worktree ${info.worktree}.`, {
        worktree: info.worktree,
      });
    }
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
    return parsePorcelainStatus(await this.run(STATUS_ARGS));
  }

  private async assertOnSessionBranch(action: string): Promise<void> {
    this.assertBranch(action, (await this.run(['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => '')).trim());
  }

  /** The branch HEAD is on ('' when detached), every changed file and the nested repositories, from one git status. */
  private async branchAndChanges(): Promise<{ branch: string; changed: ChangedFile[]; nested: string[] }> {
    const out = await this.run([...STATUS_ARGS, '--branch']);
    const end = out.indexOf('\0');
    const header = out.startsWith('## ') ? out.slice(3, end < 0 ? undefined : end) : undefined;
    const body = header === undefined ? out : end < 0 ? '' : out.slice(end + 1);
    return {
      branch: header === undefined ? '' : branchOfStatusHeader(header),
      changed: parsePorcelainStatus(body),
      nested: nestedRepositoryFolders(body),
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

  /**
   * Refuses to commit while the session branch is checked out in another worktree too (the person ran
   * `git checkout --ignore-other-worktrees tdd/…`): the commit would move the branch under that checkout, whose
   * files and index would then show the session's changes undone. One `git worktree list`.
   */
  private async assertBranchOnlyHere(): Promise<void> {
    const ref = `refs/heads/${this.info.sessionBranch}`;
    const elsewhere = parseWorktreeList(await this.run(WORKTREE_LIST_ARGS))
      .filter((w) => w.branch === ref && w.path !== this.info.worktree)
      .map((w) => w.path);
    if (elsewhere.length === 0) return;
    throw new GitOperationError(
      `Refusing to commit: the session branch ${this.info.sessionBranch} is also checked out in ${elsewhere.join(', ')}; ` +
        'a commit would move that checkout’s branch under it. Switch that checkout to another branch, then continue. Nothing was staged or committed.',
      { sessionBranch: this.info.sessionBranch, checkedOutIn: elsewhere },
    );
  }

  /**
   * Commits every change (untracked files included) and returns the new sha, or null when there was nothing to
   * commit. Before staging, the `.git` of every nested repository is removed (see {@link removeNestedRepositories})
   * and its files are committed as plain files; {@link lastRemovedNestedRepositories} says which.
   */
  async commitAll(message: string): Promise<string | null> {
    const clean = redactSecrets(message).trim() || 'chore: tdd-agent commit';
    this.removedNested = [];
    // The branch check and "anything to commit?" in one status call.
    const { branch, changed, nested } = await this.branchAndChanges();
    this.assertBranch('commit', branch);
    if (changed.length === 0) return null;
    await this.assertBranchOnlyHere();
    this.removedNested = await this.removeNested(nested);
    await this.run(['add', '-A']).catch((cause: unknown) => {
      // e.g. a FIFO where a tracked file was: git stages only files, links and folders, and then stages nothing.
      throw new GitOperationError(
        `Could not stage the session's changes; nothing was committed. git said: ${String((cause as Error).message).trim()}`,
        { sessionBranch: this.info.sessionBranch },
        { cause },
      );
    });
    await this.run(['commit', '-q', '--no-verify', '-m', clean]);
    return this.headSha();
  }

  /**
   * The worktree-relative `.git` entries (`vendor/.git`) the last {@link commitAll} removed before staging: nested
   * repositories generated code made, whose files were committed as plain files. Empty when there were none.
   */
  get lastRemovedNestedRepositories(): readonly string[] {
    return this.removedNested;
  }

  /**
   * Removes the `.git` entry (folder, gitfile or link; never followed) of every repository nested in the worktree
   * that git would stage as a gitlink: an untracked nested repository anywhere git looks for files (inside
   * tracked or untracked folders, not inside ignored ones), one without commits, a gitfile pointing elsewhere,
   * and one generated code put at the path of a tracked gitlink (whose recorded commit then stays as it is).
   * Their files stay and become plain files. A nested repository's config is never read: git is not run in it.
   * Returns the removed entries, worktree-relative.
   */
  async removeNestedRepositories(): Promise<string[]> {
    return this.removeNested(nestedRepositoryFolders(await this.run(STATUS_ARGS)));
  }

  /** {@link removeNestedRepositories}, given the nested repositories a status already found. */
  private async removeNested(found: string[]): Promise<string[]> {
    const removed: string[] = [];
    let nested = found;
    for (const gitlink of await this.gitlinkPaths()) {
      const entry = await removeGitEntry(this.dir, gitlink);
      if (entry) removed.push(entry);
    }
    for (let round = 1; nested.length > 0; round++) {
      if (round > MAX_NESTED_ROUNDS) {
        throw new GitOperationError(
          `Refusing to stage anything: repositories are nested more than ${MAX_NESTED_ROUNDS} deep in the session worktree (${nested.join(', ')}).`,
          { nested },
        );
      }
      for (const folder of nested) {
        const entry = await removeGitEntry(this.dir, folder);
        if (!entry) {
          throw new GitOperationError(
            `Refusing to stage anything: git sees a nested repository at ${folder} but its .git could not be removed safely.`,
            { folder },
          );
        }
        removed.push(entry);
      }
      // The folders just made plain may hold repositories of their own.
      nested = nestedRepositoryFolders(await this.run(STATUS_ARGS));
    }
    if (removed.length > 0) log.warn('removed nested repositories from the session worktree', { removed });
    return removed;
  }

  /**
   * Paths of the gitlinks (mode 160000) in the index, read once: the session never stages a new one (nested
   * repositories are removed first) and restores only from its own commits, so later indexes hold no other.
   */
  private async gitlinkPaths(): Promise<string[]> {
    this.gitlinks ??= (await this.run(['ls-files', '-z', '--stage']))
      .split('\0')
      .filter((entry) => entry.startsWith('160000 '))
      .map((entry) => entry.slice(entry.indexOf('\t') + 1));
    return this.gitlinks;
  }

  /**
   * Discards every uncommitted change in the worktree: tracked files go back to HEAD, untracked files are
   * removed. Safe because everything in the worktree is the session's own. Returns what was discarded.
   */
  async rollbackToHead(): Promise<ChangedFile[]> {
    const { branch, changed } = await this.branchAndChanges();
    this.assertBranch('discard changes', branch);
    if (changed.length === 0) return [];
    await this.run(['reset', '-q', '--hard', 'HEAD']);
    // Twice -f: nested repositories generated code made go too (git removes them without following links).
    await this.run(['clean', '-f', '-f', '-d', '-q']);
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
    await this.run(['clean', '-f', '-f', '-d', '-q', '--', ...relative]);
    await this.pruneEmptyDirs(relative);
  }

  /**
   * Removes folders left empty by removing session files (git does not track folders). Only real folders of the
   * worktree: a folder reached through a symbolic link (which could lead outside) is never listed or removed.
   */
  private async pruneEmptyDirs(paths: string[]): Promise<void> {
    for (const path of paths) {
      let dir = dirname(resolve(this.dir, path));
      while (dir.startsWith(this.dir + sep) && (await isRealFolderBelow(this.dir, dir))) {
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

  /** The patch a commit of the session made (`git show`, without its message or colour): what a Reviewer reads. */
  async commitDiff(sha: string): Promise<string> {
    if (!/^[0-9a-f]{7,64}$/i.test(sha)) throw new GitOperationError(`Not a commit sha: ${sha}`, { sha });
    return this.run(['show', '--format=', '--no-color', '--no-ext-diff', '--no-textconv', sha]);
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

/** Options of {@link removeSessionWorktree}. */
export interface RemoveSessionWorktreeOptions {
  /** Called with a sentence saying why the worktree was left in place (the person locked it). */
  onKept?: (reason: string) => void;
}

/**
 * Removes a session's worktree folder and git's record of it; the branch and its commits stay. Runs in
 * the person's repository with one `--force` (the worktree's uncommitted files are the session's own), which
 * git refuses for a locked worktree: a worktree the person locked (`git worktree lock`) is left in place, and
 * `onKept` says why. Resolves to true when it was removed, false when it was not registered or is locked.
 */
export async function removeSessionWorktree(
  info: Pick<SessionGitInfo, 'repository' | 'worktree'>,
  env?: NodeJS.ProcessEnv,
  options: RemoveSessionWorktreeOptions = {},
): Promise<boolean> {
  const { run } = productGit(info.repository, { env });
  const record = parseWorktreeList(await run(WORKTREE_LIST_ARGS).catch(() => '')).find((w) => w.path === info.worktree);
  if (!record) return false;
  if (record.locked !== null) {
    const reason =
      `The session worktree ${info.worktree} is locked (git worktree lock${record.locked ? `: ${record.locked}` : ''}) and was left in place; ` +
      `run git worktree unlock ${info.worktree} to let it be removed.`;
    log.warn('kept the locked session worktree', { worktree: info.worktree, lock: record.locked });
    options.onKept?.(reason);
    return false;
  }
  await run(['worktree', 'remove', '--force', info.worktree]);
  log.info('removed the session worktree', { worktree: info.worktree });
  return true;
}

/**
 * Creates the session branch and its worktree in one `git worktree add -b`, which fails when the branch exists:
 * a name another session took in the meantime (two sessions started in the same second) moves on to the next
 * suffix. A folder left where a name's worktree would go is skipped the same way (git would create the branch,
 * then refuse the folder).
 */
async function addSessionWorktree(
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

/**
 * The folders (`vendor`) that `git status --porcelain -z --untracked-files=all` reports as untracked `vendor/`:
 * with every untracked file listed one by one, git names a folder only for a nested repository (a `.git` folder
 * or a gitfile pointing to a repository), which `git add` would stage as a gitlink. `.tdd/` included.
 */
function nestedRepositoryFolders(status: string): string[] {
  return status
    .split('\0')
    .filter((entry) => entry.startsWith('?? ') && entry.endsWith('/'))
    .map((entry) => entry.slice(3, -1));
}

/** The branch named by `git status --branch`'s header (without `## `): '' for a detached HEAD. */
function branchOfStatusHeader(header: string): string {
  if (header.startsWith('HEAD (no branch)')) return '';
  const unborn = /^(?:No commits yet on|Initial commit on) (\S+)/.exec(header);
  if (unborn) return unborn[1]!;
  return header.split('...')[0]!.split(' ')[0]!;
}
