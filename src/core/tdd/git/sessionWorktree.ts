/** The session's own worktree and branch: creating, re-attaching, committing, rolling back and reading it. */
import { mkdir, realpath } from 'node:fs/promises';
import { productGit, type GitRun } from '../../hostGit/gitClient';
import { configArgs, DriverOverrideError } from '../../hostGit/gitConfigOverrides';
import { untrustedTreeGit } from '../../hostGit/untrustedTreeGit';
import { getLogger } from '../../logging/logger';
import { redactSecrets } from '../../security/redact';
import { addSessionWorktree, personIdentity, type CreateSessionWorktreeOptions } from './addSessionWorktree';
import { isSessionStatePath, parsePorcelainStatus, type ChangedFile } from './changedFiles';
import { GitOperationError } from './errors';
import { removeNested } from './nestedRepositories';
import type { PersonRepository } from './personRepository';
import { sessionBranchName } from './sessionBranchName';
import type { CommitInfo, SessionGitInfo } from './sessionGitInfo';
import { worktreesRootFor } from './sessionPaths';
import { assertBranch, assertBranchOnlyHere, assertSessionWorktree, safeRelative } from './sessionWorktreeChecks';
import { copyWorkingTree } from './workingTreeSnapshot';
import { pruneEmptyDirs } from './worktreeFolders';
import { assertWorktreesRootOutside } from './worktreePlacement';
import { INITIAL_COMMIT_SUBJECT } from './setupCommits';
import { branchOfStatusHeader, nestedRepositoryFolders, STATUS_ARGS } from './worktreeStatus';

export type { CreateSessionWorktreeOptions } from './addSessionWorktree';
export type { CommitInfo, SessionGitInfo } from './sessionGitInfo';
export { removeSessionWorktree, type RemoveSessionWorktreeOptions } from './removeSessionWorktree';

const log = getLogger('tdd.git');

/** What {@link SessionWorktree.create} made besides the worktree: the snapshot commit, when asked for. */
export interface CreatedWorktree {
  worktree: SessionWorktree;
  snapshotCommit?: string;
}

/** The longest commit diff {@link SessionWorktree.commitDiff} returns (200 000 characters; the rest is cut with a marker). */
export const MAX_COMMIT_DIFF_CHARS = 200_000;

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
    await assertSessionWorktree(info, env);
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
    assertBranch(this.info, action, (await this.run(['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => '')).trim());
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
    assertBranch(this.info, 'commit', branch);
    if (changed.length === 0) return null;
    await assertBranchOnlyHere(this.info, this.run);
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
    const found = nestedRepositoryFolders(await this.run(STATUS_ARGS));
    return this.removeNested(found);
  }

  /** {@link removeNestedRepositories}, given the nested repositories a status already found. */
  private async removeNested(found: string[]): Promise<string[]> {
    return removeNested(this.run, this.dir, found, await this.gitlinkPaths());
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
    assertBranch(this.info, 'discard changes', branch);
    if (changed.length === 0) return [];
    await this.run(['reset', '-q', '--hard', 'HEAD']);
    // Twice -f: nested repositories generated code made go too (git removes them without following links).
    await this.run(['clean', '-f', '-f', '-d', '-q']);
    await pruneEmptyDirs(
      this.dir,
      changed.filter((f) => f.change === 'added').map((f) => f.path),
    );
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
    await pruneEmptyDirs(this.dir, relative);
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

  /**
   * The patch a commit of the session made (`git show`, without its message or colour): what a Reviewer reads. The
   * agents wrote it, so its size is not trusted: past {@link MAX_COMMIT_DIFF_CHARS} it is cut, with a marker.
   */
  async commitDiff(sha: string): Promise<string> {
    if (!/^[0-9a-f]{7,64}$/i.test(sha)) throw new GitOperationError(`Not a commit sha: ${sha}`, { sha });
    const diff = await this.run(['show', '--format=', '--no-color', '--no-ext-diff', '--no-textconv', sha]);
    if (diff.length <= MAX_COMMIT_DIFF_CHARS) return diff;
    return `${diff.slice(0, MAX_COMMIT_DIFF_CHARS)}\n[… ${diff.length - MAX_COMMIT_DIFF_CHARS} more characters of the diff cut]`;
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
