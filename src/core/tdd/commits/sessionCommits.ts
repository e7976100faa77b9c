import { redactSecrets } from '../../security/redact';
import type { SupervisorEvent } from '../events';
import type { Role } from '../../vocabulary';
import type { ChangedFile } from '../git/changedFiles';
import type { LoopGit } from './loopGit';
import { PhaseCheckpoint } from './phaseCheckpoint';
import { unapprovedProtectedChanges, type ProtectedChange } from './protectedChanges';
import type { SessionRecorder } from '../session/sessionRecorder';

/** Protected paths a `protected_paths_reverted` event and a role's notice name (the rest are counted). */
const PROTECTED_PATHS_SHOWN = 50;

/** Why the `.git` of a nested repository is removed before a commit, as the event and the next role read it. */
const NESTED_REPOSITORY_REASON =
  'git repositories nested in the session (a test or a command ran `git init`) are never committed as repositories: their `.git` was removed and their files were committed as plain files';

/** What the commits keep up to date in the loop's state between turns (the loop's `LoopState` is one). */
export interface CommittedTreeState {
  /** True right after a commit or a rollback to HEAD, until the next turn: nothing differs from HEAD. */
  treeClean: boolean;
  /** Files the session's commits changed. */
  readonly sessionFiles: Set<string>;
  /** What the supervisor undid outside the role rules (protected paths), for the next role's context. */
  notices: string[];
  /** The tree was committed: its counts are the ones at HEAD now. */
  committed(): void;
  /** The tree was rolled back to HEAD: its counts are the last commit's again. */
  rolledBack(): void;
}

/** What {@link SessionCommits} works with. */
export interface SessionCommitsOptions {
  workspaceRoot: string;
  git: LoopGit;
  recorder: SessionRecorder;
  /** Receives the commit and protected-path events. */
  emit(event: SupervisorEvent): void;
  /** Says whether a protected path holds exactly what a tool call a person approved left there (see `CycleLoopOptions`). */
  approvedProtectedChange?: (path: string) => Promise<boolean>;
}

/**
 * The session's tree between turns: a checkpoint before each turn, a rollback to the last commit, and a commit of a
 * green tree after protected paths no approved tool call wrote were put back (and nested repositories taken apart).
 */
export class SessionCommits {
  constructor(
    private readonly o: SessionCommitsOptions,
    private readonly state: CommittedTreeState,
  ) {}

  /** The state of the tree before a turn; the turn may change it, so it is not known to be clean afterwards. */
  async checkpoint(): Promise<PhaseCheckpoint> {
    const checkpoint = await PhaseCheckpoint.take(this.o.workspaceRoot, this.o.git, { clean: this.state.treeClean });
    this.state.treeClean = false;
    return checkpoint;
  }

  /**
   * Rolls the tree back to the last commit (nothing differs from HEAD afterwards): the counts are the last commit's
   * again, and the cycle's red ones are kept as the rolled-back attempt's (see `LoopState.rolledBack`).
   */
  async rollback(): Promise<void> {
    await this.o.git.rollbackToHead();
    this.state.treeClean = true;
    this.state.rolledBack();
  }

  /**
   * Commits the tree after putting back protected paths no approved tool call wrote; returns undefined when nothing
   * was left to commit. `test`: the Tester's own test of a stated example the code already handles (no production
   * change), committed as the cycle's green state.
   */
  async commit(n: number, label: string, kind: 'green' | 'refactor' | 'test'): Promise<string | undefined> {
    const role: Role = kind === 'green' ? 'implementer' : kind === 'test' ? 'tester' : 'refactorer';
    let changed = await this.o.git.changedFiles();
    if (await this.revertUnapprovedProtectedPaths(n, role, changed)) {
      changed = await this.o.git.changedFiles();
      if (!changed.length) {
        this.state.treeClean = true;
        return undefined;
      }
    }
    for (const change of changed) if (change.change !== 'deleted') this.state.sessionFiles.add(change.path);
    // The message is built from the model's report, which may repeat a secret: the event must not carry it either.
    const message = redactSecrets(label);
    const sha = await this.o.git.commitAll(message);
    this.state.treeClean = true;
    this.state.committed();
    this.reportNestedRepositories(n, role);
    this.o.recorder.commit(kind === 'refactor' ? 'refactor' : 'green', sha, role);
    this.o.emit({ type: 'commit_made', cycle: n, sha, message: message.split('\n')[0]! });
    return sha;
  }

  /**
   * Puts back, as HEAD has them, the changed protected paths that no approved tool call wrote as they are now (a
   * generated test writes files without asking anyone, and `git add -A` would commit them), reports them, and keeps
   * a notice for the next role. `changed` is the tree's difference from HEAD now. Returns true when it reverted anything.
   */
  private async revertUnapprovedProtectedPaths(n: number, role: Role, changed: readonly ChangedFile[]): Promise<boolean> {
    const found = await unapprovedProtectedChanges(changed, this.o.approvedProtectedChange);
    if (found.length === 0) return false;
    for (let i = 0; i < found.length; i += 500) await this.o.git.revertPaths(found.slice(i, i + 500).map((f) => f.path));
    const reason =
      'protected files changed without an approved tool call (a test or a command wrote them); they were put back as the last commit has them';
    this.o.emit({
      type: 'protected_paths_reverted',
      cycle: n,
      role,
      paths: found.slice(0, PROTECTED_PATHS_SHOWN).map((f) => f.path),
      count: found.length,
      reason,
    });
    this.state.notices.push(describeProtectedChanges(found));
    return true;
  }

  /**
   * Reports the nested repositories the commit took apart: a test that runs `git init` leaves a repository whose own
   * config (`core.fsmonitor`, hooks) would run on the host once it is staged as a gitlink, so its `.git` was removed.
   */
  private reportNestedRepositories(n: number, role: Role): void {
    const removed = this.o.git.removedNestedRepositories?.() ?? [];
    if (removed.length === 0) return;
    this.o.emit({
      type: 'protected_paths_reverted',
      cycle: n,
      role,
      paths: removed.slice(0, PROTECTED_PATHS_SHOWN),
      count: removed.length,
      reason: NESTED_REPOSITORY_REASON,
    });
    const lines = removed.slice(0, PROTECTED_PATHS_SHOWN).map((path) => `- ${path}`);
    if (removed.length > PROTECTED_PATHS_SHOWN) lines.push(`- and ${removed.length - PROTECTED_PATHS_SHOWN} more`);
    this.state.notices.push(
      [`Before the last commit the supervisor removed these: ${NESTED_REPOSITORY_REASON}.`, ...lines].join('\n'),
    );
  }
}

/** The notice a role reads about protected paths the supervisor put back. */
function describeProtectedChanges(found: readonly ProtectedChange[]): string {
  const lines = found.slice(0, PROTECTED_PATHS_SHOWN).map((f) => `- ${f.path}: ${f.reason}`);
  if (found.length > PROTECTED_PATHS_SHOWN) lines.push(`- and ${found.length - PROTECTED_PATHS_SHOWN} more`);
  return [
    'Before the last commit the supervisor put these files back as the previous commit has them: they are protected, and they changed without a tool call a person approved (a test or a command wrote them). Tests must not write them; change them only with write_file or edit_file, which ask a person first.',
    ...lines,
  ].join('\n');
}
