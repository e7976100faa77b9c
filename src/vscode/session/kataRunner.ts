/**
 * Runs one kata session at a time against the open workspace: the supervisor's events go into the
 * panel store, its approval requests and questions to the panel's {@link PanelConversation}, and a progress
 * notification with Cancel (like 'Stop kata') aborts the session's AbortController.
 *
 * The session works in its own git worktree and branch; the person's checkout is never changed. What to
 * run, and the questions before a run (resume or start anew, include uncommitted changes), are in
 * `runChoice.ts`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  type ApprovalRequestMessage,
  ControlProtocol,
  type McpServerStatus,
  PortTransport,
  redactSecrets,
  toAgentError,
} from '../../core';
import { PHASE_LABELS, runKataSession, type SessionSummary, type SupervisorEvent } from '../../core/tddApi';
import type { PendingPersonQuestion } from '../../shared/personQuestionProtocol';
import { createModelClient } from '../config/modelClient';
import { modelPrice } from '../config/modelPrices';
import type { ExtensionSettings } from '../config/settings';
import type { PanelConversation } from '../panel/panelConversation';
import { errorAction, vscodeErrorMessage } from '../panel/errorActions';
import { MAX_ACTIONS, testRunId } from '../panel/panelReducer';
import { showErrorNotice } from '../panel/errorNotice';
import type { PanelStore } from '../panel/panelStore';
import { chooseRun, type RunChoice, type RunKataOptions } from './runChoice';
import type { WorkspaceMcpServer } from '../config/mcpServersSetting';
import { consentToWorkspaceMcpServers, type ConsentMemory } from './workspaceMcpConsent';

/** A memory that forgets (no workspace state given): the person is asked at every run. */
function transientMemory(): ConsentMemory {
  const values = new Map<string, unknown>();
  return { get: (key) => values.get(key), update: (key, value) => (values.set(key, value), Promise.resolve()) };
}

/** What the runner needs from the rest of the extension. */
export interface KataRunnerDeps {
  store: PanelStore;
  /** The panel's side of a session's approvals and questions (opened for each run, closed when it ends). */
  conversation: PanelConversation;
  log: vscode.LogOutputChannel;
  extensionPath: string;
  settings(): ExtensionSettings;
  apiKey(): Promise<string | undefined>;
  openPanel(): Thenable<unknown>;
  /** The repository's sessions changed (one started, ended): the panel's list is read again. */
  sessionsChanged?(): void;
  /** "Review changes" on the end-of-session notification. */
  reviewSession?(sessionId: string): void;
  /** See every supervisor event and approval request (the editor's diffs and file links, the Testing view). */
  observers?: SessionObserver[];
  /** The MCP servers the workspace's own settings declare (started only with the person's consent). */
  workspaceMcpServers?(): WorkspaceMcpServer[];
  /** Where that consent is remembered. */
  consentMemory?: ConsentMemory;
}

/** A run asked for and checked, about to start. */
interface PlannedRun {
  root: string;
  choice: RunChoice;
  /** The kata's file name, or the task's first line. */
  label: string;
  settings: ExtensionSettings;
  mcpServers: ExtensionSettings['mcpServers'];
}

/** Something that follows the sessions' events besides the panel. */
export interface SessionObserver {
  event?(event: SupervisorEvent): void;
  approvalRequested?(request: ApprovalRequestMessage): void;
}

/** Starts and stops kata sessions. */
export class KataRunner implements vscode.Disposable {
  private active: { abort: AbortController; done: Promise<unknown>; sessionId?: string } | undefined;
  /** Full runner output of the recent supervisor test runs, by history entry id ("Open full output"). */
  private readonly testOutputs = new Map<string, string>();
  /** True while the picker or a question before the run is open (a second run must not start meanwhile). */
  private choosing = false;

  constructor(private readonly deps: KataRunnerDeps) {}

  /** True while a session runs in this window. */
  get running(): boolean {
    return this.active !== undefined;
  }

  /**
   * True when this window runs session `id` now (also while a session started but has not said its id
   * yet, so a record it just wrote never looks interrupted).
   */
  isRunningHere(id: string): boolean {
    return this.active !== undefined && (this.active.sessionId === undefined || this.active.sessionId === id);
  }

  /** Stops the running session (like Cancel on the progress notification). */
  stop(): boolean {
    if (!this.active) return false;
    this.deps.log.info('stopping the kata session');
    this.active.abort.abort();
    return true;
  }

  /**
   * Runs a kata. Resolves to the summary, or undefined when nothing ran (dismissed picker or question,
   * untrusted workspace, no folder, configuration error, a refusal of the session's preflight — each
   * explained to the person).
   */
  async run(options: RunKataOptions = {}): Promise<SessionSummary | undefined> {
    const plan = await this.planRun(options);
    return plan ? this.runPlanned(plan) : undefined;
  }

  /** What to run, where and with which settings, asked and checked before anything starts; undefined when nothing will. */
  private async planRun(options: RunKataOptions): Promise<PlannedRun | undefined> {
    if (!vscode.workspace.isTrusted) {
      return this.refuse(
        'UNTRUSTED_WORKSPACE',
        'Kata runs are disabled in Restricted Mode: the agents would write files and run commands in this workspace.',
      );
    }
    if (this.active) return this.refuse('SESSION_RUNNING', 'A kata is already running.');
    if (this.choosing) {
      void vscode.window.showInformationMessage(
        'TDD Agent: a kata run is waiting for your answer to the question at the top of the window.',
      );
      return undefined;
    }
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return this.refuse('NO_WORKSPACE', 'Open a folder to run a kata in.');
    const root = folder.uri.fsPath;
    this.choosing = true;
    let choice: RunChoice | undefined;
    try {
      choice = await chooseRun(options, root, this.deps.extensionPath);
    } finally {
      this.choosing = false;
    }
    if (!choice) return undefined;
    let settings: ExtensionSettings;
    try {
      settings = this.deps.settings();
    } catch (error) {
      void this.report(toAgentError(error, 'CONFIG'));
      return undefined;
    }
    const { target } = choice;
    const label = 'task' in target ? target.task.text.split('\n')[0]!.slice(0, 200) : path.basename(target.kata);
    return { root, choice, label, settings, mcpServers: await this.consentedMcpServers(settings) };
  }

  /** The MCP servers to start: the workspace's own only with the person's consent (the person's own always). */
  private async consentedMcpServers(settings: ExtensionSettings): Promise<ExtensionSettings['mcpServers']> {
    const theirs = this.deps.workspaceMcpServers?.() ?? [];
    const consented =
      theirs.length === 0 ||
      (await consentToWorkspaceMcpServers(theirs, this.deps.consentMemory ?? transientMemory(), (message, detail, ...buttons) =>
        vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons),
      ));
    return consented ? settings.mcpServers : settings.mcpServers.filter((s) => !theirs.some((t) => t.name === s.name));
  }

  /** Runs a planned session with the panel's conversation open, and winds it down whatever happens. */
  private async runPlanned(plan: PlannedRun): Promise<SessionSummary | undefined> {
    const { store, conversation } = this.deps;
    const { resume } = plan.choice;
    const abort = new AbortController();
    const channel = conversation.open({
      approvalRequested: (request) => this.deps.observers?.forEach((o) => o.approvalRequested?.(request)),
      questionAsked: (question) => this.notifyQuestion(question),
    });
    let resolveDone!: () => void;
    this.active = {
      abort,
      done: new Promise<void>((r) => (resolveDone = r)),
      ...(typeof resume === 'string' ? { sessionId: resume } : {}),
    };
    this.showStarting(plan);
    const control = new ControlProtocol(new PortTransport(channel), { approvalTimeoutMs: plan.settings.approvalTimeoutMs });
    try {
      const summary = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'TDD Agent', cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          return this.runSession(plan, control, abort.signal, progress);
        },
      );
      this.announce(summary, 'task' in plan.choice.target ? 'Task' : 'Kata');
      return summary;
    } catch (error) {
      store.dispatch({ type: 'sessionAborted', status: abort.signal.aborted ? 'cancelled' : 'failed', at: Date.now() });
      void this.report(toAgentError(error));
      return undefined;
    } finally {
      control.close();
      conversation.close();
      store.flush();
      this.active = undefined;
      resolveDone();
      this.deps.sessionsChanged?.();
    }
  }

  /** The panel's header for the session about to start, the panel opened, and a line in the log. */
  private showStarting({ root, choice: { target, resume, fromWorkingTree }, label, settings }: PlannedRun): void {
    const { store, log } = this.deps;
    store.dispatch({
      type: 'sessionStarting',
      kata: label,
      model: settings.model ?? '',
      provider: settings.provider,
      // Unset, the kata's own max_cycles applies: the header learns it from session_started.
      maxCycles: settings.maxCycles ?? 0,
      at: Date.now(),
      resume: resume !== false,
      ...(typeof resume === 'string' ? { sessionId: resume } : {}),
      sandboxMode: settings.sandbox,
    });
    store.flush();
    void this.deps.openPanel();
    log.info(
      `${'task' in target ? 'task' : 'kata'} run requested: ${'task' in target ? JSON.stringify(label) : target.kata} in ${root}${resume !== false ? ` (resuming ${resume === true ? 'the newest session' : resume})` : fromWorkingTree ? ' (with the uncommitted changes)' : ''}, sandbox ${settings.sandbox}`,
    );
  }

  /** Connects to the model and runs the session, its events going to the panel and the progress notification. */
  private async runSession(
    { root, choice: { target, resume, fromWorkingTree }, settings, mcpServers }: PlannedRun,
    control: ControlProtocol,
    signal: AbortSignal,
    progress: vscode.Progress<{ message?: string }>,
  ): Promise<SessionSummary> {
    progress.report({ message: 'connecting to the model…' });
    const client = await createModelClient(
      settings,
      await this.deps.apiKey(),
      root,
      process.env,
      signal,
      this.deps.extensionPath,
    );
    this.deps.log.info(`model: ${client.source}`);
    return runKataSession({
      workspace: root,
      // The language, test command and folders come from the project's profile (the core reads it).
      ...('task' in target ? { task: target.task } : { kataPath: target.kata }),
      llm: client.llm,
      model: client.model,
      provider: client.provider,
      ...(settings.maxCycles !== undefined ? { maxCycles: settings.maxCycles } : {}),
      control,
      approvalPolicy: settings.approvalPolicy,
      approvalTimeoutMs: settings.approvalTimeoutMs,
      qualityGates: settings.qualityGates,
      testTimeoutMs: settings.testTimeoutMs,
      mcpServers,
      onMcpServers: (statuses) => this.onMcpServers(statuses),
      ...(settings.agentsDir ? { agentsDir: path.resolve(root, settings.agentsDir) } : {}),
      fromWorkingTree: fromWorkingTree === true,
      resume,
      sandbox: settings.sandbox,
      sandboxEnvironment: settings.sandboxEnvironment,
      signal,
      streamRoleText: true,
      onEvent: (event) => {
        this.onEvent(event, progress);
        if (event.type === 'session_started')
          this.deps.store.dispatch({ type: 'modelPrice', price: modelPrice(event.model, settings.modelPrices) ?? null });
      },
    });
  }

  /** The full output of the test run shown as history entry `id`, while it is among the recent ones. */
  testOutput(id: string): string | undefined {
    return this.testOutputs.get(id);
  }

  private onEvent(event: SupervisorEvent, progress: vscode.Progress<{ message?: string }>): void {
    const at = Date.now();
    this.deps.store.dispatch({ type: 'supervisor', event, at });
    for (const observer of this.deps.observers ?? []) observer.event?.(event);
    if (event.type === 'test_run_finished' && event.output) {
      this.testOutputs.set(testRunId(event, at), redactSecrets(event.output));
      // As many as the history keeps: older entries have scrolled out of it anyway.
      for (const key of this.testOutputs.keys()) {
        if (this.testOutputs.size <= MAX_ACTIONS) break;
        this.testOutputs.delete(key);
      }
    }
    if (event.type === 'phase_changed') {
      const max = this.deps.store.state.session?.maxCycles ?? 0;
      progress.report({ message: `cycle ${event.cycle}/${max}: ${PHASE_LABELS[event.phase].doing}` });
    } else if (event.type === 'commit_made') {
      this.deps.log.info(`cycle ${event.cycle} committed ${event.sha.slice(0, 8)} ${event.message.split('\n')[0]}`);
    } else if (event.type === 'session_started') {
      if (this.active) this.active.sessionId = event.sessionId;
      this.deps.log.info(
        `session ${event.sessionId} started on branch ${event.branch} in ${event.worktree} (${event.model} via ${event.provider}); sandbox: ${event.sandbox}`,
      );
      this.deps.sessionsChanged?.();
    } else if (event.type === 'error') {
      this.deps.log.error(`${event.error.error_code}: ${event.error.message}`);
    }
  }

  /** Connected servers go to the log; each one that failed gets a warning the person sees (the session goes on). */
  private onMcpServers(statuses: McpServerStatus[]): void {
    for (const status of statuses) {
      if (status.state === 'connected') {
        this.deps.log.info(`MCP server ${status.name}: ${status.tools.length} tool(s) (${status.name}__*)`);
      } else if (status.state === 'failed') {
        const text =
          `MCP server "${status.name}" is not available; the kata goes on without its tools. ${status.error?.message ?? ''}`.trim();
        this.deps.log.warn(text);
        void vscode.window.showWarningMessage(text);
      }
    }
  }

  private announce(summary: SessionSummary, what: 'Kata' | 'Task'): void {
    const { totals } = summary;
    const text = `${what} "${summary.kata}" ${summary.status.replace('_', ' ')}: ${totals.cycles} cycle(s), ${totals.commits} commit(s), ${totals.tests_passed} test(s) passing on ${summary.branch || 'no branch'}.`;
    this.deps.log.info(text);
    const sessionId = summary.session?.id;
    if (summary.status === 'completed' || summary.status === 'max_cycles' || summary.status === 'incomplete') {
      const review = sessionId && this.deps.reviewSession && summary.totals.commits > 0 ? ['Review changes'] : [];
      // Incomplete: every commit is green, but what the Tester left untested is said (the panel's card names it).
      const why = summary.status === 'incomplete' && summary.error ? ` ${summary.error.message.split('\n')[0]}` : '';
      const message = `${text}${why} Your checkout was not changed.`;
      // "Open panel" only while the panel is not in view: offering what is already there reads as if it were not.
      void this.deps.store.isPanelShown().then(async (shown) => {
        const buttons = [...review, ...(shown ? [] : ['Open panel'])];
        const choice = await (summary.status === 'incomplete'
          ? vscode.window.showWarningMessage(message, ...buttons)
          : vscode.window.showInformationMessage(message, ...buttons));
        if (choice === 'Review changes' && sessionId) this.deps.reviewSession?.(sessionId);
        else if (choice === 'Open panel') void this.deps.openPanel();
      });
    } else if (summary.status === 'cancelled') {
      void vscode.window.showInformationMessage(text);
    } else {
      // The panel shows the failure with its error card: a notification only while it is hidden.
      const action = summary.error ? errorAction(summary.error.error_code) : undefined;
      const message = `${text}${summary.error ? ` ${vscodeErrorMessage(summary.error)}` : ''}${action ? ` ${action}` : ''}`;
      void this.deps.store.isPanelShown().then(async (shown) => {
        if (!shown && (await vscode.window.showErrorMessage(message, 'Open panel'))) void this.deps.openPanel();
      });
    }
  }

  /** A role's question waits on a card in the panel: a person who cannot see the panel is told, with a way to it. */
  private notifyQuestion(question: PendingPersonQuestion): void {
    const who = question.asker ? `The ${question.asker}` : 'An agent';
    void this.deps.store.isPanelShown().then(async (shown) => {
      if (!shown && (await vscode.window.showInformationMessage(`TDD Agent: ${who} has a question.`, 'Open panel')))
        void this.deps.openPanel();
    });
  }

  private refuse(code: string, message: string): undefined {
    void this.report({ error_code: code, message });
    return undefined;
  }

  /** Reports an error (panel card, log, notification with a fix button); resolves to the chosen extra button. */
  private report(error: { error_code: string; message: string }, ...buttons: string[]): Promise<string | undefined> {
    return showErrorNotice(this.deps.store, this.deps.log, error, ...buttons);
  }

  /** Stops a running session and waits for it to wind down. */
  async dispose(): Promise<void> {
    const active = this.active;
    if (!active) return;
    active.abort.abort();
    await active.done;
  }
}
