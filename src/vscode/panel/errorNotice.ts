/**
 * One way to tell a person about an error, once: an error card in the panel with the buttons that fix it, a line in
 * the output channel, and — only while the panel is hidden — an error notification with the same buttons.
 */
import * as vscode from 'vscode';
import { PANEL_COMMAND_LABELS, type PanelCommandName } from '../../shared/panelProtocol';
import { errorAction, errorFixes, SANDBOX_OFF, vscodeErrorMessage } from './errorActions';
import type { PanelStore } from './panelStore';

/** An error as the core or the host reports it (`details` of an AgentError pick the buttons and the sandbox's fix). */
export interface NoticeError {
  error_code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The action line of `error`: the sandbox's own diagnosis when it has one, else the code's line. */
function actionLine(error: NoticeError): string | undefined {
  const cause = error.details?.cause;
  if (error.error_code === 'SANDBOX_UNAVAILABLE' && typeof cause === 'string')
    return `${cause} Show the fix says what to change on this machine; or, ${SANDBOX_OFF}.`;
  return errorAction(error.error_code, error.details);
}

/**
 * Reports `error` to the panel and the log, and as a notification while the panel is hidden. `buttons` are extra
 * choices of the notification; resolves to the one chosen (a fix button runs its command and resolves to undefined).
 * `run` carries out a fix (the host's handler of the panel's command buttons).
 */
export async function showErrorNotice(
  store: PanelStore,
  log: vscode.LogOutputChannel,
  error: NoticeError,
  ...buttons: string[]
): Promise<string | undefined> {
  const action = actionLine(error);
  store.dispatch({
    type: 'error',
    error: { error_code: error.error_code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    at: Date.now(),
    ...(action ? { action } : {}),
  });
  log.warn(`${error.error_code}: ${error.message}`); // the log keeps the core's full wording
  if (buttons.length === 0 && (await store.isPanelShown())) return undefined; // the card says it, with its buttons
  const fixes = errorFixes(error.error_code, error.details);
  const labels = fixes.map((fix) => PANEL_COMMAND_LABELS[fix]);
  const choice = await vscode.window.showErrorMessage(
    `${vscodeErrorMessage(error)}${action ? ` ${action}` : ''}`,
    ...buttons,
    ...labels,
  );
  const fix = fixes.find((f) => PANEL_COMMAND_LABELS[f] === choice);
  if (fix) {
    void runPanelCommand(fix);
    return undefined;
  }
  return choice;
}

/** Where the panel's command buttons go: set by the host (the same handler the panel's buttons reach). */
let panelCommandRunner: ((name: PanelCommandName) => unknown) | undefined;

/** The host registers how a fix button is carried out. */
export function setPanelCommandRunner(run: ((name: PanelCommandName) => unknown) | undefined): void {
  panelCommandRunner = run;
}

function runPanelCommand(name: PanelCommandName): unknown {
  return panelCommandRunner?.(name);
}
