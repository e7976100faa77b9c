/**
 * Everything behind the extension's commands and panel, loaded on first use (see `activation.ts`):
 * the panel store and view, the status bar, the kata runner, QA/CoT on the selection, API key
 * commands, workspace trust and core logging routed into the output channel.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { PanelMessage } from '../shared/panelProtocol';
import { clearApiKey, readApiKey, setApiKey } from './commands/apiKey';
import { COMMANDS, KATA_TESTS_STATE_KEY, PANEL_STATE_KEY, PANEL_VIEW_ID } from './commands/commandIds';
import { workspaceFilePath } from './panel/workspacePath';

import { SETTINGS_SECTION, configurationReader, readSettings, type ExtensionSettings } from './config/settings';
import { routeCoreLogs } from './logging/outputChannelLog';
import { isSessionRunning } from './panel/panelReducer';
import { PanelStore } from './panel/panelStore';
import { PanelViewProvider } from './panel/panelViewProvider';
import { KataRunner, type RunKataOptions } from './session/kataRunner';
import { SessionActions } from './session/sessionActions';
import { askAboutSelection, askFollowUp, type SelectionAgentKind } from './session/selectionAgents';
import { KataStatusBar } from './status/statusBar';
import { SessionFiles } from './editor/sessionFiles';
import { KataTests } from './testing/kataTestController';

/** URI scheme of the read-only documents "Open full output" opens: `tdd-agent-output:/<history entry id>.log`. */
const TEST_OUTPUT_SCHEME = 'tdd-agent-output';

/** The loaded extension: one per activation. */
export class ExtensionHost implements vscode.Disposable {
  readonly store: PanelStore;
  readonly provider: PanelViewProvider;
  readonly runner: KataRunner;
  readonly sessions: SessionActions;
  /** Diffs and file links of the sessions' files in the editor. */
  readonly files: SessionFiles;
  /** The kata's tests in the Testing view. */
  readonly tests: KataTests;
  private readonly statusBar: KataStatusBar;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(routeCoreLogs(log));
    this.store = new PanelStore({
      instanceId: randomUUID(),
      trusted: vscode.workspace.isTrusted,
      persisted: context.workspaceState.get(PANEL_STATE_KEY),
      persist: (state) => context.workspaceState.update(PANEL_STATE_KEY, state),
    });
    this.statusBar = new KataStatusBar();
    this.statusBar.update(this.store.state);
    let running: boolean | undefined;
    const unsubscribe = this.store.onDidChange((state) => {
      this.statusBar.update(state);
      // `tddAgent.running` switches the view's Run / Stop title buttons.
      const now = isSessionRunning(state);
      if (now !== running) void vscode.commands.executeCommand('setContext', 'tddAgent.running', (running = now));
    });
    this.provider = new PanelViewProvider(
      context.extensionUri,
      this.store,
      log,
      (message) => this.onPanelMessage(message),
      () => void this.sessions.refresh(),
    );
    const deps = {
      store: this.store,
      log,
      settings: () => this.settings(),
      apiKey: () => readApiKey(context.secrets),
      openPanel: () => this.openPanel(),
    };
    const inSession = (): boolean => this.runner.running;
    this.files = new SessionFiles({ store: this.store, log, running: inSession });
    this.tests = new KataTests({
      log,
      running: inSession,
      settings: () => this.settings(),
      saved: context.workspaceState.get(KATA_TESTS_STATE_KEY),
      save: (state) => context.workspaceState.update(KATA_TESTS_STATE_KEY, state),
    });
    this.runner = new KataRunner({
      ...deps,
      observers: [this.files, this.tests],
      extensionPath: context.extensionPath,
      sessionsChanged: () => void this.sessions.refresh(),
      reviewSession: (id) => void this.sessions.run('review', id),
    });
    this.sessions = new SessionActions({ store: this.store, log, runner: this.runner });
    this.selectionDeps = deps;
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(TEST_OUTPUT_SCHEME, {
        provideTextDocumentContent: (uri) => this.runner.testOutput(uri.path.replace(/^\//, '').replace(/\.log$/, '')) ?? '',
      }),
      this.statusBar,
      this.files,
      this.tests,
      this.provider,
      this.sessions,
      { dispose: unsubscribe },
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.store.dispatch({ type: 'trust', trusted: true });
        void this.sessions.refresh();
      }),
      // The person may have committed, merged or switched branches meanwhile (merge blocker, merged state).
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) void this.sessions.refresh();
      }),
    );
    void this.sessions.refresh();
  }

  private readonly selectionDeps: Parameters<typeof askAboutSelection>[0];

  /** The validated `tddAgent.*` settings (throws a CONFIG AgentError naming each bad one); user-only ones from the user settings alone. */
  settings(): ExtensionSettings {
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    return readSettings(configurationReader(config));
  }

  /** Runs a kata (the command's argument may be a kata path or bundled slug). */
  runKata(arg?: unknown): Promise<unknown> {
    const options: RunKataOptions = {};
    if (typeof arg === 'string' && arg.trim() !== '') options.kata = arg.trim();
    else if (arg instanceof vscode.Uri) options.kata = arg.fsPath;
    return this.runner.run(options);
  }

  /** Stops the running kata. */
  stopKata(): void {
    if (!this.runner.stop()) void vscode.window.showInformationMessage('TDD Agent: no kata is running.');
  }

  /** QA or CoT on the selection; `prompt` skips the input box (programmatic use). */
  ask(kind: SelectionAgentKind, prompt?: unknown): Promise<unknown> {
    return askAboutSelection(this.selectionDeps, kind, typeof prompt === 'string' ? prompt : undefined);
  }

  /** Stores an API key entered in a password box. */
  setApiKey(): Promise<boolean> {
    return setApiKey(this.context.secrets, this.log);
  }

  /** Deletes the stored API key. */
  clearApiKey(): Promise<void> {
    return clearApiKey(this.context.secrets, this.log);
  }

  /** Reveals the panel. */
  openPanel(): Thenable<unknown> {
    return vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
  }

  private onPanelMessage(message: Exclude<PanelMessage, { type: 'ready' }>): void {
    switch (message.type) {
      case 'approvalResponse':
        this.runner.answerApproval(message.requestId, message.decision);
        return;
      case 'command':
        switch (message.name) {
          case 'runKata':
            void vscode.commands.executeCommand(COMMANDS.runKata);
            return;
          case 'stopKata':
            this.stopKata();
            return;
          case 'setApiKey':
            void vscode.commands.executeCommand(COMMANDS.setApiKey);
            return;
          case 'openSettings':
            void vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${this.context.extension.id}`);
            return;
        }
        return;
      case 'sessionAction':
        void this.sessions.run(message.action, message.sessionId);
        return;
      case 'openCommit':
        void this.sessions.openCommit(message.sessionId, message.sha);
        return;
      case 'openFile':
        void (message.session ? this.files.openFile(message.path, message.line) : this.openFile(message.path, message.line));
        return;
      case 'openDiff':
        void this.files.openDiff(message.id);
        return;
      case 'openTestOutput':
        void this.openTestOutput(message.id);
        return;
      case 'followUp':
        void askFollowUp(this.selectionDeps, message.answerId, message.question);
        return;
      case 'log':
        this.log[message.level](`panel: ${message.message}`);
        return;
    }
  }

  /** Opens the full runner output of a test run of the history in a read-only editor. */
  private async openTestOutput(id: string): Promise<void> {
    if (this.runner.testOutput(id) === undefined) {
      void vscode.window.showInformationMessage(
        'TDD Agent: the full output of this test run is no longer kept (it is kept for the runs of this window).',
      );
      return;
    }
    const uri = vscode.Uri.from({ scheme: TEST_OUTPUT_SCHEME, path: `/${id}.log` });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
  }

  /** Opens a file the panel names (a file label), at `line` when given; only inside the workspace folder. */
  private async openFile(relative: string, line: number | undefined): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const file = folder && folder.uri.scheme === 'file' ? workspaceFilePath(folder.uri.fsPath, relative) : undefined;
    if (!file) {
      void vscode.window.showWarningMessage(`TDD Agent: ${relative} is not a file of this workspace folder.`);
      return;
    }
    try {
      const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
      await vscode.window.showTextDocument(vscode.Uri.file(file), {
        selection: new vscode.Range(position, position),
        preview: true,
      });
    } catch (error) {
      void vscode.window.showWarningMessage(
        `TDD Agent: cannot open ${relative}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async dispose(): Promise<void> {
    await this.runner.dispose();
    this.store.dispose();
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
  }
}

/** Creates the host (called once, lazily, by the activation code). */
export function createExtensionHost(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): ExtensionHost {
  return new ExtensionHost(context, log);
}
