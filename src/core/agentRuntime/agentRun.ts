import { AgentError } from '../errors/agentError';
import type { ChatMessage, LlmCallOptions, LlmClient, LlmResult, ResponseFormat, TokenUsage, ToolSpec } from '../llm/types';
import type { ToolCallWrapper } from '../tools/types';
import { DEFAULT_MODEL_CALL_TIMEOUT_MS, type BaseAgentConfig } from './config';
import { requestExtensions } from './config';
import { AgentSettingsError } from './errors';
import { deliverEvent, type AgentEvent, type AgentEventListener } from './events';
import type { HookRunner } from './hookRunner';
import type { PreparedPrompt } from './promptSource';

/** Options for one model call inside a run. */
export interface ModelCallOptions {
  tools?: ToolSpec[];
  responseFormat?: ResponseFormat;
  /** Cycle number reported in events (defaults to the count of model calls so far + 1). */
  cycle?: number;
}

/** What the agent lends a run: its client, settings, hooks and listeners. */
export interface AgentRunDeps {
  agentId: string;
  llm: LlmClient;
  config: BaseAgentConfig;
  hooks?: HookRunner;
  listeners?: ReadonlySet<AgentEventListener>;
  onEvent?: AgentEventListener;
  signal?: AbortSignal;
  /** Stream each model call's text as `text_delta` events (only when someone listens). */
  streamText?: boolean;
  /** `requestExtensions(config)` when the caller has read it already (an agent does once); read per run otherwise. */
  extraBody?: Record<string, unknown>;
}

/**
 * The state of one execution: token usage, model calls, repair attempts, cycles, and the one way to call
 * the model (through the lifecycle hooks, with events). Strategies receive it; it is never shared between
 * executions, so one agent can run many executions at once (batch).
 */
export class AgentRun {
  readonly agentId: string;
  readonly config: BaseAgentConfig;
  readonly signal?: AbortSignal;
  readonly usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  modelCalls = 0;
  repairAttempts = 0;
  /** Tool calls the model wrote into its text and the client read from there (`LlmResult.toolCallsFromText`). */
  toolCallsFromText = 0;
  cycles = 0;
  /** The model actually used (set on the first call). */
  model = '';
  /** `name/version` of the prompt used (set on the first call). */
  promptLabel?: string;
  private readonly deps: AgentRunDeps;
  private wrapper: ToolCallWrapper | undefined | null = null;
  /** `requestExtensions(config)`, once read (null: not yet). */
  private extraBody: Record<string, unknown> | undefined | null = null;

  constructor(deps: AgentRunDeps) {
    this.deps = deps;
    this.agentId = deps.agentId;
    this.config = deps.config;
    this.signal = deps.signal;
    if ('extraBody' in deps) this.extraBody = deps.extraBody;
  }

  /** True when someone listens to events (so callers can skip building them). */
  get observed(): boolean {
    return Boolean(this.deps.onEvent || (this.deps.listeners && this.deps.listeners.size > 0));
  }

  /** Sends an event to the agent's listeners and the execution's `onEvent`. */
  emit(event: AgentEvent): void {
    if (this.deps.listeners && this.deps.listeners.size > 0) deliverEvent(this.deps.listeners, event);
    if (this.deps.onEvent) deliverEvent([this.deps.onEvent], event);
  }

  /** Throws CANCELLED when the run's signal was aborted. */
  throwIfCancelled(): void {
    if (this.signal?.aborted) throw new AgentError('CANCELLED', 'The agent run was cancelled.', { agentId: this.agentId });
  }

  /** The `wrapToolCall` hooks composed into one wrapper for `toolbox.executeCall`, or undefined without such hooks. */
  toolCallWrapper(): ToolCallWrapper | undefined {
    if (this.wrapper === null) this.wrapper = this.deps.hooks?.toolCallWrapper();
    return this.wrapper;
  }

  /**
   * One model call: `beforeModel` → `wrapModelCall`(client call) → `afterModel`. Returns the response the
   * hooks settled on; a reject throws HookRejectedError. Usage and call counts are accumulated.
   */
  async callModel(prompt: PreparedPrompt, messages: ChatMessage[], options: ModelCallOptions = {}): Promise<LlmResult> {
    this.throwIfCancelled();
    const { config, hooks, llm } = this.deps;
    const model = config.model ?? prompt.model;
    if (!model)
      throw new AgentSettingsError(['model: no model is set (give config.model or use an agent config with model_name)']);
    this.model = model;
    this.promptLabel = prompt.label;
    const finalMessages = hooks ? await hooks.beforeModel(messages) : messages;
    // The settings' request extensions are read once per run, not per call (the loop makes many calls).
    if (this.extraBody === null) this.extraBody = requestExtensions(config);
    const request: LlmCallOptions = {
      model,
      messages: finalMessages,
      responseFormat: options.responseFormat,
      temperature: config.temperature ?? prompt.temperature,
      maxTokens: config.maxTokens ?? prompt.maxTokens,
      tools: options.tools && options.tools.length > 0 ? options.tools : undefined,
      signal: this.signal,
      timeoutMs: modelCallTimeout(config.timeoutMs, llm.timeoutMs),
      extraBody: this.extraBody,
    };
    if (this.deps.streamText && this.observed) request.onDelta = this.deltaEmitter(options.cycle ?? this.modelCalls + 1);
    let response = hooks ? await hooks.wrapModelCall(() => llm.call(request)) : await llm.call(request);
    this.modelCalls++;
    addUsage(this.usage, response.usage);
    if (hooks) response = await hooks.afterModel(response);
    const fromText = response.toolCallsFromText ?? 0;
    this.toolCallsFromText += fromText;
    if (this.observed) {
      this.emit({
        type: 'model_called',
        agentId: this.agentId,
        cycle: options.cycle ?? this.modelCalls,
        model: response.model || model,
        usage: response.usage,
        finishReason: response.finishReason,
        toolCalls: response.toolCalls.length,
        ...(fromText > 0 ? { toolCallsFromText: fromText } : {}),
        latencyMs: response.latencyMs,
        text: response.text,
      });
    }
    return response;
  }

  private deltaEmitter(cycle: number): (delta: string) => void {
    return (delta) => this.emit({ type: 'text_delta', agentId: this.agentId, cycle, delta });
  }
}

/**
 * The limit of one model call: the tighter of the agent's `timeoutMs` and the one its client was created with;
 * either alone when only one is set; {@link DEFAULT_MODEL_CALL_TIMEOUT_MS} when neither is.
 */
export function modelCallTimeout(agentMs: number | undefined, clientMs: number | undefined): number {
  if (agentMs !== undefined && clientMs !== undefined) return Math.min(agentMs, clientMs);
  return agentMs ?? clientMs ?? DEFAULT_MODEL_CALL_TIMEOUT_MS;
}

function addUsage(total: TokenUsage, add: TokenUsage | undefined): void {
  if (!add) return;
  total.promptTokens += add.promptTokens || 0;
  total.completionTokens += add.completionTokens || 0;
  total.totalTokens += add.totalTokens || 0;
}
