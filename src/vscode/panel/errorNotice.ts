/**
 * One way to tell a person about an error: an error card in the panel, a line in the output channel,
 * and an error notification with what to do — plus, where one exists, a button that does it.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../commands/commandIds';
import { SETTINGS_SECTION } from '../config/settings';
import { errorAction, vscodeErrorMessage } from './errorActions';
import type { PanelStore } from './panelStore';

/** Buttons that fix the problem in one click, by error code. */
const FIX_BUTTONS: Readonly<Record<string, { label: string; command: [string, ...unknown[]] }>> = {
  PROVIDER_NOT_CONFIGURED: { label: 'Set API key', command: [COMMANDS.setApiKey] },
  AUTH: { label: 'Set API key', command: [COMMANDS.setApiKey] },
  CONFIG: { label: 'Open settings', command: ['workbench.action.openSettings', SETTINGS_SECTION] },
  CONNECTION: { label: 'Open settings', command: ['workbench.action.openSettings', SETTINGS_SECTION] },
  UNTRUSTED_WORKSPACE: { label: 'Manage Workspace Trust', command: ['workbench.trust.manage'] },
  SANDBOX_UNAVAILABLE: { label: 'Open setting', command: ['workbench.action.openSettings', `${SETTINGS_SECTION}.sandbox`] },
};

/**
 * Reports `error` to the panel, the log and a notification. `buttons` are extra choices; resolves to the
 * one chosen (a fix button runs its command and resolves to undefined).
 */
export async function showErrorNotice(
  store: PanelStore,
  log: vscode.LogOutputChannel,
  error: { error_code: string; message: string },
  ...buttons: string[]
): Promise<string | undefined> {
  store.dispatch({ type: 'error', error: { error_code: error.error_code, message: error.message }, at: Date.now() });
  log.warn(`${error.error_code}: ${error.message}`); // the log keeps the core's full wording
  const action = errorAction(error.error_code);
  const fix = FIX_BUTTONS[error.error_code];
  const choice = await vscode.window.showErrorMessage(
    `${vscodeErrorMessage(error)}${action ? ` ${action}` : ''}`,
    ...buttons,
    ...(fix ? [fix.label] : []),
  );
  if (fix && choice === fix.label) {
    void vscode.commands.executeCommand(...fix.command);
    return undefined;
  }
  return choice;
}
