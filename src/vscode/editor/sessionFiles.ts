/**
 * The panel's way into the editor for a session's files: "Open diff" on approval cards and history
 * entries of `write_file` / `edit_file` opens VS Code's diff editor (`vscode.diff`) with a read-only
 * document of the proposed content (`tdd-agent-proposed:`), and a file link opens the file — in the
 * session's worktree while the session runs here, read-only from the session branch (`git show`,
 * `tdd-agent-branch:`) afterwards. Paths never leave the worktree (the panel renders model output). A diff of an
 * approval card's proposal ("proposed by the agent") is closed once the card is answered or the session ends: what it
 * showed is then stale (the history entry's "Open diff" shows the change made).
 */
import { readFile, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { type ApprovalRequestMessage, productGit } from '../../core';
import type { SupervisorEvent } from '../../core/tddApi';
import type { PanelStore } from '../panel/panelStore';
import { workspaceFilePath } from '../panel/workspacePath';
import { sessionRelativePath } from './sessionPath';
import { FILE_CHANGE_TOOLS, FileChanges, compactDiff, type FileChange } from './fileChanges';

/** Read-only documents of the agent's proposed (or recorded) file contents: `tdd-agent-proposed:/<id>/<before|after>/<path>`. */
export const PROPOSED_SCHEME = 'tdd-agent-proposed';
/** Read-only documents of a file on a session branch: `tdd-agent-branch:/<path>?<branch>`. */
export const BRANCH_SCHEME = 'tdd-agent-branch';

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** What the session files need from the rest of the host. */
export interface SessionFilesDeps {
  store: PanelStore;
  log: vscode.LogOutputChannel;
  /** True while a session runs in this window. */
  running(): boolean;
}

/** Keeps the sessions' file changes and opens them (and session files) in the editor. */
export class SessionFiles implements vscode.Disposable {
  private readonly changes = new FileChanges();
  private worktree: string | undefined;
  private readonly disposables: vscode.Disposable[];
  /** Approval cards whose proposal was opened in a diff editor while they waited. */
  private readonly openProposals = new Set<string>();

  constructor(private readonly deps: SessionFilesDeps) {
    const unsubscribe = deps.store.onDidChange((state) => this.closeSettledProposals(state.approvals));
    this.disposables = [
      { dispose: unsubscribe },
      vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, {
        provideTextDocumentContent: (uri) => this.proposedText(uri),
      }),
      vscode.workspace.registerTextDocumentContentProvider(BRANCH_SCHEME, {
        provideTextDocumentContent: (uri) => this.branchText(uri),
      }),
    ];
  }

  /** The session's worktree (from `session_started`); a `write_file` / `edit_file` call's change becomes its history entry's compact diff. */
  event(event: SupervisorEvent): void {
    if (event.type === 'session_started') {
      this.worktree = event.worktree;
      this.changes.startSession();
    } else if (event.type === 'tool_called' && event.ok && event.callId && FILE_CHANGE_TOOLS.has(event.tool) && this.worktree) {
      const worktree = this.worktree;
      const committed = (relative: string): Promise<string | undefined> =>
        productGit(worktree)
          .run(['show', `HEAD:${relative}`])
          .catch(() => undefined);
      void this.changes.record(event.callId, worktree, event.tool, event.params, readText, committed).then((change) => {
        if (change)
          this.deps.store.dispatch({ type: 'fileChange', id: event.callId, path: change.path, diff: compactDiff(change) });
      });
    }
  }

  /** Keeps what an approval card's `write_file` / `edit_file` call would write (for "Open diff"). */
  approvalRequested(request: ApprovalRequestMessage): void {
    if (this.worktree && FILE_CHANGE_TOOLS.has(request.tool))
      void this.changes.propose(request.id, this.worktree, request.tool, request.params, readText);
  }

  /** Opens the diff editor for approval card or history entry `id`: the file now (or before the change) against the agent's content. */
  async openDiff(id: string): Promise<void> {
    const change = this.changes.get(id);
    if (!change) {
      void vscode.window.showInformationMessage(
        'TDD Agent: this change is no longer kept (changes are kept for the sessions of this window).',
      );
      return;
    }
    const pending = this.deps.store.state.approvals.some((a) => a.requestId === id);
    const current =
      pending && this.worktree && change.before !== undefined ? workspaceFilePath(this.worktree, change.path) : undefined;
    const left = current ? vscode.Uri.file(current) : this.proposedUri(id, 'before', change);
    const right = this.proposedUri(id, 'after', change);
    const what = pending ? 'proposed' : 'change';
    if (pending) this.openProposals.add(id);
    const title = `${change.path} (${change.before === undefined ? 'new file, ' : ''}${what} by the agent)`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  }

  /**
   * Opens file `relative` (or an absolute path inside the worktree, as runners print them) of the
   * panel's session at `line`: the worktree's file while the session runs here, else read-only from its branch.
   */
  async openFile(relative: string, line: number | undefined): Promise<void> {
    const worktree = this.worktree;
    const rel = sessionRelativePath(worktree, relative);
    const safe = rel === undefined ? undefined : worktree ? workspaceFilePath(worktree, rel) : rel;
    if (rel === undefined || !safe) {
      void vscode.window.showWarningMessage(`TDD Agent: ${relative} is not a file of the session.`);
      return;
    }
    // A file an approval card would create is not there yet: show what the agent proposes instead of "cannot open".
    const proposing = this.deps.store.state.approvals.find((a) => a.preview?.kind === 'diff' && a.preview.path === rel);
    if (proposing && this.deps.running() && worktree && !(await fileExists(safe))) {
      await this.openDiff(proposing.requestId);
      return;
    }
    const branch = this.deps.store.state.session?.branch;
    let uri: vscode.Uri;
    if (this.deps.running() && worktree) uri = vscode.Uri.file(safe);
    else if (branch) uri = vscode.Uri.from({ scheme: BRANCH_SCHEME, path: `/${rel}`, query: branch });
    else {
      void vscode.window.showWarningMessage(`TDD Agent: ${relative} cannot be opened: the panel shows no session with a branch.`);
      return;
    }
    try {
      const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
      await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: true });
    } catch (error) {
      void vscode.window.showWarningMessage(
        `TDD Agent: cannot open ${rel}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Closes the diff editors of approval cards no longer waiting (answered, timed out, the session ended). */
  private closeSettledProposals(approvals: readonly { requestId: string }[]): void {
    if (this.openProposals.size === 0) return;
    const waiting = new Set(approvals.map((a) => a.requestId));
    const settled = [...this.openProposals].filter((id) => !waiting.has(id));
    if (settled.length === 0) return;
    for (const id of settled) this.openProposals.delete(id);
    const prefixes = settled.map((id) => `/${encodeURIComponent(id)}/`);
    const stale = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => {
        const input = tab.input;
        if (!(input instanceof vscode.TabInputTextDiff)) return false;
        const right = input.modified;
        return right.scheme === PROPOSED_SCHEME && prefixes.some((prefix) => right.path.startsWith(prefix));
      });
    if (stale.length === 0) return;
    vscode.window.tabGroups
      .close(stale, true)
      .then(undefined, (error: unknown) =>
        this.deps.log.warn(`closing a settled proposal's diff failed: ${error instanceof Error ? error.message : String(error)}`),
      );
  }

  private proposedUri(id: string, side: 'before' | 'after', change: FileChange): vscode.Uri {
    return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${encodeURIComponent(id)}/${side}/${change.path}` });
  }

  private proposedText(uri: vscode.Uri): string {
    const match = /^\/([^/]+)\/(before|after)\//.exec(uri.path);
    const change = match ? this.changes.get(decodeURIComponent(match[1]!)) : undefined;
    if (!change) return '';
    return (match![2] === 'after' ? change.after : change.before) ?? '';
  }

  private async branchText(uri: vscode.Uri): Promise<string> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const branch = uri.query;
    if (!folder || folder.uri.scheme !== 'file' || !/^tdd\/[\w.\-/]+$/.test(branch)) return '';
    try {
      return await productGit(folder.uri.fsPath).run(['show', `${branch}:${uri.path.replace(/^\//, '')}`]);
    } catch (error) {
      this.deps.log.warn(`git show ${branch}:${uri.path} failed: ${error instanceof Error ? error.message : String(error)}`);
      return `(not on ${branch})`;
    }
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

async function fileExists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
