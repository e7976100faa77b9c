/**
 * Tells the host when the workspace repository changed in a way the panel shows: HEAD (a checkout), the index (a
 * stage, a commit), the refs (a commit, a merge, a deleted branch), a merge or rebase starting or ending, and the
 * session records (a session started, ended or deleted by the CLI or another window), and saved edits of the folder's
 * files (uncommitted changes come and go). The panel's session list,
 * merge blocker and merged flags are then read again, whatever made the change — nothing stays stale until the
 * window loses and regains focus. Only watches: reading git here rewrites nothing (`productGit` takes no optional
 * locks), so the reads cannot trigger the watcher again.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { productGit } from '../../core';

/** Changes that arrive together (a commit touches the index, a ref and the logs) are read once, this long after the last. */
export const REPOSITORY_CHANGE_DEBOUNCE_MS = 300;

/** Paths under a git dir whose change the panel shows (HEAD, index, refs, merge/rebase markers, session records). */
const GIT_DIR_PATTERN =
  '{HEAD,index,packed-refs,MERGE_HEAD,CHERRY_PICK_HEAD,REVERT_HEAD,rebase-merge/**,rebase-apply/**,refs/**,tdd-agent/sessions/*.json}';

/** Watches the first workspace folder's repository and calls `changed` (debounced) on every change the panel shows. */
export class RepositoryWatcher implements vscode.Disposable {
  private readonly watchers: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly changed: () => void,
  ) {
    void this.watch();
  }

  /** The repository's git dir and common git dir (they differ in a linked worktree), or none outside a repository. */
  private async gitDirs(root: string): Promise<string[]> {
    try {
      const { run } = productGit(root);
      const [gitDir, commonDir] = (await run(['rev-parse', '--absolute-git-dir', '--git-common-dir'])).trim().split('\n');
      if (!gitDir) return [];
      const common = commonDir ? path.resolve(root, commonDir) : gitDir;
      return [...new Set([gitDir, common])];
    } catch {
      return []; // not a repository (yet): `git init` is noticed when the window next gets focus
    }
  }

  /** Starts watching when nothing is watched yet (the folder became a repository, or was trusted, since). */
  ensure(): void {
    if (this.watchers.length === 0 && !this.watching && !this.disposed) void this.watch();
  }

  private watching = false;

  private async watch(): Promise<void> {
    this.watching = true;
    try {
      await this.watchOnce();
    } finally {
      this.watching = false;
    }
  }

  private async watchOnce(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file' || !vscode.workspace.isTrusted) return;
    const dirs = await this.gitDirs(folder.uri.fsPath);
    if (this.disposed) return;
    for (const dir of dirs) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), GIT_DIR_PATTERN));
      watcher.onDidChange(() => this.schedule());
      watcher.onDidCreate(() => this.schedule());
      watcher.onDidDelete(() => this.schedule());
      this.watchers.push(watcher);
    }
    if (dirs.length === 0) return;
    // A saved edit of a tracked file makes (or unmakes) uncommitted changes: the merge blocker follows it.
    const files = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
    const edited = (uri: vscode.Uri) => {
      if (!/(^|[\\/])(\.git|node_modules)([\\/]|$)/.test(path.relative(folder.uri.fsPath, uri.fsPath))) this.schedule();
    };
    files.onDidChange(edited);
    files.onDidCreate(edited);
    files.onDidDelete(edited);
    this.watchers.push(files);
    this.log.debug(`watching the repository for changes: ${dirs.join(', ')} and the files of ${folder.uri.fsPath}`);
  }

  private schedule(): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changed();
    }, REPOSITORY_CHANGE_DEBOUNCE_MS);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers.splice(0)) w.dispose();
  }
}
