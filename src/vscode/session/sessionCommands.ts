/**
 * The panel's session buttons and list: reads the repository's recorded sessions into the panel state
 * (when the panel is shown, the window gets focus, a session starts or ends, or an action ran), and
 * carries out "Review changes" (VS Code's own diff views over read-only documents of the two commits),
 * "Merge into <branch>" (after a modal saying what will arrive; only when the checkout can take it; never forcing),
 * "Delete session" (after a modal confirmation) and "Resume". Outcomes are told in the panel (a notice, an error card)
 * and as a notification only while the panel is hidden.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { toAgentError } from '../../core';
import {
  deleteSession,
  formatDiskUsage,
  leaveOutSessionSetup,
  mergeSession,
  previewMerge,
  sessionSetupOf,
  type SessionState,
} from '../../core/tddApi';
import { MERGE_BUTTONS, mergeConfirmation } from './mergeConfirmation';
import { showErrorNotice } from '../panel/errorNotice';
import type { RecordedSession, SessionActionName } from '../../shared/panelProtocol';
import type { PanelStore } from '../panel/panelStore';
import type { KataRunner } from './kataRunner';
import {
  commitChanges,
  fileAtRevision,
  findSessionRecord,
  kataPathOf,
  readRepositorySessions,
  sessionChanges,
  type SessionChanges,
} from './repositorySessions';

/** URI scheme of the read-only documents "Review changes" opens: `tdd-agent-session:/<path>?repo=<root>&rev=<commit>`. */
export const REVIEW_SCHEME = 'tdd-agent-session';

/** While a listed session runs in another process (a CLI run, a window that is shutting down), the list is read again this often. */
export const RUNNING_ELSEWHERE_POLL_MS = 5_000;

/** The button of the delete confirmation. */
export const DELETE_BUTTON = 'Delete session';

/** What the session actions need. */
export interface SessionActionsDeps {
  store: PanelStore;
  log: vscode.LogOutputChannel;
  runner: KataRunner;
  /** A session was deleted (its branch): views that show it forget it. */
  sessionDeleted?(branch: string): void;
}

/** A document URI of `file` at commit `rev` of `repository` (an empty `rev`: an empty document, the missing side of an added or deleted file). */
export function revisionUri(repository: string, rev: string, file: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: REVIEW_SCHEME,
    path: `/${file}`,
    query: new URLSearchParams({ repo: repository, rev }).toString(),
  });
}

/**
 * The `[resource, original, modified]` triples `vscode.changes` takes, one per changed file; the missing
 * side of an added or deleted file is undefined (the changes editor then shows it as added or deleted).
 */
export function changeTriples(changes: SessionChanges): Array<[vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined]> {
  return changes.files.map((file) => {
    const left = file.status === 'A' ? undefined : revisionUri(changes.repository, changes.base, file.path);
    const right = file.status === 'D' ? undefined : revisionUri(changes.repository, changes.head, file.path);
    return [(right ?? left)!, left, right];
  });
}

/** Reads the repository's sessions into the panel and runs the panel's session buttons. */
export class SessionCommands implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** Repositories whose documents the content provider serves (only those a review opened). */
  private readonly reviewed = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private refreshing: Promise<void> | undefined;
  private again = false;
  private poll: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(private readonly deps: SessionActionsDeps) {
    this.disposables.push(vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, this));
  }

  /** The workspace folder katas run in, when it is a local folder. */
  private root(): string | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder && folder.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
  }

  /**
   * Reads the repository's sessions again into the panel state. Calls while one read runs are folded
   * into one more read afterwards. Nothing is read in Restricted Mode (git would run on an untrusted
   * repository's configuration).
   */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again);
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async readOnce(): Promise<void> {
    const root = this.root();
    if (!root || !vscode.workspace.isTrusted) {
      this.deps.store.dispatch({ type: 'repository', repository: null });
      return;
    }
    try {
      const repository = await readRepositorySessions(root, {
        runningHere: (id) => this.deps.runner.isRunningHere(id),
        onSkipped: ({ id, problem }) => this.deps.log.warn(`session record ${id} cannot be read and is not listed: ${problem}`),
      });
      this.deps.store.dispatch({ type: 'repository', repository });
      // A session another process runs ends without telling this window: look again until it has.
      const elsewhere = repository?.sessions.some((s) => s.status === 'running' && !this.deps.runner.isRunningHere(s.id));
      if (elsewhere && !this.poll && !this.disposed) {
        this.poll = setTimeout(() => {
          this.poll = undefined;
          void this.refresh();
        }, RUNNING_ELSEWHERE_POLL_MS);
      }
    } catch (error) {
      this.deps.log.warn(`could not read the repository's sessions: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The workspace folder when it is trusted; otherwise undefined, after showing `refusal`. */
  private trustedRoot(refusal: string): string | undefined {
    const root = this.root();
    if (root && vscode.workspace.isTrusted) return root;
    void vscode.window.showWarningMessage(refusal);
    return undefined;
  }

  /** The record of session `id`, or undefined after telling the person it is gone. */
  private async sessionRecord(root: string, id: string): Promise<SessionState | undefined> {
    const state = await findSessionRecord(root, id);
    if (!state) void vscode.window.showWarningMessage(`TDD Agent: there is no session ${id} in this repository any more.`);
    return state;
  }

  /** Runs a session button of the panel; every outcome is told to the person. */
  async run(action: SessionActionName, id: string): Promise<void> {
    const root = this.trustedRoot(
      'TDD Agent: sessions can only be reviewed, merged, deleted or resumed in a trusted workspace folder.',
    );
    if (!root) return;
    try {
      const state = await this.sessionRecord(root, id);
      if (!state) return;
      switch (action) {
        case 'review':
          return await this.review(state);
        case 'merge':
          return await this.merge(root, state);
        case 'delete':
          return await this.delete(root, state);
        case 'resume':
          return await this.resume(state);
      }
    } catch (error) {
      const failure = toAgentError(error);
      this.deps.log.warn(`session ${action} of ${id} failed: ${failure.message}`);
      this.deps.store.dispatch({ type: 'notice', notice: null });
      void showErrorNotice(this.deps.store, this.deps.log, failure);
    } finally {
      void this.refresh();
    }
  }

  /** Tells the outcome of a session action: in the panel, and as a notification too while the panel is hidden. */
  private tell(level: 'info' | 'warning', text: string): void {
    this.deps.store.dispatch({ type: 'notice', notice: { level, text, at: Date.now() } });
    void this.deps.store.isPanelShown().then((shown) => {
      if (shown) return;
      if (level === 'info') void vscode.window.showInformationMessage(`TDD Agent: ${text}`);
      else void vscode.window.showWarningMessage(`TDD Agent: ${text}`);
    });
  }

  /** Opens the changes of commit `sha` of session `id` (a hash in the panel's cycle list) in VS Code's diff views. */
  async openCommit(id: string, sha: string): Promise<void> {
    const root = this.trustedRoot('TDD Agent: commits of a session can only be opened in a trusted workspace folder.');
    if (!root) return;
    try {
      const state = await this.sessionRecord(root, id);
      if (!state) return;
      const changes = await commitChanges(state.git.repository, sha);
      if (changes.files.length === 0) {
        void vscode.window.showInformationMessage(`TDD Agent: commit ${sha.slice(0, 7)} changes no file.`);
        return;
      }
      await this.showChanges(changes, `${changes.head.slice(0, 7)}: changes of the commit`);
    } catch (error) {
      const message = toAgentError(error).message;
      this.deps.log.warn(`opening commit ${sha} of ${id} failed: ${message}`);
      void vscode.window.showErrorMessage(`TDD Agent: ${message}`);
    }
  }

  /** Opens the session's changes since it started in VS Code's diff views (one file: a diff editor; more: the multi-file changes editor). */
  async review(state: SessionState): Promise<void> {
    const changes = await sessionChanges(state);
    const since = state.git.baseBranch ? `${state.git.baseBranch} (${changes.base.slice(0, 7)})` : changes.base.slice(0, 7);
    if (changes.files.length === 0) {
      void vscode.window.showInformationMessage(`TDD Agent: session ${state.id} has not changed any file since ${since}.`);
      return;
    }
    this.deps.log.info(
      `reviewing ${changes.files.length} changed file(s) of ${changes.branch} (${changes.base.slice(0, 8)}..${changes.head.slice(0, 8)})`,
    );
    await this.showChanges(changes, `${changes.branch}: changes since ${since}`);
  }

  /** One changed file: a diff editor; more: the multi-file changes editor. */
  private async showChanges(changes: SessionChanges, title: string): Promise<void> {
    this.reviewed.add(changes.repository);
    const triples = changeTriples(changes);
    if (triples.length === 1) {
      const file = changes.files[0]!.path;
      const [, left, right] = triples[0]!;
      const empty = revisionUri(changes.repository, '', file);
      await vscode.commands.executeCommand(
        'vscode.diff',
        left ?? empty,
        right ?? empty,
        `${path.posix.basename(file)} (${title})`,
        { preview: false },
      );
      return;
    }
    await vscode.commands.executeCommand('vscode.changes', title, triples);
  }

  /**
   * Merges the session's branch into the person's current branch, when their checkout can take it, after a modal
   * that says what will arrive (commits, files) and how (fast-forward, or a merge commit on request).
   */
  async merge(root: string, state: SessionState): Promise<void> {
    if (this.isRunning(state)) {
      this.tell('warning', `session ${state.id} is still running; stop it before merging its branch.`);
      return;
    }
    const preview = await previewMerge(root, state.id);
    const why =
      preview.blocker ??
      (preview.commits.length === 0 ? `${preview.into ?? 'your branch'} already has all of its commits` : undefined) ??
      (preview.inTheWay.length > 0
        ? `it adds ${preview.inTheWay.join(', ')}, which your folder already has as an untracked or ignored file; move ${preview.inTheWay.length === 1 ? 'it' : 'them'} away first`
        : undefined) ??
      (preview.conflicts.length > 0
        ? `it would conflict in ${preview.conflicts.join(', ')}; merge it yourself (git merge ${preview.branch}) to resolve them`
        : undefined);
    if (why) {
      this.tell('warning', `${preview.branch} was not merged: ${why}. Nothing was changed.`);
      return;
    }
    // The session's set-up (an empty first commit, the scaffold's placeholders) stays out unless the person takes it.
    const setup = await sessionSetupOf(root, state.id).catch((error: unknown) => {
      this.deps.log.warn(
        `could not read the set-up of ${state.branch}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return undefined;
    });
    const { message, detail } = mergeConfirmation(preview, setup);
    const buttons = [
      ...(preview.unborn
        ? [MERGE_BUTTONS.merge]
        : preview.fastForward
          ? [MERGE_BUTTONS.fastForward, MERGE_BUTTONS.mergeCommit]
          : [MERGE_BUTTONS.mergeCommit]),
      ...(setup ? [MERGE_BUTTONS.keepSetup] : []),
    ];
    const choice = await vscode.window.showInformationMessage(message, { modal: true, detail }, ...buttons);
    if (!choice) return;
    if (setup && choice !== MERGE_BUTTONS.keepSetup) await leaveOutSessionSetup(root, state.id);
    const result = await mergeSession(root, state.id, {
      mergeCommit:
        choice === MERGE_BUTTONS.mergeCommit || (choice === MERGE_BUTTONS.keepSetup && !preview.unborn && !preview.fastForward),
    });
    const how =
      result.kind === 'merge-commit'
        ? 'with a merge commit'
        : result.kind === 'fast-forward'
          ? 'as a fast-forward'
          : 'as its first history';
    this.deps.log.info(`merged ${state.branch} into ${result.into} ${how} (${result.head.slice(0, 8)})`);
    this.tell(
      'info',
      `Merged ${state.branch} into ${result.into} ${how}: ${result.commits} commit(s), ${result.files} file(s); ${result.into} is now at ${result.head.slice(0, 7)}.`,
    );
  }

  /** Deletes the session (worktree, record and branch) after a modal confirmation. */
  async delete(root: string, state: SessionState): Promise<void> {
    if (this.isRunning(state)) {
      void vscode.window.showWarningMessage(`TDD Agent: session ${state.id} is still running; stop it before deleting it.`);
      return;
    }
    const listed = this.listed(state.id);
    const commits = listed?.commits ?? 0;
    const unmerged = commits > 0 && !listed?.merged;
    const choice = await vscode.window.showWarningMessage(
      `Delete the session ${state.id}?`,
      {
        modal: true,
        detail:
          `This removes its worktree, its record and its branch ${state.branch}` +
          (commits > 0 ? ` with ${commits} commit(s)${unmerged ? ' that are not merged into your branch' : ''}` : '') +
          '. Your checkout and your other branches are not changed.',
      },
      DELETE_BUTTON,
    );
    if (choice !== DELETE_BUTTON) return;
    const result = await deleteSession(root, state.id, { deleteBranch: true });
    this.deps.log.info(
      `deleted session ${state.id} (worktree removed: ${result.worktreeRemoved}, branch deleted: ${result.branchDeleted}, freed ${result.freedBytes} bytes)`,
    );
    // The panel, the status bar and the Testing view stop showing it at once (the list is read again after).
    this.deps.store.dispatch({ type: 'sessionDeleted', sessionId: state.id });
    this.deps.sessionDeleted?.(state.branch);
    this.tell(
      'info',
      `Deleted the session ${state.id}${result.branchDeleted ? ` and its branch ${state.branch}` : ''}${result.worktreeRemoved ? `; freed ${formatDiskUsage(result.freedBytes)}` : ''}.`,
    );
  }

  /** Continues a resumable session (the runner refuses while another one runs). */
  async resume(state: SessionState): Promise<void> {
    const listed = this.listed(state.id);
    if (listed && !listed.resumable) {
      void vscode.window.showWarningMessage(
        `TDD Agent: session ${state.id} cannot be resumed (${listed.status}); its branch ${state.branch} keeps its commits.`,
      );
      return;
    }
    void this.deps.runner.run({ kata: await kataPathOf(state), resume: state.id });
  }

  /** Serves the read-only documents of a review: `git show <rev>:<path>` of a reviewed repository. */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const repository = query.get('repo') ?? '';
    const rev = query.get('rev') ?? '';
    if (!this.reviewed.has(repository)) throw new Error(`${repository} is not a repository under review.`);
    if (rev === '') return '';
    return fileAtRevision(repository, rev, uri.path.replace(/^\//, ''));
  }

  private listed(id: string): RecordedSession | undefined {
    return this.deps.store.state.repository?.sessions.find((s) => s.id === id);
  }

  private isRunning(state: SessionState): boolean {
    return this.deps.runner.isRunningHere(state.id) || this.listed(state.id)?.status === 'running';
  }

  dispose(): void {
    if (this.poll) clearTimeout(this.poll);
    this.poll = undefined;
    this.disposed = true;
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
