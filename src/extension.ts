/** Entry of the extension bundle (`dist/extension.js`): VS Code calls `activate` on a command or when the panel opens. */
import type * as vscode from 'vscode';
import { activateExtension, deactivateExtension, type TddAgentApi } from './vscode/activation';

/** Registers the commands and the panel; returns the extension's API (activation time, host). */
export function activate(context: vscode.ExtensionContext): TddAgentApi {
  return activateExtension(context);
}

/** Nothing to do beyond what VS Code disposes. */
export function deactivate(): void {
  deactivateExtension();
}
