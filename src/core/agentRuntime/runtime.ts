import { toAgentError } from '../errors/agentError';
import { createLlmClient, resolveProvider, type LlmClientOptions, type ProviderSettings, type ResolvedProvider } from '../llm';
import type { LlmClient } from '../llm/types';
import { PerformanceMetrics } from '../metrics/performanceMetrics';
import type { BaseAgentOptions } from './agentOptions';
import type { BaseAgent } from './baseAgent';

/** Options of {@link createAgentRuntime}. */
export interface AgentRuntimeOptions {
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Client timeouts and retries. */
  client?: LlmClientOptions;
  /** Shared metrics (default: a new one). */
  metrics?: PerformanceMetrics;
}

/** A resolved provider and client, ready to build agents that share them and one metrics object. */
export interface AgentRuntime {
  provider: ResolvedProvider;
  llm: LlmClient;
  metrics: PerformanceMetrics;
  /**
   * Builds an agent with this runtime's client and model (unless `options.config.model` is set) and the
   * shared metrics: `runtime.create(QAAgent)`, `runtime.create(ReActAgent, { toolbox })`.
   */
  create<A extends BaseAgent, O extends BaseAgentOptions>(
    ctor: new (options: O) => A,
    options?: Omit<O, 'llm'> & { llm?: LlmClient },
  ): A;
}

/**
 * Framework initialisation: resolves the provider (explicit settings, OPENAI_API_KEY, a running Ollama, ...)
 * and builds the LlmClient. Nothing configured, a missing key or a stopped Ollama comes back as the
 * provider's AgentError (PROVIDER_NOT_CONFIGURED, CONNECTION, ...) whose message says how to fix it.
 * The time taken is recorded as `frameworkInitMs` in the metrics.
 */
export async function createAgentRuntime(
  settings: ProviderSettings = {},
  options: AgentRuntimeOptions = {},
): Promise<AgentRuntime> {
  const started = performance.now();
  let provider: ResolvedProvider;
  let llm: LlmClient;
  try {
    provider = await resolveProvider(settings, options.env ?? process.env, { signal: options.signal });
    llm = createLlmClient(provider, options.client);
  } catch (e) {
    throw toAgentError(e, 'PROVIDER_NOT_CONFIGURED');
  }
  const metrics = options.metrics ?? new PerformanceMetrics();
  metrics.recordFrameworkInit(performance.now() - started);
  return {
    provider,
    llm,
    metrics,
    create(ctor, agentOptions) {
      const given = (agentOptions ?? {}) as BaseAgentOptions;
      const config = { ...given.config, model: given.config?.model ?? provider.model };
      return new ctor({ ...given, llm: given.llm ?? llm, metrics: given.metrics ?? metrics, config } as never);
    },
  };
}
