/**
 * Builds the model client a command uses from the validated settings and the API key kept in
 * SecretStorage: the core's provider detection, the OpenAI-compatible client, or a replay cassette.
 * No `vscode` import.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { AgentError, createLlmClient, type LlmClient, registerSecret, resolveProvider } from '../../core';
import { ReplayLlmClient } from '../../core/testingApi';
import type { ExtensionSettings } from './settings';

/** A ready model client and what it talks to. */
export interface ModelClient {
  llm: LlmClient;
  model: string;
  provider: string;
  /** One line: how the provider was chosen (never contains the key). */
  source: string;
}

/**
 * Where a configured cassette is: absolute as given; a relative path in the workspace, else in the
 * extension's own folder (the bundled demo `katas/cassettes/fizzbuzz-javascript.json`).
 */
export function cassettePath(cassette: string, workspaceRoot: string | undefined, extensionRoot: string | undefined): string {
  if (path.isAbsolute(cassette)) return cassette;
  const inWorkspace = workspaceRoot ? path.join(workspaceRoot, cassette) : undefined;
  if (inWorkspace && existsSync(inWorkspace)) return inWorkspace;
  const inExtension = extensionRoot ? path.join(extensionRoot, cassette) : undefined;
  if (inExtension && existsSync(inExtension)) return inExtension;
  return inWorkspace ?? cassette;
}

/**
 * Resolves the provider and creates the client. `workspaceRoot` (then `extensionRoot`) anchors a relative cassette path.
 * @throws AgentError PROVIDER_NOT_CONFIGURED / CONFIG with what to do next.
 */
export async function createModelClient(
  settings: ExtensionSettings,
  apiKey: string | undefined,
  workspaceRoot: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  signal?: AbortSignal,
  extensionRoot?: string,
): Promise<ModelClient> {
  registerSecret(apiKey);
  if (settings.provider === 'replay') {
    if (!settings.cassette) {
      throw new AgentError(
        'CONFIG',
        "The replay provider needs a cassette: set 'tddAgent.cassette' to a recorded session file.",
        { setting: 'tddAgent.cassette' },
      );
    }
    const file = cassettePath(settings.cassette, workspaceRoot, extensionRoot);
    const llm = await ReplayLlmClient.fromFile(file);
    return { llm, model: settings.model ?? 'replay', provider: 'replay', source: `replaying ${path.basename(file)}` };
  }
  const resolved = await resolveProvider(
    { provider: settings.provider, model: settings.model, baseURL: settings.baseUrl, apiKey, ollamaHost: settings.ollamaHost },
    env,
    { signal },
  );
  return { llm: createLlmClient(resolved), model: resolved.model, provider: resolved.provider, source: resolved.source };
}
