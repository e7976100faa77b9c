/**
 * Runs one kata session at a time against the open workspace: the supervisor's events go into the
 * panel store, its approval requests go to the panel through an {@link ApprovalBridge}, and a progress
 * notification with Cancel (like 'Stop kata') aborts the session's AbortController.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ControlProtocol, PortTransport } from '../../core/control';
import { toAgentError } from '../../core/errors/agentError';
import type { McpServerStatus } from '../../core/mcp/mcpHub';
import type { SupervisorEvent } from '../../core/tdd/events';
import { resolveKata } from '../../core/tdd/kata';
import { SessionStore, type SessionState } from '../../core/tdd/session';
import { runKataSession } from '../../core/tdd/supervisor/kataSession';
import type { SessionSummary } from '../../core/tdd/supervisor/sessionSummary';
import type { ApprovalDecision } from '../../shared/panelProtocol';
import { pickKata } from '../commands/kataPicker';
import { createModelClient } from '../config/modelClient';
import type { ExtensionSettings } from '../config/settings';
import { ApprovalBridge } from '../panel/approvalBridge';
import { errorAction } from '../panel/errorActions';
import { showErrorNotice } from '../panel/errorNotice';
import type { PanelStore } from '../panel/panelStore';

/** What the runner needs from the rest of the extension. */
export interface KataRunnerDeps {
  store: PanelStore;
  log: vscode.LogOutputChannel;
  extensionPath: string;
  settings(): ExtensionSettings;
  apiKey(): Promise<string | undefined>;
  openPanel(): Thenable<unknown>;
}

/** Options of one run. */
export interface RunKataOptions {
  /** Kata file or bundled slug; asked with a QuickPick when absent. */
  kata?: string;
  /** Stash uncommitted work for the session (asked for when the workspace is dirty). */
  stashDirty?: boolean;
  /** Continue the session saved in `.tdd/session.json`; asked for when one was interrupted. */
  resume?: boolean;
}

const PHASE_TEXT: Record<string, string> = { TESTING: 'writing a failing test', IMPLEMENTING: 'making it pass', REFACTORING: 'refactoring', DONE: 'done' };

/**
 * When `.tdd/session.json` holds an interrupted session (running, cancelled or failed) of the same
 * kata with its branch, asks whether to resume it. Resolves to the answer; false when there is nothing
 * to resume; undefined when the person dismissed the question.
 */
async function askToResume(workspace: string, kataPath: string): Promise<boolean | undefined> {
  let saved: SessionState | undefined;
  let slug: string;
  try {
    saved = await new SessionStore(workspace).load();
    slug = (await resolveKata(kataPath)).slug;
  } catch {
    return false; // an unreadable state or kata is reported by the session itself
  }
  if (!saved || saved.kata.slug !== slug || !saved.git?.sessionBranch || !['running', 'cancelled', 'failed'].includes(saved.status)) return false;
  const done = saved.cycles.filter((c) => c.outcome !== 'in_progress' && c.outcome !== 'cancelled').length;
  const choice = await vscode.window.showInformationMessage(
    `The ${saved.status === 'running' ? 'interrupted' : saved.status} session of "${saved.kata.title}" (${done} cycle(s) done, branch ${saved.branch}) can be resumed.`,
    { modal: true, detail: 'Resume continues on its branch from the last green commit; Start over begins a new session branch.' },
    'Resume',
    'Start over',
  );
  return choice === undefined ? undefined : choice === 'Resume';
}

/** Starts and stops kata sessions. */
export class KataRunner implements vscode.Disposable {
  private active: { abort: AbortController; bridge: ApprovalBridge; done: Promise<unknown> } | undefined;
  private role: string | undefined;
  /** True while the picker or the resume question is open (a second run must not start meanwhile). */
  private choosing = false;

  constructor(private readonly deps: KataRunnerDeps) {}

  /** A person's decision from the panel; false when no session waits for `requestId`. */
  answerApproval(requestId: string, decision: ApprovalDecision): boolean {
    if (!this.active) {
      this.deps.log.warn(`approval answer for ${requestId} dropped: no kata is running`);
      this.deps.store.dispatch({ type: 'approvalClosed', requestId });
      return false;
    }
    return this.active.bridge.answer(requestId, decision);
  }

  /** Stops the running session (like Cancel on the progress notification). */
  stop(): boolean {
    if (!this.active) return false;
    this.deps.log.info('stopping the kata session');
    this.active.abort.abort();
    return true;
  }

  /**
   * Runs a kata. Resolves to the summary, or undefined when nothing ran (dismissed picker,
   * untrusted workspace, no folder, configuration error — each explained to the person).
   */
  async run(options: RunKataOptions = {}): Promise<SessionSummary | undefined> {
    const { store, log } = this.deps;
    if (!vscode.workspace.isTrusted) {
      return this.refuse('UNTRUSTED_WORKSPACE', 'Kata runs are disabled in Restricted Mode: the agents would write files and run commands in this workspace.');
    }
    if (this.active || this.choosing) return this.refuse('SESSION_RUNNING', 'A kata is already running.');
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return this.refuse('NO_WORKSPACE', 'Open a folder to run a kata in.');
    let kata: string | undefined;
    let resume: boolean | undefined;
    this.choosing = true;
    try {
      kata = options.kata ?? (await pickKata(this.deps.extensionPath));
      resume = kata === undefined ? undefined : (options.resume ?? (await askToResume(folder.uri.fsPath, kata)));
    } finally {
      this.choosing = false;
    }
    if (kata === undefined || resume === undefined) return undefined;

    let settings: ExtensionSettings;
    try {
      settings = this.deps.settings();
    } catch (error) {
      void this.report(toAgentError(error, 'CONFIG'));
      return undefined;
    }
    const abort = new AbortController();
    const bridge = new ApprovalBridge(store, log, () => this.role);
    let resolveDone!: () => void;
    this.active = { abort, bridge, done: new Promise<void>((r) => (resolveDone = r)) };
    this.role = undefined;
    store.dispatch({ type: 'sessionStarting', kata: path.basename(kata), model: settings.model ?? '', provider: settings.provider, maxCycles: settings.maxCycles, at: Date.now(), resume });
    store.flush();
    void this.deps.openPanel();
    log.info(`kata run requested: ${kata} in ${folder.uri.fsPath}`);

    const control = new ControlProtocol(new PortTransport(bridge), { approvalTimeoutMs: settings.approvalTimeoutMs });
    try {
      const summary = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'TDD Agent', cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          progress.report({ message: 'connecting to the model…' });
          const client = await createModelClient(settings, await this.deps.apiKey(), folder.uri.fsPath, process.env, abort.signal, this.deps.extensionPath);
          log.info(`model: ${client.source}`);
          return runKataSession({
            workspace: folder.uri.fsPath,
            kataPath: kata,
            llm: client.llm,
            model: client.model,
            provider: client.provider,
            maxCycles: settings.maxCycles,
            control,
            approvalPolicy: settings.approvalPolicy,
            approvalTimeoutMs: settings.approvalTimeoutMs,
            qualityGates: settings.qualityGates,
            testTimeoutMs: settings.testTimeoutMs,
            mcpServers: settings.mcpServers,
            onMcpServers: (statuses) => this.onMcpServers(statuses),
            ...(settings.agentsDir ? { agentsDir: path.resolve(folder.uri.fsPath, settings.agentsDir) } : {}),
            stashDirty: options.stashDirty,
            resume,
            signal: abort.signal,
            onEvent: (event) => this.onEvent(event, progress),
          });
        },
      );
      this.announce(summary);
      return summary;
    } catch (error) {
      const agentError = toAgentError(error);
      store.dispatch({ type: 'sessionAborted', status: abort.signal.aborted ? 'cancelled' : 'failed', at: Date.now() });
      if (agentError.error_code === 'WORKSPACE_DIRTY' && !options.stashDirty) {
        void this.report(agentError, 'Stash my changes and run').then((choice) => {
          if (choice === 'Stash my changes and run') void this.run({ kata, stashDirty: true, resume });
        });
      } else {
        void this.report(agentError);
      }
      return undefined;
    } finally {
      control.close();
      bridge.close();
      store.flush();
      this.active = undefined;
      resolveDone();
    }
  }

  private onEvent(event: SupervisorEvent, progress: vscode.Progress<{ message?: string }>): void {
    this.deps.store.dispatch({ type: 'supervisor', event, at: Date.now() });
    if (event.type === 'phase_changed') {
      this.role = event.role;
      const max = this.deps.store.state.session?.maxCycles ?? 0;
      progress.report({ message: `cycle ${event.cycle}/${max}: ${PHASE_TEXT[event.phase] ?? event.phase}` });
    } else if (event.type === 'commit_made') {
      this.deps.log.info(`cycle ${event.cycle} committed ${event.sha.slice(0, 8)} ${event.message.split('\n')[0]}`);
    } else if (event.type === 'session_started') {
      this.deps.log.info(`session started on branch ${event.branch} (${event.model} via ${event.provider})`);
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
        const text = `MCP server "${status.name}" is not available; the kata goes on without its tools. ${status.error?.message ?? ''}`.trim();
        this.deps.log.warn(text);
        void vscode.window.showWarningMessage(text);
      }
    }
  }

  private announce(summary: SessionSummary): void {
    const { totals } = summary;
    const text = `Kata "${summary.kata}" ${summary.status.replace('_', ' ')}: ${totals.cycles} cycle(s), ${totals.commits} commit(s), ${totals.tests_passed} test(s) passing on ${summary.branch || 'no branch'}.`;
    this.deps.log.info(text);
    if (summary.status === 'completed' || summary.status === 'max_cycles') {
      void vscode.window.showInformationMessage(text, 'Open panel').then((choice) => choice && this.deps.openPanel());
    } else if (summary.status === 'cancelled') {
      void vscode.window.showInformationMessage(text);
    } else {
      const action = summary.error ? errorAction(summary.error.error_code) : undefined;
      void vscode.window.showErrorMessage(`${text}${summary.error ? ` ${summary.error.message}` : ''}${action ? ` ${action}` : ''}`, 'Open panel').then(
        (choice) => choice && this.deps.openPanel(),
      );
    }
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
