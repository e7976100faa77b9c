/** The API key lives only in SecretStorage: set and cleared by commands, never in settings, logs or the panel. */
import * as vscode from 'vscode';
import { registerSecret } from '../../core';
import { API_KEY_SECRET } from './commandIds';

/** Reads the stored key (registered with the redactor so it can never be logged). */
export async function readApiKey(secrets: vscode.SecretStorage): Promise<string | undefined> {
  const key = await secrets.get(API_KEY_SECRET);
  registerSecret(key);
  return key && key.trim() !== '' ? key.trim() : undefined;
}

/** Asks for the key in a password box and stores it. Resolves to true when a key was stored. */
export async function setApiKey(secrets: vscode.SecretStorage, log: vscode.LogOutputChannel): Promise<boolean> {
  const key = await vscode.window.showInputBox({
    title: 'TDD Agent: Set API key',
    prompt: "API key of the OpenAI-compatible provider. It is kept in VS Code's secret storage only.",
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) =>
      value.trim() === ''
        ? 'Enter a key, or press Escape to cancel.'
        : /\s/.test(value.trim())
          ? 'A key has no spaces.'
          : undefined,
  });
  if (key === undefined || key.trim() === '') return false;
  registerSecret(key.trim());
  await secrets.store(API_KEY_SECRET, key.trim());
  log.info('API key stored in secret storage');
  void vscode.window.showInformationMessage('TDD Agent: API key saved in secret storage.');
  return true;
}

/** Deletes the stored key. */
export async function clearApiKey(secrets: vscode.SecretStorage, log: vscode.LogOutputChannel): Promise<void> {
  await secrets.delete(API_KEY_SECRET);
  log.info('API key removed from secret storage');
  void vscode.window.showInformationMessage('TDD Agent: API key removed.');
}
