import { settleOnce } from '../async/settleOnce';
import { AgentError } from '../errors/agentError';
import { getLogger } from '../logging/logger';
import { registerSecret } from '../security/redact';
import { createOpenAIClient, isOfficialOpenAI, safeBaseURL, type OpenAIClientOptions } from './openaiClient';
import type { LlmClient, ProviderName } from './types';

/** What the user configured (CLI flags, VS Code settings); everything optional. */
export interface ProviderSettings {
  provider?: 'auto' | 'openai' | 'ollama' | 'replay';
  model?: string;
  baseURL?: string;
  apiKey?: string;
  ollamaHost?: string;
}

/** The provider a session will use, and one line saying how that was decided. */
export interface ResolvedProvider {
  provider: ProviderName;
  baseURL: string;
  model: string;
  apiKey?: string;
  /** One line: how it was decided (never contains the key). */
  source: string;
}

/** Options of {@link resolveProvider}. */
export interface ResolveProviderOptions {
  signal?: AbortSignal;
  /** Timeout of the Ollama / model-list probe in ms (at most 300, the default). */
  probeTimeoutMs?: number;
}

/** Options of {@link createLlmClient}: the client's timeouts and retries. */
export type LlmClientOptions = Omit<OpenAIClientOptions, 'baseURL' | 'apiKey' | 'provider'>;

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';
const OLLAMA_DEFAULT_HOST = 'http://127.0.0.1:11434';
const MAX_PROBE_MS = 300;
const log = getLogger('llm.provider');

/** The one error for "nothing configured": it names every way out. */
export const HOW_TO_CONFIGURE =
  'Configure a model provider in one of these ways: ' +
  'set OPENAI_API_KEY (OpenAI; add OPENAI_BASE_URL for another OpenAI-compatible server); ' +
  'pass --base-url <url> for any OpenAI-compatible server (vLLM, LM Studio, ...); ' +
  `start Ollama ('ollama serve', probed at ${OLLAMA_DEFAULT_HOST}) or set OLLAMA_HOST to where it runs; ` +
  "in VS Code, run the 'Set API key' command; " +
  'or replay a recorded session with --provider replay and a cassette.';

/**
 * Decides which model provider to use.
 *
 * 1. Explicit settings win: `provider` openai / ollama / replay, or a `baseURL` or `apiKey`
 *    (an OpenAI-compatible server).
 * 2. `OPENAI_API_KEY` → OpenAI (also when Ollama runs), at `OPENAI_BASE_URL` if set;
 *    `OPENAI_BASE_URL` alone → that OpenAI-compatible server without a key.
 * 3. An Ollama answering `/api/tags` at `ollamaHost` / `OLLAMA_HOST` / 127.0.0.1:11434
 *    (probe ≤ 300 ms, cached per host for the process) → Ollama with the configured model
 *    or the first one it lists.
 * 4. Otherwise one PROVIDER_NOT_CONFIGURED error naming every way to configure one.
 *
 * Without a configured model, an OpenAI-compatible server other than api.openai.com is
 * asked for `/models` and its first model is used.
 */
export async function resolveProvider(
  settings: ProviderSettings,
  env: NodeJS.ProcessEnv = process.env,
  options: ResolveProviderOptions = {},
): Promise<ResolvedProvider> {
  const probeMs = Math.min(MAX_PROBE_MS, Math.max(1, Math.round(options.probeTimeoutMs ?? MAX_PROBE_MS)));
  const model = nonEmpty(settings.model);
  const settingsKey = nonEmpty(settings.apiKey);
  const envKey = nonEmpty(env.OPENAI_API_KEY);
  const envBaseURL = nonEmpty(env.OPENAI_BASE_URL);
  registerSecret(settingsKey);
  registerSecret(envKey);
  const mode = settings.provider ?? 'auto';
  if (!['auto', 'openai', 'ollama', 'replay'].includes(mode)) {
    throw new AgentError('CONFIG', `Unknown provider '${String(mode)}'. Use one of: auto, openai, ollama, replay.`, {
      provider: String(mode),
    });
  }
  checkAborted(options.signal);
  const inputs: DetectionInputs = { settings, env, probeMs, signal: options.signal };

  let resolved: ResolvedProvider;
  if (mode === 'replay') {
    resolved = {
      provider: 'replay',
      baseURL: nonEmpty(settings.baseURL) ?? '',
      model: model ?? 'replay',
      source: 'provider replay chosen explicitly',
    };
  } else if (mode === 'ollama') {
    resolved = await resolveOllama(inputs, 'provider ollama chosen explicitly');
  } else if (mode === 'openai' || nonEmpty(settings.baseURL) || settingsKey) {
    const why =
      mode === 'openai'
        ? 'provider openai chosen explicitly'
        : nonEmpty(settings.baseURL)
          ? 'base URL given explicitly'
          : 'API key given explicitly';
    resolved = await resolveOpenAI(inputs, why);
  } else if (envKey) {
    resolved = await resolveOpenAI(inputs, 'OPENAI_API_KEY is set');
  } else if (envBaseURL) {
    resolved = await resolveOpenAI(inputs, 'OPENAI_BASE_URL is set');
  } else {
    const host = ollamaHost(settings, env);
    const probe = await probeOllama(host, probeMs, options.signal);
    if (!probe.reachable) {
      throw new AgentError(
        'PROVIDER_NOT_CONFIGURED',
        `No model provider is configured, and no Ollama answered at ${host}. ${HOW_TO_CONFIGURE}`,
        {
          ollamaHost: host,
          checked: ['settings', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', `Ollama at ${host}`],
        },
      );
    }
    resolved = ollamaResult(host, probe.models, model, undefined, 'no OpenAI key or base URL configured; Ollama answered');
  }
  log.info('model provider resolved', {
    provider: resolved.provider,
    baseURL: resolved.baseURL ? safeBaseURL(resolved.baseURL) : '',
    model: resolved.model,
    source: resolved.source,
  });
  return resolved;
}

/**
 * Builds the client for a resolved provider. `replay` needs a cassette, which this
 * function does not have: it throws CONFIG (the replay client is created elsewhere).
 */
export function createLlmClient(resolved: ResolvedProvider, options: LlmClientOptions = {}): LlmClient {
  if (resolved.provider === 'replay') {
    throw new AgentError(
      'CONFIG',
      'The replay provider needs a cassette: pass --cassette <file> (a recorded session) to replay model answers.',
      {
        provider: 'replay',
      },
    );
  }
  return createOpenAIClient({ ...options, baseURL: resolved.baseURL, apiKey: resolved.apiKey, provider: resolved.provider });
}

/** What every resolution step looks at. */
interface DetectionInputs {
  settings: ProviderSettings;
  env: NodeJS.ProcessEnv;
  probeMs: number;
  signal: AbortSignal | undefined;
}

async function resolveOpenAI({ settings, env, probeMs, signal }: DetectionInputs, why: string): Promise<ResolvedProvider> {
  const fromSettings = nonEmpty(settings.baseURL);
  const fromEnv = nonEmpty(env.OPENAI_BASE_URL);
  const rawBaseURL = (fromSettings ?? fromEnv ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const baseURL = safeBaseURL(rawBaseURL);
  const apiKey = nonEmpty(settings.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);
  const official = isOfficialOpenAI(baseURL);
  if (official && !apiKey) {
    throw new AgentError('PROVIDER_NOT_CONFIGURED', `OpenAI needs an API key (${why}). ${HOW_TO_CONFIGURE}`, {
      provider: 'openai',
      baseURL,
    });
  }
  const where = `at ${baseURL}${fromEnv && !fromSettings ? ' (OPENAI_BASE_URL)' : ''}`;
  let model = nonEmpty(settings.model);
  let modelWhy = 'configured model';
  if (!model && !official) {
    const listed = await listModels(rawBaseURL, apiKey, probeMs, signal);
    if (listed[0]) {
      model = listed[0];
      modelWhy = 'first model the server lists';
    }
  }
  if (!model) {
    model = OPENAI_DEFAULT_MODEL;
    modelWhy = 'default model';
  }
  return {
    provider: 'openai',
    baseURL: rawBaseURL,
    model,
    ...(apiKey ? { apiKey } : {}),
    source: `${why} → OpenAI-compatible ${where}, ${modelWhy} ${model}`,
  };
}

async function resolveOllama({ settings, env, probeMs, signal }: DetectionInputs, why: string): Promise<ResolvedProvider> {
  const host = ollamaHost(settings, env);
  const model = nonEmpty(settings.model);
  const baseURL = nonEmpty(settings.baseURL);
  // With a model there is nothing to ask Ollama: a wrong host or model is a clear error on the first call.
  if (model) return ollamaResult(host, [], model, baseURL, why);
  const probe = await probeOllama(host, probeMs, signal);
  if (!probe.reachable) {
    throw new AgentError(
      'PROVIDER_NOT_CONFIGURED',
      `Ollama is not answering at ${host}. Start it with 'ollama serve', or set OLLAMA_HOST to where it runs. ${HOW_TO_CONFIGURE}`,
      {
        provider: 'ollama',
        ollamaHost: host,
      },
    );
  }
  return ollamaResult(host, probe.models, undefined, baseURL, why);
}

function ollamaResult(
  host: string,
  models: string[],
  configured: string | undefined,
  baseURL: string | undefined,
  why: string,
): ResolvedProvider {
  const base = baseURL ? baseURL.replace(/\/+$/, '') : `${host}/v1`;
  if (configured)
    return {
      provider: 'ollama',
      baseURL: base,
      model: configured,
      source: `${why} → Ollama at ${host}, configured model ${configured}`,
    };
  const first = models[0];
  if (!first) {
    throw new AgentError(
      'PROVIDER_NOT_CONFIGURED',
      `Ollama at ${host} has no models yet. Pull one, e.g. 'ollama pull llama3.2', or configure another provider.`,
      {
        provider: 'ollama',
        ollamaHost: host,
      },
    );
  }
  return { provider: 'ollama', baseURL: base, model: first, source: `${why} → Ollama at ${host}, first listed model ${first}` };
}

/** The Ollama host as a URL: accepts `host`, `host:port`, `http(s)://host[:port]` like Ollama itself. */
export function normalizeOllamaHost(raw: string | undefined): string {
  const value = nonEmpty(raw);
  if (!value) return OLLAMA_DEFAULT_HOST;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new AgentError(
      'CONFIG',
      `OLLAMA_HOST '${value.slice(0, 200)}' is not a valid host. Use host:port, e.g. 127.0.0.1:11434.`,
      { ollamaHost: value.slice(0, 200) },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AgentError('CONFIG', `OLLAMA_HOST must use http or https, not '${url.protocol}'.`, {
      ollamaHost: value.slice(0, 200),
    });
  }
  // Ollama listens on 0.0.0.0 when told to; clients connect to loopback.
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  const explicitPort = /^[a-z][a-z0-9+.-]*:\/\/[^/]*:\d+(?:\/|$)/i.test(withScheme);
  if (!explicitPort && url.protocol === 'http:') url.port = '11434';
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

function ollamaHost(settings: ProviderSettings, env: NodeJS.ProcessEnv): string {
  return normalizeOllamaHost(nonEmpty(settings.ollamaHost) ?? nonEmpty(env.OLLAMA_HOST));
}

/** What the Ollama probe found at a host. */
export interface OllamaProbe {
  reachable: boolean;
  models: string[];
}

const probeCache = new Map<string, Promise<OllamaProbe>>();

/** Forgets every cached Ollama probe (tests; or after the user starts Ollama). */
export function clearProviderDetectionCache(): void {
  probeCache.clear();
}

/**
 * Asks `GET {host}/api/tags` whether an Ollama runs there and which models it has. The
 * answer is cached per host for the process; the caller's abort only stops its own wait.
 */
export function probeOllama(host: string, timeoutMs: number = MAX_PROBE_MS, signal?: AbortSignal): Promise<OllamaProbe> {
  checkAborted(signal);
  let probe = probeCache.get(host);
  if (!probe) {
    probe = runOllamaProbe(host, Math.min(MAX_PROBE_MS, timeoutMs));
    probeCache.set(host, probe);
  }
  return raceAbort(probe, signal);
}

async function runOllamaProbe(host: string, timeoutMs: number): Promise<OllamaProbe> {
  const body = await fetchJson(`${host}/api/tags`, undefined, timeoutMs);
  if (!body || typeof body !== 'object' || !Array.isArray((body as { models?: unknown }).models)) {
    log.debug('no Ollama at host', { host });
    return { reachable: false, models: [] };
  }
  const models = (body as { models: unknown[] }).models
    .map((m) =>
      m && typeof m === 'object'
        ? ((m as { name?: unknown; model?: unknown }).name ?? (m as { model?: unknown }).model)
        : undefined,
    )
    .filter((name): name is string => typeof name === 'string' && name.length > 0);
  log.debug('Ollama answered', { host, models: models.length });
  return { reachable: true, models };
}

/** `GET {baseURL}/models` of an OpenAI-compatible server; [] when it does not answer in time. */
export async function listModels(
  baseURL: string,
  apiKey: string | undefined,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const body = await raceAbort(fetchJson(`${baseURL}/models`, apiKey, timeoutMs), signal);
  const data = body && typeof body === 'object' ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return [];
  return data
    .map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && id.length > 0);
}

/** GET a JSON document; undefined on any failure (unreachable, timeout, not 2xx, not JSON). */
async function fetchJson(url: string, apiKey: string | undefined, timeoutMs: number): Promise<unknown> {
  try {
    const response = await fetch(url, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return undefined;
    }
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  checkAborted(signal);
  return new Promise<T>((resolve, reject) => {
    const wait = settleOnce({ signal, onAbort: (w) => w.settle(() => reject(cancelled())) });
    promise.then(
      (value) => wait.settle(() => resolve(value)),
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes the original rejection through unchanged
      (error: unknown) => wait.settle(() => reject(error)),
    );
  });
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled();
}

function cancelled(): AgentError {
  return new AgentError('CANCELLED', 'Provider detection was cancelled.', {});
}

function nonEmpty(value: string | undefined | null): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
