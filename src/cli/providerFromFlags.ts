import { createLlmClient, resolveProvider, type ProviderSettings } from '../core/llm';
import type { LlmClient } from '../core/llm/types';
import { RecordingLlmClient, ReplayLlmClient } from '../core/replay';
import { UsageError } from './cliIo';
import { intFlag } from './args';

export interface ProviderFlags {
  provider?: string;
  'base-url'?: string;
  model?: string;
  'ollama-host'?: string;
  cassette?: string;
  record?: string;
  timeout?: string;
}

export interface CliModel {
  llm: LlmClient;
  model: string;
  provider: string;
  /** One line for the progress output: how the provider was chosen. */
  source: string;
}

const PROVIDERS = ['auto', 'openai', 'ollama', 'replay'];

/**
 * Turns flags and environment into a model client. Flags win over OPENAI_API_KEY /
 * OPENAI_BASE_URL / OLLAMA_HOST; `--provider replay --cassette F` plays a recording;
 * `--record F` wraps whichever client was chosen and records it.
 */
export async function modelFromFlags(flags: ProviderFlags, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<CliModel> {
  const provider = flags.provider ?? 'auto';
  if (!PROVIDERS.includes(provider)) throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}, got '${provider}'.`);
  if (provider === 'replay' || (flags.cassette && provider === 'auto')) {
    if (!flags.cassette) throw new UsageError('--provider replay needs --cassette FILE (a session recorded with --record FILE).');
    const llm = await ReplayLlmClient.fromFile(flags.cassette);
    return { llm, model: flags.model ?? 'replay', provider: 'replay', source: `replaying ${flags.cassette}` };
  }
  const timeoutMs = intFlag(flags.timeout, 'timeout');
  const settings: ProviderSettings = {
    provider: provider as ProviderSettings['provider'],
    baseURL: flags['base-url'],
    model: flags.model,
    ollamaHost: flags['ollama-host'],
  };
  const resolved = await resolveProvider(settings, env, { signal });
  let llm = createLlmClient(resolved, timeoutMs ? { timeoutMs } : {});
  if (flags.record) llm = new RecordingLlmClient(llm, flags.record, `recorded with ${resolved.provider} ${resolved.model}`);
  return { llm, model: resolved.model, provider: resolved.provider, source: resolved.source };
}
