import { createLlmClient, type LlmClient, type ProviderSettings, resolveProvider } from '../core';
import { CASSETTE_MAX_BYTES, parseCassette, RecordingLlmClient, ReplayLlmClient } from '../core/testingApi';
import { UsageError } from './cliIo';
import { intFlag } from './args';
import { readFlagFile } from './flagFile';

/** The provider flags of a command (`PROVIDER_OPTIONS` in args.ts), as parsed. */
export interface ProviderFlags {
  provider?: string;
  'base-url'?: string;
  model?: string;
  'ollama-host'?: string;
  cassette?: string;
  record?: string;
  timeout?: string;
}

/** The model client a command uses, and how it was chosen. */
export interface CliModel {
  llm: LlmClient;
  model: string;
  provider: string;
  /** One line for the progress output: how the provider was chosen. */
  source: string;
  /**
   * `--timeout MS`: the limit of one model call. Agents set their own per-call timeout (default 120 s),
   * which wins over the client's default, so commands must hand this to their agents' `timeoutMs`.
   */
  timeoutMs?: number;
}

/** The longest `--timeout` an agent accepts (its `timeoutMs` setting's maximum: one hour). */
export const MAX_MODEL_TIMEOUT_MS = 3_600_000;

const PROVIDERS = ['auto', 'openai', 'ollama', 'replay'];

/**
 * Turns flags and environment into a model client. Flags win over OPENAI_API_KEY /
 * OPENAI_BASE_URL / OLLAMA_HOST; `--provider replay --cassette F` plays a recording;
 * `--record F` wraps whichever client was chosen and records it. `--timeout MS` becomes the client's
 * default and is returned as `timeoutMs` for the agents' own per-call setting.
 */
export async function modelFromFlags(flags: ProviderFlags, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<CliModel> {
  const provider = flags.provider ?? 'auto';
  if (!PROVIDERS.includes(provider))
    throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}, got '${provider}'.`);
  checkProviderFlags(flags);
  const timeoutMs = intFlag(flags.timeout, 'timeout');
  if (timeoutMs !== undefined && timeoutMs > MAX_MODEL_TIMEOUT_MS)
    throw new UsageError(`--timeout is in milliseconds and at most ${MAX_MODEL_TIMEOUT_MS} (one hour), got '${flags.timeout}'.`);
  if (provider === 'replay' || (flags.cassette && provider === 'auto')) {
    if (!flags.cassette) throw new UsageError('--provider replay needs --cassette FILE (a session recorded with --record FILE).');
    const cassette = parseCassette(await readFlagFile('--cassette', flags.cassette, CASSETTE_MAX_BYTES), flags.cassette);
    const llm = new ReplayLlmClient(cassette, flags.cassette);
    // The model the recording answered with ("replay test-model"), not "replay replay".
    const recorded = cassette.exchanges.find((e) => e.response.model)?.response.model;
    const model = flags.model ?? recorded ?? 'recorded model';
    return { llm, model, provider: 'replay', source: `replaying ${flags.cassette}`, timeoutMs };
  }
  const settings: ProviderSettings = {
    provider: provider as ProviderSettings['provider'],
    baseURL: flags['base-url'],
    model: flags.model,
    ollamaHost: flags['ollama-host'],
  };
  const resolved = await resolveProvider(settings, env, { signal });
  let llm = createLlmClient(resolved, timeoutMs ? { timeoutMs } : {});
  if (flags.record) llm = new RecordingLlmClient(llm, flags.record, `recorded with ${resolved.provider} ${resolved.model}`);
  return { llm, model: resolved.model, provider: resolved.provider, source: resolved.source, timeoutMs };
}

/**
 * Refuses provider flags that contradict each other, naming both, instead of letting one silently win: each of
 * `--base-url`, `--ollama-host`, `--cassette` and `--record` belongs to one way of reaching a model.
 */
export function checkProviderFlags(flags: ProviderFlags): void {
  const provider = flags.provider ?? 'auto';
  const baseURL = flags['base-url'];
  const ollamaHost = flags['ollama-host'];
  const replay = provider === 'replay' || (provider === 'auto' && flags.cassette !== undefined);
  if (provider === 'ollama' && baseURL !== undefined) {
    // What a person means is "the Ollama at that address": say which flag that is, do not guess.
    const host = baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
    throw new UsageError(
      `--provider ollama and --base-url conflict: --base-url is the address of an OpenAI-compatible server, Ollama's is --ollama-host (or OLLAMA_HOST). ` +
        `For the Ollama there: --provider ollama --ollama-host ${host}; for an OpenAI-compatible server: --base-url without --provider ollama.`,
    );
  }
  if (ollamaHost !== undefined && (provider === 'openai' || provider === 'replay' || baseURL !== undefined || replay)) {
    const other = provider !== 'auto' ? `--provider ${provider}` : baseURL !== undefined ? '--base-url' : '--cassette';
    throw new UsageError(`${other} and --ollama-host conflict: --ollama-host is only used to reach Ollama. Give one of them.`);
  }
  if (replay && baseURL !== undefined) {
    throw new UsageError(
      `${provider === 'replay' ? '--provider replay' : '--cassette'} and --base-url conflict: a replay answers from the cassette and reaches no server. Give one of them.`,
    );
  }
  if (flags.cassette !== undefined && (provider === 'openai' || provider === 'ollama')) {
    throw new UsageError(
      `--provider ${provider} and --cassette conflict: a cassette is only played with --provider replay. Give one of them.`,
    );
  }
  if (replay && flags.record !== undefined) {
    throw new UsageError(
      `${provider === 'replay' ? '--provider replay' : '--cassette'} and --record conflict: a replayed session is already recorded. Record with a real provider.`,
    );
  }
}
