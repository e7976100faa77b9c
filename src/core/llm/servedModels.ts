/**
 * Which models the configured server serves, for a person to pick one (the VS Code model picker, the first-run card):
 * Ollama's `/api/tags`, or an OpenAI-compatible server's `/models`. Never throws: a server that does not answer gives
 * no models and says where it was asked.
 */
import { isOfficialOpenAI, safeBaseURL } from './openaiClient';
import {
  clearProviderDetectionCache,
  listModels,
  normalizeOllamaHost,
  probeOllama,
  type ProviderSettings,
} from './providerDetection';

/** The served models and where they were asked for (a base URL without credentials). */
export interface ServedModels {
  /** Where the list came from, for a person to read. */
  server: string;
  provider: 'openai' | 'ollama';
  models: string[];
  /** True for api.openai.com (its list holds every model of the account, most of them not chat models). */
  official: boolean;
}

const LIST_TIMEOUT_MS = 3_000;

/** Lists the models of the server the settings point at (Ollama when `provider` is `ollama`, else the OpenAI-compatible one). */
export async function servedModels(
  settings: ProviderSettings,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = LIST_TIMEOUT_MS,
): Promise<ServedModels> {
  if (settings.provider === 'ollama') {
    const host = normalizeOllamaHost(settings.ollamaHost?.trim() || env.OLLAMA_HOST);
    clearProviderDetectionCache(); // asked again: a model pulled since the last probe is listed
    const probe = await probeOllama(host, timeoutMs);
    return { server: host, provider: 'ollama', models: probe.models, official: false };
  }
  const raw = (settings.baseURL?.trim() || env.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1').replace(/\/+$/, '');
  const apiKey = settings.apiKey?.trim() || env.OPENAI_API_KEY?.trim() || undefined;
  const models = await listModels(raw, apiKey, timeoutMs, undefined);
  const server = safeBaseURL(raw);
  return { server, provider: 'openai', models, official: isOfficialOpenAI(server) };
}
