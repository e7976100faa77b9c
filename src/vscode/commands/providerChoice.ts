/**
 * The first-run fixes for the model: choose a provider (OpenAI with a key, an OpenAI-compatible server by its base
 * URL, or Ollama by its host) and pick a model from the ones the server serves. Choices go to the person's user
 * settings (a repository's settings file must not choose where the code is sent).
 */
import * as vscode from 'vscode';
import { servedModels } from '../../core';
import { SETTINGS_SECTION, configurationReader } from '../config/settings';

/** The provider choices of the quick pick (tests and the e2e specs pick them by label). */
export const PROVIDER_PICKS = {
  openai: 'OpenAI',
  compatible: 'An OpenAI-compatible server',
  ollama: 'Ollama',
} as const;

/** What the choices need from the host. */
export interface ProviderChoiceDeps {
  /** The stored API key (SecretStorage). */
  apiKey(): Promise<string | undefined>;
  /** Asks for the API key (the Set API key command). */
  setApiKey(): Thenable<unknown>;
  log: vscode.LogOutputChannel;
}

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION);
}

/** A setting as the extension reads it: where the key goes from the user settings alone (never a workspace's). */
function setting(key: string): string | undefined {
  const value = configurationReader(config())(key);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

async function setUser(key: string, value: unknown): Promise<void> {
  await config().update(key, value, vscode.ConfigurationTarget.Global);
}

/** Asks which provider to use and writes it (with its base URL or host) to the user settings; then a model is picked where it can be. */
export async function chooseProvider(deps: ProviderChoiceDeps): Promise<void> {
  const pick = await vscode.window.showQuickPick(
    [
      {
        label: PROVIDER_PICKS.openai,
        detail: 'api.openai.com with your API key (kept in VS Code’s secret storage)',
        id: 'openai' as const,
      },
      {
        label: PROVIDER_PICKS.compatible,
        detail: 'vLLM, LM Studio, llama.cpp, a proxy: its base URL, e.g. http://127.0.0.1:8000/v1',
        id: 'compatible' as const,
      },
      { label: PROVIDER_PICKS.ollama, detail: 'A running Ollama: its host, e.g. http://127.0.0.1:11434', id: 'ollama' as const },
    ],
    { title: 'TDD Agent: where the model runs', ignoreFocusOut: true },
  );
  if (!pick) return;
  if (pick.id === 'openai') {
    await setUser('provider', 'openai');
    await setUser('baseUrl', undefined);
    deps.log.info('provider set to OpenAI (user settings)');
    if (!(await deps.apiKey())) await deps.setApiKey();
    return;
  }
  if (pick.id === 'compatible') {
    const url = await vscode.window.showInputBox({
      title: 'TDD Agent: base URL of the OpenAI-compatible server',
      value: setting('baseUrl') ?? 'http://127.0.0.1:8000/v1',
      ignoreFocusOut: true,
      validateInput: (value) =>
        /^https?:\/\/\S+$/i.test(value.trim()) ? undefined : 'An http(s) URL, e.g. http://127.0.0.1:8000/v1',
    });
    if (url === undefined) return;
    await setUser('provider', 'openai');
    await setUser('baseUrl', url.trim().replace(/\/+$/, ''));
    deps.log.info(`provider set to the OpenAI-compatible server at ${url.trim()} (user settings)`);
  } else {
    const host = await vscode.window.showInputBox({
      title: 'TDD Agent: where Ollama runs',
      value: setting('ollamaHost') ?? 'http://127.0.0.1:11434',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'host:port or an http(s) URL' : undefined),
    });
    if (host === undefined) return;
    await setUser('provider', 'ollama');
    await setUser('ollamaHost', host.trim());
    deps.log.info(`provider set to Ollama at ${host.trim()} (user settings)`);
  }
  await pickModel(deps);
}

/**
 * Lists the models the configured server serves and writes the one picked to `tddAgent.model` (the user settings, or
 * the workspace's when the workspace sets it).
 * A server that does not answer is said so, with the way to choose another.
 */
export async function pickModel(deps: ProviderChoiceDeps): Promise<void> {
  const c = config();
  // The key goes only where the person's own settings say: a workspace's provider, base URL or host is not read.
  const served = await servedModels({
    provider: setting('provider') === 'ollama' ? 'ollama' : 'openai',
    baseURL: setting('baseUrl'),
    apiKey: await deps.apiKey(),
    ollamaHost: setting('ollamaHost'),
  });
  if (served.models.length === 0) {
    const choice = await vscode.window.showWarningMessage(
      `TDD Agent: the model server at ${served.server} listed no models (it does not answer, or refused the key).`,
      'Choose provider or base URL',
    );
    if (choice) await chooseProvider(deps);
    return;
  }
  const current = c.get<string>('model');
  const pick = await vscode.window.showQuickPick(
    served.models.map((id) => ({ label: id, description: id === current ? 'current' : undefined })),
    { title: `TDD Agent: a model served at ${served.server}`, ignoreFocusOut: true },
  );
  if (!pick) return;
  // Where the model is set now is where it changes: a workspace's own value would otherwise still win.
  const values = c.inspect<string>('model');
  const target =
    values?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : values?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await c.update('model', pick.label, target);
  deps.log.info(`model set to ${pick.label} (${target === vscode.ConfigurationTarget.Global ? 'user' : 'workspace'} settings)`);
}
