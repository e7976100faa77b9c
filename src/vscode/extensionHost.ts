/**
 * Everything behind the extension's commands and panel, loaded on first use (see `activation.ts`):
 * the panel store and view, the status bar, the kata runner, QA/CoT on the selection, API key
 * commands, workspace trust and core logging routed into the output channel.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { handlePanelMessage, type PanelCommandName, type PanelHost } from '../shared/panelProtocol';
import { clearApiKey, readApiKey, setApiKey } from './commands/apiKey';
import { COMMANDS, KATA_TESTS_STATE_KEY, PANEL_STATE_KEY, PANEL_VIEW_ID } from './commands/commandIds';
import { SETTINGS_SECTION, type ExtensionSettings } from './config/settings';
import { currentSettings, warnAboutUnappliedSettings } from './config/currentSettings';
import { workspaceMcpServers } from './config/mcpServersSetting';
import { checkSetup, sandboxFixText } from './config/setupCheck';
import { chooseProvider, pickModel, type ProviderChoiceDeps } from './commands/providerChoice';
import { evaluateModel } from './commands/evaluateModel';
import { setPanelCommandRunner } from './panel/errorNotice';
import { RepositoryWatcher } from './session/repositoryWatcher';
import { routeCoreLogs } from './logging/outputChannelLog';
import { isSessionRunning } from './panel/panelReducer';
import { PanelConversation } from './panel/panelConversation';
import { PanelStore } from './panel/panelStore';
import { createPanelHost, TEST_OUTPUT_SCHEME } from './panel/panelHost';
import { PanelViewProvider } from './panel/panelViewProvider';
import { KataRunner } from './session/kataRunner';
import type { RunKataOptions } from './session/runChoice';
import { SessionCommands } from './session/sessionCommands';
import { askAboutSelection, type SelectionAgentKind } from './selection/selectionAgents';
import { KataStatusBar } from './status/statusBar';
import { SessionFiles } from './editor/sessionFiles';
import { KataTests } from './testing/kataTestController';

/** The loaded extension: one per activation. */
export class ExtensionHost implements vscode.Disposable {
  readonly store: PanelStore;
  readonly provider: PanelViewProvider;
  readonly runner: KataRunner;
  /** The panel's side of the running session's approvals and questions. */
  readonly conversation: PanelConversation;
  readonly sessions: SessionCommands;
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
    const unsubscribe = this.followStore();
    const panelShown = (): void => {
      void this.sessions.refresh();
      void this.refreshSetup(false);
    };
    this.provider = new PanelViewProvider(
      context.extensionUri,
      this.store,
      log,
      (message) => handlePanelMessage(message, this.panelHost),
      panelShown,
    );
    setPanelCommandRunner((name) => this.runPanelCommand(name));
    const deps = {
      store: this.store,
      log,
      settings: () => this.settings(),
      apiKey: () => readApiKey(context.secrets),
      openPanel: () => this.openPanel(),
    };
    const inSession = (): boolean => this.runner.running;
    this.files = new SessionFiles({ store: this.store, log, running: inSession });
    this.tests = this.createKataTests(inSession);
    this.conversation = new PanelConversation(this.store, log);
    this.runner = this.createRunner(deps);
    this.sessions = new SessionCommands({
      store: this.store,
      log,
      runner: this.runner,
      sessionDeleted: (branch) => this.tests.forget(branch),
    });
    this.providerChoice = {
      apiKey: () => readApiKey(context.secrets),
      setApiKey: () => vscode.commands.executeCommand(COMMANDS.setApiKey),
      log,
    };
    this.selectionDeps = deps;
    this.panelHost = createPanelHost({
      log,
      conversation: this.conversation,
      runner: this.runner,
      sessions: this.sessions,
      files: this.files,
      selection: deps,
      runCommand: (name) => this.runPanelCommand(name),
      panelReady: () => {
        this.provider.post();
        panelShown();
      },
    });
    this.repositoryWatcher = new RepositoryWatcher(log, () => void this.sessions.refresh());
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
      // A commit, checkout, merge or session change made anywhere (a terminal, another window, the CLI) is read at once.
      this.repositoryWatcher,
      ...this.watchWindow(context),
      { dispose: () => setPanelCommandRunner(undefined) },
    );
    void this.sessions.refresh();
    void this.refreshSetup(false);
  }

  /** The kata's tests in the Testing view, kept across reloads. */
  private createKataTests(running: () => boolean): KataTests {
    const { workspaceState } = this.context;
    return new KataTests({
      log: this.log,
      running,
      settings: () => this.settings(),
      saved: workspaceState.get(KATA_TESTS_STATE_KEY),
      save: (state) => workspaceState.update(KATA_TESTS_STATE_KEY, state),
      // A run from the Testing view is the session's test state now: the header and the status bar show it too.
      ranTests: (tests) => this.store.dispatch({ type: 'testingRun', tests }),
    });
  }

  /** The status bar and the view's Run / Stop title buttons follow the panel's state. */
  private followStore(): () => void {
    this.statusBar.update(this.store.state);
    let running: boolean | undefined;
    return this.store.onDidChange((state) => {
      this.statusBar.update(state);
      // `tddAgent.running` switches the view's Run / Stop title buttons.
      const now = isSessionRunning(state);
      if (now !== running) void vscode.commands.executeCommand('setContext', 'tddAgent.running', (running = now));
    });
  }

  /** The kata runner, its sessions' events followed by the editor's diffs and the Testing view. */
  private createRunner(
    deps: Pick<ConstructorParameters<typeof KataRunner>[0], 'store' | 'log' | 'settings' | 'apiKey' | 'openPanel'>,
  ): KataRunner {
    return new KataRunner({
      ...deps,
      conversation: this.conversation,
      workspaceMcpServers: () => workspaceMcpServers(vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect('mcpServers')),
      consentMemory: this.context.workspaceState,
      observers: [this.files, this.tests],
      extensionPath: this.context.extensionPath,
      sessionsChanged: () => {
        this.repositoryWatcher.ensure(); // a first session may have run `git init`
        void this.sessions.refresh();
      },
      reviewSession: (id) => void this.sessions.run('review', id),
    });
  }

  /** What is read again when the window changes: trust granted, focus back, settings or secrets changed. */
  private watchWindow(context: vscode.ExtensionContext): vscode.Disposable[] {
    return [
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.store.dispatch({ type: 'trust', trusted: true });
        this.repositoryWatcher.ensure();
        void this.sessions.refresh();
      }),
      // The person may have committed, merged or switched branches meanwhile (merge blocker, merged state), or
      // fixed the sandbox in a terminal.
      vscode.window.onDidChangeWindowState((state) => {
        if (!state.focused) return;
        this.repositoryWatcher.ensure();
        void this.sessions.refresh();
        void this.refreshSetup(true);
      }),
      // The first-run card goes away as soon as what it asks for is set.
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTINGS_SECTION)) void this.refreshSetup(false);
      }),
      context.secrets.onDidChange(() => void this.refreshSetup(false)),
    ];
  }

  private readonly providerChoice: ProviderChoiceDeps;
  /** What the panel's messages are carried out with. */
  private readonly panelHost: PanelHost;
  private readonly repositoryWatcher: RepositoryWatcher;
  /** Only the newest setup check's answer is shown (an older one may end later). */
  private setupCheck = 0;
  /** The warnings about settings that do not apply as written, already shown in this window. */
  private readonly toldSettings = new Set<string>();

  /** Checks what a session still needs (model, sandbox) into the panel's first-run card. */
  async refreshSetup(refreshSandbox: boolean): Promise<void> {
    const check = ++this.setupCheck;
    void warnAboutUnappliedSettings(this.toldSettings, this.log).catch((error: unknown) =>
      this.log.warn(`could not read the workspace's settings files: ${error instanceof Error ? error.message : String(error)}`),
    );
    try {
      let settings: ExtensionSettings;
      try {
        settings = this.settings();
      } catch (error) {
        // Invalid settings: the card says so (the message names each bad one).
        if (check === this.setupCheck)
          this.store.dispatch({
            type: 'setup',
            problems: [
              {
                item: 'model',
                title: 'Some settings are not valid',
                detail: error instanceof Error ? error.message : String(error),
                fixes: ['openSettings'],
              },
            ],
          });
        return;
      }
      const problems = await checkSetup({ settings, apiKey: await readApiKey(this.context.secrets), refreshSandbox });
      if (check === this.setupCheck) this.store.dispatch({ type: 'setup', problems });
    } catch (error) {
      this.log.warn(`could not check the setup: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Carries out a command button of the panel (the toolbar's, an error card's, the first-run card's). */
  private runPanelCommand(name: PanelCommandName): unknown {
    switch (name) {
      case 'runKata':
        return vscode.commands.executeCommand(COMMANDS.runKata);
      case 'stopKata':
        return this.stopKata();
      case 'setApiKey':
        return vscode.commands.executeCommand(COMMANDS.setApiKey);
      case 'openSettings':
        return vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${this.context.extension.id}`);
      case 'chooseProvider':
        return chooseProvider(this.providerChoice);
      case 'pickModel':
        return pickModel(this.providerChoice);
      case 'showSandboxFix':
        return this.showSandboxFix();
      case 'openSandboxSetting':
        return vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS_SECTION}.sandbox`);
      case 'manageTrust':
        return vscode.commands.executeCommand('workbench.trust.manage');
    }
  }

  /** Opens the sandbox's diagnosis (the cause and the exact commands of the fix) in an untitled Markdown editor. */
  private async showSandboxFix(): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: await sandboxFixText() });
    await vscode.window.showTextDocument(document, { preview: true });
    void this.refreshSetup(false);
  }

  private readonly selectionDeps: Parameters<typeof askAboutSelection>[0];

  /**
   * The validated `tddAgent.*` settings (throws a CONFIG AgentError naming each bad one); user-only ones from the user
   * settings alone, the approval policy never looser than the person's own.
   */
  settings(): ExtensionSettings {
    return currentSettings();
  }

  /** Runs a kata (the command's argument may be a kata path or bundled slug). */
  runKata(arg?: unknown): Promise<unknown> {
    const options: RunKataOptions = {};
    if (typeof arg === 'string' && arg.trim() !== '') options.kata = arg.trim();
    else if (arg instanceof vscode.Uri) options.kata = arg.fsPath;
    return this.runner.run(options);
  }

  /** Runs the bundled eval kata set against the configured model and opens the report (Markdown preview). */
  evaluateModel(): Promise<unknown> {
    return evaluateModel({
      settings: () => this.settings(),
      apiKey: () => readApiKey(this.context.secrets),
      log: this.log,
      storage: this.context.globalStorageUri,
      extensionPath: this.context.extensionPath,
    });
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
    const request = vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
    this.store.revealing(request);
    return request;
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
