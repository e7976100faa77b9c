import { appendFile, mkdir, readdir, readFile, realpath, rmdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { AgentError } from '../../errors/agentError';
import { getLogger } from '../../logging/logger';
import { redactSecrets } from '../../security/redact';
import { isSessionStatePath, parsePorcelainStatus, SESSION_DIR, type ChangedFile } from './changedFiles';
import { GitOperationError, WorkspaceDirtyError } from './errors';
import { sessionBranchName } from './sessionBranchName';
import { FALLBACK_GIT_IDENTITY, gitEnvironment } from '../../git/gitEnvironment';

const log = getLogger('tdd.git');

/** Options of GitWorkspace.open. */
export interface OpenGitWorkspaceOptions {
  /** Stash the person's uncommitted work (`git stash push --include-untracked`) and restore it in finish(). */
  stash?: boolean;
  /**
   * Only for a folder that is not yet a repository: commit the files already there as the initial
   * commit. Off by default — a person's files are never committed without them asking.
   */
  commitExistingFiles?: boolean;
  /** Environment for git (e.g. HOME and GIT_CONFIG_NOSYSTEM in tests). Defaults to this process's. */
  env?: NodeJS.ProcessEnv;
  /** Checked before each step; a cancelled open() leaves the repository as it found it or fully prepared. */
  signal?: AbortSignal;
}

/** What a session did to the repository, persisted in the session state so a crash can be undone. */
export interface GitSessionInfo {
  /** The person's branch, or null when HEAD was detached (then `originalHead` is checked out again). */
  originalBranch: string | null;
  originalHead: string;
  sessionBranch?: string;
  /** The sha of the stash holding the person's work, while it is stashed. */
  stashRef?: string;
  /** True when open() ran `git init`. */
  createdRepository: boolean;
  /** The commit open() made (empty, or the existing files when asked) in a new or commit-less repository. */
  initialCommit?: string;
}

/** A commit as the agents' context shows it. */
export interface CommitInfo {
  sha: string;
  shortSha: string;
  subject: string;
  author: string;
  date: string;
}

/** What finish() did. */
export interface FinishResult {
  /** The branch (or detached sha) checked out again. */
  restored: string;
  sessionBranch?: string;
  /** Uncommitted session changes that were discarded (never green, so never committed). */
  discarded: ChangedFile[];
  /** True when the person's stashed work was put back. */
  stashRestored: boolean;
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new AgentError('CANCELLED', 'The git operation was cancelled before it started.');
}

/** Makes a workspace-relative path safe for git: no absolute paths, no `..`, nothing inside .git. */
function safeRelative(root: string, path: string): string {
  const normalized = normalize(path).split(sep).join('/').replace(/^\.\//, '').replace(/\/+$/, '');
  const absolute = resolve(root, normalized);
  if (isAbsolute(path) || normalized.startsWith('../') || normalized === '..' || !absolute.startsWith(root + sep)) {
    throw new AgentError('VALIDATION', `Path '${path}' is outside the workspace; only workspace-relative paths can be reverted.`, { path });
  }
  if (normalized === '.git' || normalized.startsWith('.git/')) {
    throw new AgentError('VALIDATION', `Path '${path}' is inside .git and cannot be reverted.`, { path });
  }
  return normalized;
}

/**
 * The session's view of a git repository: refuses (or stashes) the person's uncommitted work, works on
 * a `tdd/<slug>-<timestamp>` branch, commits green states, rolls back the session's own changes, and
 * returns the person to their branch with their work restored. `.tdd/` is excluded from everything.
 *
 * Each method is a short sequence of git commands that leaves the repository consistent (a clean
 * checkout of some commit, or the session's uncommitted changes) if the process stops between two
 * methods; `info` is what to persist so `attach(dir, info).finish()` can undo a crashed session.
 */
export class GitWorkspace {
  /** `-c user.name=… -c user.email=…` when the repository has no identity of its own. */
  private identityArgs: string[] = [];

  private constructor(
    /** The repository root (a real path). */
    readonly dir: string,
    private readonly git: SimpleGit,
    private state: GitSessionInfo,
  ) {}

  /** What this session did to the repository so far (persist it with the session state). */
  get info(): GitSessionInfo {
    return { ...this.state };
  }

  /**
   * Opens (or creates) the repository in `dir` for a session. Refuses with WorkspaceDirtyError when
   * the person has uncommitted work, unless `stash` is set. A new repository gets an empty initial
   * commit (or, with `commitExistingFiles`, one holding the files already there).
   */
  static async open(dir: string, options: OpenGitWorkspaceOptions = {}): Promise<GitWorkspace> {
    checkAborted(options.signal);
    const given = resolve(dir);
    const info = await stat(given).catch(() => undefined);
    if (!info?.isDirectory()) throw new AgentError('VALIDATION', `Workspace ${given} does not exist or is not a folder.`, { workspace: given });
    const root = await realpath(given); // git reports real paths (e.g. /private/tmp on macOS)

    const git = await GitWorkspace.client(root, options.env);
    const state: GitSessionInfo = { originalBranch: null, originalHead: '', createdRepository: false };
    const workspace = new GitWorkspace(root, git, state);
    if (await git.checkIsRepo()) {
      const top = await realpath((await git.revparse(['--show-toplevel'])).trim());
      if (top !== root) {
        throw new AgentError(
          'CONFIG',
          `Workspace ${root} is inside the git repository at ${top} but is not its root. Use ${top} as the workspace, or a folder outside any repository.`,
          { workspace: root, repository: top },
        );
      }
      // Refuse before touching anything (not even .git/info/exclude).
      const dirty = await workspace.changedFiles();
      if (dirty.length > 0 && !options.stash) throw new WorkspaceDirtyError(root, dirty);
    } else {
      const existing = (await readdir(root)).filter((name) => name !== SESSION_DIR);
      if (existing.length > 0 && !options.stash && !options.commitExistingFiles) {
        throw new WorkspaceDirtyError(root, existing.map((path) => ({ path, change: 'added' as const })), { notARepository: true });
      }
      checkAborted(options.signal);
      await git.raw(['init', '-q', '-b', 'main']);
      state.createdRepository = true;
      log.info('created a git repository for the session', { workspace: root });
    }

    await workspace.excludeSessionDir();
    await workspace.ensureIdentity();
    if (!(await workspace.hasHead())) {
      // Plumbing for the empty commit, so whatever the person staged in a commit-less repository stays staged.
      state.initialCommit =
        state.createdRepository && options.commitExistingFiles ? await workspace.commitExisting() : await workspace.emptyInitialCommit();
    }

    checkAborted(options.signal);
    const dirty = await workspace.changedFiles();
    if (dirty.length > 0) {
      if (!options.stash) throw new WorkspaceDirtyError(root, dirty);
      await workspace.stashPersonWork(dirty);
    }
    state.originalBranch = await workspace.currentBranch();
    state.originalHead = await workspace.headSha();
    return workspace;
  }

  /**
   * Re-attaches to a repository a session already prepared (for resuming, or for undoing a crashed
   * session with finish()). Checks nothing and changes nothing.
   */
  static async attach(dir: string, info: GitSessionInfo, options: { env?: NodeJS.ProcessEnv } = {}): Promise<GitWorkspace> {
    const root = await realpath(resolve(dir)).catch(() => resolve(dir));
    const workspace = new GitWorkspace(root, await GitWorkspace.client(root, options.env), { ...info });
    await workspace.ensureIdentity();
    return workspace;
  }

  private static async client(root: string, env?: NodeJS.ProcessEnv): Promise<SimpleGit> {
    const { env: gitEnv, allow } = gitEnvironment(env ?? process.env);
    return simpleGit({ baseDir: root, allowEnvironment: allow, trimmed: false }).env(gitEnv);
  }

  /** Uses the fallback identity (via `-c`) only for what the repository and machine leave unset. */
  private async ensureIdentity(): Promise<void> {
    const get = async (key: string): Promise<string> => (await this.git.raw(['config', '--get', key]).catch(() => '')).trim();
    const config: string[] = [];
    if (!(await get('user.name'))) config.push('-c', `user.name=${FALLBACK_GIT_IDENTITY.name}`);
    if (!(await get('user.email'))) config.push('-c', `user.email=${FALLBACK_GIT_IDENTITY.email}`);
    this.identityArgs = config;
    if (config.length) log.info('no git identity configured; committing as the fallback identity', { identity: FALLBACK_GIT_IDENTITY });
  }

  /** Runs a git command that may create commits (commit, stash, commit-tree) with the identity fallback. */
  private async rawWithIdentity(args: string[]): Promise<string> {
    return this.git.raw([...this.identityArgs, ...args]);
  }

  private async excludeSessionDir(): Promise<void> {
    const gitDir = resolve(this.dir, (await this.git.revparse(['--git-dir'])).trim());
    const exclude = join(gitDir, 'info', 'exclude');
    const current = await readFile(exclude, 'utf8').catch(() => '');
    if (current.split(/\r?\n/).some((line) => line.trim() === `/${SESSION_DIR}/` || line.trim() === `${SESSION_DIR}/`)) return;
    await mkdir(dirname(exclude), { recursive: true });
    const prefix = current.length > 0 && !current.endsWith('\n') ? '\n' : '';
    await appendFile(exclude, `${prefix}# TDD agent session state\n/${SESSION_DIR}/\n`);
  }

  /** True when `rev` names an object. (git exits 1 with no stderr here, which simple-git does not treat as an error.) */
  private async resolves(rev: string): Promise<boolean> {
    const out = await this.git.raw(['rev-parse', '--verify', '-q', rev]).catch(() => '');
    return out.trim().length > 0;
  }

  private async hasHead(): Promise<boolean> {
    return this.resolves('HEAD^{commit}');
  }

  /** An empty commit made with plumbing, so whatever the person staged stays staged and uncommitted. */
  private async emptyInitialCommit(): Promise<string> {
    const tree = (await this.git.raw(['hash-object', '-t', 'tree', '-w', '/dev/null'])).trim();
    const sha = (await this.rawWithIdentity(['commit-tree', tree, '-m', 'chore: initial empty commit (tdd-agent)'])).trim();
    await this.git.raw(['update-ref', 'HEAD', sha]);
    log.info('made an empty initial commit', { sha });
    return sha;
  }

  private async commitExisting(): Promise<string> {
    await this.git.raw(['add', '-A']);
    await this.rawWithIdentity(['commit', '-q', '--no-verify', '--allow-empty', '-m', 'chore: initial commit of the existing files (tdd-agent)']);
    const sha = await this.headSha();
    log.info('committed the existing files as the initial commit, as asked', { sha });
    return sha;
  }

  private async stashPersonWork(files: ChangedFile[]): Promise<void> {
    const message = `tdd-agent: work saved before the session of ${new Date().toISOString()}`;
    await this.rawWithIdentity(['stash', 'push', '--include-untracked', '-m', message]);
    const sha = (await this.git.raw(['rev-parse', '-q', '--verify', 'refs/stash'])).trim();
    this.state.stashRef = sha;
    log.info('stashed the uncommitted work; it is restored when the session ends', { stash: sha, files: files.length });
    const left = await this.changedFiles();
    if (left.length > 0) {
      throw new GitOperationError(`Stashing left changes behind (${left.map((f) => f.path).join(', ')}); your work is in stash ${sha}.`, {
        stash: sha,
        files: left,
      });
    }
  }

  /** The current commit's sha. */
  async headSha(): Promise<string> {
    return (await this.git.raw(['rev-parse', 'HEAD'])).trim();
  }

  /** True when anything differs from the last commit (untracked files included, `.tdd/` ignored). */
  async isDirty(): Promise<boolean> {
    return (await this.changedFiles()).length > 0;
  }

  /** Every file that differs from the last commit, untracked files included, `.tdd/` and ignored files left out. */
  async changedFiles(): Promise<ChangedFile[]> {
    const output = await this.git.raw(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']);
    return parsePorcelainStatus(output);
  }

  /** Creates and checks out `tdd/<slug>-<YYYYMMDD-HHMMSS>` from the current HEAD; returns its name. */
  async startSessionBranch(slug: string, now: Date = new Date()): Promise<string> {
    const base = sessionBranchName(slug, now);
    let name = base;
    for (let n = 2; await this.branchExists(name); n++) name = `${base}-${n}`;
    await this.git.raw(['checkout', '-q', '-b', name]);
    this.state.sessionBranch = name;
    log.info('started the session branch', { branch: name, from: this.state.originalBranch ?? this.state.originalHead });
    return name;
  }

  /** Checks out an existing session branch again (resuming a session). */
  async continueSessionBranch(branch: string): Promise<void> {
    if (!(await this.branchExists(branch))) {
      throw new GitOperationError(`Session branch ${branch} does not exist any more; start a new session.`, { branch });
    }
    await this.git.raw(['checkout', '-q', branch]);
    this.state.sessionBranch = branch;
  }

  private async currentBranch(): Promise<string | null> {
    return (await this.git.raw(['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => '')).trim() || null;
  }

  /** Commits and discards happen only on the session's branch, never on the person's. */
  private async assertOnSessionBranch(action: string): Promise<void> {
    const current = await this.currentBranch();
    if (!this.state.sessionBranch || current !== this.state.sessionBranch) {
      throw new GitOperationError(
        `Refusing to ${action}: the session branch is not checked out (on ${current ?? 'a detached HEAD'}). Start or continue the session branch first.`,
        { current, sessionBranch: this.state.sessionBranch },
      );
    }
  }

  private async branchExists(name: string): Promise<boolean> {
    return this.resolves(`refs/heads/${name}`);
  }

  /**
   * Commits every change (untracked files included, `.tdd/` excluded) and returns the new sha, or null
   * when there was nothing to commit. Hooks are skipped: the supervisor runs its own checks first.
   */
  async commitAll(message: string): Promise<string | null> {
    const clean = redactSecrets(message).trim() || 'chore: tdd-agent commit';
    await this.assertOnSessionBranch('commit');
    if (!(await this.isDirty())) return null;
    await this.git.raw(['add', '-A']);
    await this.rawWithIdentity(['commit', '-q', '--no-verify', '-m', clean]);
    return this.headSha();
  }

  /**
   * Discards every uncommitted change: tracked files go back to HEAD, untracked files are removed.
   * Ignored files and `.tdd/` are kept. Safe because a session starts from a clean tree, so every
   * untracked file is the session's own. Returns what was discarded.
   */
  async rollbackToHead(): Promise<ChangedFile[]> {
    await this.assertOnSessionBranch('discard changes');
    const changed = await this.changedFiles();
    if (changed.length === 0) return [];
    await this.git.raw(['reset', '-q', '--hard', 'HEAD']);
    await this.git.raw(['clean', '-f', '-d', '-q', '-e', `/${SESSION_DIR}/`]);
    await this.pruneEmptyDirs(changed.filter((f) => f.change === 'added').map((f) => f.path));
    return changed;
  }

  /** Puts the given paths back as in HEAD: modified/deleted files restored, files not in HEAD removed. */
  async revertPaths(paths: string[]): Promise<void> {
    const relative = [...new Set(paths.map((p) => safeRelative(this.dir, p)))].filter((p) => !isSessionStatePath(p));
    if (relative.length === 0) return;
    await this.assertOnSessionBranch('revert files');
    // Unstage first (a no-op unless a commit was interrupted between add and commit).
    await this.git.raw(['reset', '-q', 'HEAD', '--', ...relative]);
    const tracked = (await this.git.raw(['ls-tree', '-r', '--name-only', '-z', 'HEAD', '--', ...relative])).split('\0').filter(Boolean);
    if (tracked.length > 0) await this.git.raw(['checkout', '-q', 'HEAD', '--', ...tracked]);
    await this.git.raw(['clean', '-f', '-d', '-q', '--', ...relative]);
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

  /** A file's content in HEAD, or null when HEAD has no such file (read-only; works on any branch). */
  async headContent(path: string): Promise<string | null> {
    const relative = safeRelative(this.dir, path);
    try {
      return await this.git.raw(['cat-file', 'blob', `HEAD:${relative}`]);
    } catch {
      return null;
    }
  }

  /** The last `n` commits of the current branch, newest first. */
  async recentCommits(n = 5): Promise<CommitInfo[]> {
    const format = ['%H', '%h', '%s', '%an', '%aI'].join('%x1f') + '%x1e';
    const output = await this.git.raw(['log', `-n${Math.max(0, Math.floor(n))}`, `--format=${format}`]);
    return output
      .split('\x1e')
      .map((record) => record.trim())
      .filter(Boolean)
      .map((record) => {
        const [sha, shortSha, subject, author, date] = record.split('\x1f');
        return { sha, shortSha, subject, author, date };
      });
  }

  /**
   * Ends the session: discards uncommitted session changes (never green, so never committed), checks
   * out the person's branch again (the session branch stays with its commits) and restores stashed
   * work. Safe to call again after an interruption. If the stash cannot be applied it is kept and
   * GitOperationError says how to get it back.
   */
  async finish(): Promise<FinishResult> {
    // Only on the session branch is uncommitted work the session's; anywhere else (finish() already ran,
    // or the session never started its branch) it may be the person's restored work.
    const onSessionBranch = this.state.sessionBranch !== undefined && (await this.currentBranch()) === this.state.sessionBranch;
    const discarded = onSessionBranch ? await this.rollbackToHead() : [];
    if (discarded.length > 0) log.warn('discarded uncommitted session changes', { files: discarded.map((f) => f.path) });
    const target = this.state.originalBranch ?? this.state.originalHead;
    const args = this.state.originalBranch ? ['checkout', '-q', target] : ['checkout', '-q', '--detach', target];
    if (target) await this.git.raw(args);
    const stashRestored = await this.restoreStash();
    return { restored: target, sessionBranch: this.state.sessionBranch, discarded, stashRestored };
  }

  private async restoreStash(): Promise<boolean> {
    const sha = this.state.stashRef;
    if (!sha) return false;
    const list = (await this.git.raw(['stash', 'list', '--format=%H']).catch(() => '')).split('\n').map((l) => l.trim());
    const index = list.indexOf(sha);
    if (index < 0) {
      log.warn('the stash made for this session is no longer in the stash list; nothing to restore', { stash: sha });
      this.state.stashRef = undefined;
      return false;
    }
    const ref = `stash@{${index}}`;
    try {
      await this.rawWithIdentity(['stash', 'pop', '-q', '--index', ref]);
    } catch {
      try {
        await this.rawWithIdentity(['stash', 'pop', '-q', ref]);
      } catch (cause) {
        throw new GitOperationError(
          `Could not restore your stashed work automatically; it is safe in the stash (${sha}). Run 'git stash list' and 'git stash pop' yourself.`,
          { stash: sha },
          { cause },
        );
      }
    }
    this.state.stashRef = undefined;
    log.info('restored the stashed work', { stash: sha });
    return true;
  }
}
