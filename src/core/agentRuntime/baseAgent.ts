/** The base class of every agent: its construction, extension points and execution (`execute` → strategy → finish). */
import { AgentFactory } from '../agentsAsData';
import type { ControlProtocol } from '../control/controlProtocol';
import { sharedAuditFile, type AuditTrail } from '../audit/auditTrail';
import { runBatch, type BatchOptions, type BatchResult } from '../batch/runBatch';
import { AgentError } from '../errors/agentError';
import type { LlmClient } from '../llm/types';
import { getLogger } from '../logging/logger';
import { PerformanceMetrics, type PerformanceTargets } from '../metrics/performanceMetrics';
import { AgentRun } from './agentRun';
import { agentId, checkAgentOptions, checkClientMatchesConfig, type BaseAgentOptions } from './agentOptions';
import { DEFAULT_PERFORMANCE_TARGETS, effectivePerformanceTargets, missedPerformanceTargets } from './agentPerformanceTargets';
import { executionMetadata, finishExecution, type AgentResult, type ExecuteOptions, type ExecutionMetadata } from './agentResult';
import {
  agentChainSteps,
  agentToolCallOptions,
  createAgentToolExecutor,
  requireAgentTools,
  type AgentToolCallOptions,
  type ToolDiscoveryOptions,
} from './agentTools';
import { parseAgentConfig, requestExtensions, type AgentConfigExtensions, type BaseAgentConfig } from './config';
import { configPromptSource, type AgentConfigRef, type AgentPromptLoader } from './configPromptSource';
import { AgentInputError, AgentSettingsError } from './errors';
import { failureTermination, type AgentEventListener, type TerminationReason } from './events';
import { toRunError } from './errorCauses';
import { HookRunner, checkHookSet } from './hookRunner';
import { checkInputValues } from './inputValues';
import type { AgentLifecycle } from './lifecycle';
import { fallbackPromptSource, signaturePromptSource, type PreparedPrompt, type PromptSource } from './promptSource';
import type { Signature } from './signature';
import type { ToolChainResult, ToolChainStep, ToolExecutor } from '../tools/executor';
import type { RegisteredTool } from '../tools/registry';
import type { ToolCallResult } from '../tools/types';
import { MultiCycleStrategy } from './strategies/multiCycle';
import { SingleShotStrategy } from './strategies/singleShot';
import type { CycleHandlers, ExecutionStrategy, StrategyHost } from './strategies/types';

const log = getLogger('agent');

// No payload here: `compose(inputs)` checks it against the config's input keys (checking it twice would encode it twice).
const defaultLoader: AgentPromptLoader = (name, version, _inputs, options) =>
  AgentFactory.create(name, version, undefined, options);

/**
 * The base of every agent: validated settings, a prompt from a signature, a JSON agent config or plain
 * fallback, an execution strategy, lifecycle hooks and the optional features (logging, error handling,
 * metrics, batch, audit) — each a small piece the agent is given, not a base class.
 *
 * Extension points (override in a subclass, all optional): `createSignature()`, `agentDefinition()`,
 * `agentKind()`, `extraOptionKeys()`, `frameworkConfigExtensions()`, `configExtensions()`,
 * `createExecutionStrategy()`, `performanceTargets()`, `preExecute`, `parseResult`, `postExecute`, and
 * `createCycleHandlers` for multi-cycle agents. Opt-in tools: `toolRegistry` + `workspaceRoot`, or `toolExecutor`.
 */
export class BaseAgent<TOutput extends Record<string, unknown> = Record<string, unknown>> implements StrategyHost {
  /** Stable id used in metadata, events, logs and the audit trail. */
  readonly id: string;
  /** The validated settings, frozen: a setting changed afterwards would skip validation. */
  readonly config: Readonly<BaseAgentConfig>;
  /** Shared or own metrics (undefined without performance tracking). */
  readonly metrics?: PerformanceMetrics;
  protected readonly llm: LlmClient;
  private readonly options: BaseAgentOptions;
  private readonly audit?: AuditTrail;
  private hooks?: AgentLifecycle[];
  private hookRunner?: HookRunner;
  private listeners?: Set<AgentEventListener>;
  private strategy?: ExecutionStrategy;
  /** The settings' request extensions (000 EP-4), read once: the settings are frozen. */
  private readonly extraBody: Record<string, unknown> | undefined;
  private source?: PromptSource;
  /** The executor behind the tool methods (from `toolExecutor` or built from `toolRegistry`); undefined without tools. */
  protected readonly toolExecutor?: ToolExecutor;
  /** The control protocol given at construction (shared with the tool executor built from `toolRegistry`). */
  protected readonly control?: ControlProtocol;

  constructor(options: BaseAgentOptions) {
    const started = performance.now();
    if (!options || typeof options.llm?.call !== 'function') {
      throw new AgentSettingsError(['llm: an LlmClient is required (e.g. from createAgentRuntime or createOpenAIClient)']);
    }
    checkAgentOptions(options, this.extraOptionKeys(), new.target.name);
    this.control = options.control;
    this.toolExecutor = createAgentToolExecutor(options);
    this.config = Object.freeze(parseAgentConfig(options.config, this.configExtensions(), this.frameworkConfigExtensions()));
    this.extraBody = requestExtensions(this.config);
    checkClientMatchesConfig(this.config, options.llm);
    this.options = options;
    this.llm = options.llm;
    this.id = agentId(this.agentKind(), options.id ?? '');
    if (options.lifecycle) for (const hook of [options.lifecycle].flat()) this.withLifecycle(hook);
    if (options.onEvent) this.onEvent(options.onEvent);
    if (this.config.auditTrail) {
      this.audit = options.audit ?? (this.config.auditPath ? sharedAuditFile(this.config.auditPath) : undefined);
      if (!this.audit) throw new AgentSettingsError(['auditTrail: needs config.auditPath or an `audit` option to write to']);
    }
    if (this.config.performanceTracking) {
      effectivePerformanceTargets(this.performanceTargets());
      this.metrics = options.metrics ?? new PerformanceMetrics();
      this.metrics.recordAgentCreation(performance.now() - started);
    }
  }

  // ---- extension points -------------------------------------------------------------------------

  /**
   * Constructor option keys a subclass reads besides the base ones (ReAct: `toolbox`, `window`,
   * `maxObservationChars`). Any other key is rejected, so a misspelt or unsupported option never goes unnoticed.
   * Called from the base constructor: return a constant, do not read instance fields.
   */
  protected extraOptionKeys(): readonly string[] {
    return [];
  }

  /** A code signature for this agent's prompt; none (the default) means fallback mode unless a config is given. */
  protected createSignature(): Signature | undefined {
    return undefined;
  }

  /** The JSON agent config this agent is defined by (QA: `{ agent: 'qa', version: 'v1' }`); none by default. */
  protected agentDefinition(): AgentConfigRef | undefined {
    return undefined;
  }

  /** Prefix of generated agent ids. */
  protected agentKind(): string {
    return 'agent';
  }

  /**
   * Settings a framework built on BaseAgent gives all its agents (override in your framework's base class):
   * merged over the base defaults, under `configExtensions()` and the caller's settings. May add keys of its
   * own (e.g. `generation_config`). Called from the base constructor: return a constant.
   */
  protected frameworkConfigExtensions(): AgentConfigExtensions {
    return {};
  }

  /**
   * Settings this agent class defaults to: merged over the base defaults and `frameworkConfigExtensions()`
   * (plain-object values merge key by key); the caller's settings win. May add keys of its own (e.g.
   * `generation_config`), which the caller may then set too. Called from the base constructor: return a constant.
   */
  protected configExtensions(): AgentConfigExtensions {
    return {};
  }

  /**
   * The strategy for `config.strategy` (single shot, or multi-cycle with `config.maxCycles`). An override that
   * returns nothing falls back to single shot.
   */
  protected createExecutionStrategy(): ExecutionStrategy | undefined {
    return this.config.strategy === 'multi_cycle'
      ? new MultiCycleStrategy({ maxCycles: this.config.maxCycles })
      : new SingleShotStrategy();
  }

  /**
   * Targets the metrics are compared with (`checkPerformanceTargets()`): by default
   * {@link DEFAULT_PERFORMANCE_TARGETS} (framework init 100 ms, agent creation p95 200 ms, execution p95
   * 500 ms). Override to change them: what you return is merged over the defaults (a target you leave out
   * keeps its default; one you set to `undefined` is off). Every target must be one of
   * `PERFORMANCE_TARGET_NAMES` and a positive number (checked at construction when `performanceTracking` is on,
   * and by `checkPerformanceTargets`): anything else is a CONFIG error naming the key.
   */
  performanceTargets(): PerformanceTargets {
    return { ...DEFAULT_PERFORMANCE_TARGETS };
  }

  /** Runs before the prompt is built; may validate (throw before any model call) or rewrite the inputs. */
  preExecute(inputs: Record<string, unknown>, _run: AgentRun): Record<string, unknown> | Promise<Record<string, unknown>> {
    return inputs;
  }

  /** Builds this execution's prompt from the agent's prompt source (an override may return a promise). */
  preparePrompt(inputs: Record<string, unknown>, _run: AgentRun): PreparedPrompt | Promise<PreparedPrompt> {
    return this.promptSource().prepare(inputs);
  }

  /** Turns validated model output into the output fields. */
  parseResult(output: Record<string, unknown>, _run: AgentRun): Record<string, unknown> | Promise<Record<string, unknown>> {
    return output;
  }

  /** Last word on the output fields before metadata is added and `afterAgent` hooks run. */
  postExecute(output: Record<string, unknown>, _run: AgentRun): Record<string, unknown> | Promise<Record<string, unknown>> {
    return output;
  }

  /** Multi-cycle agents return their per-run cycle callbacks here. */
  createCycleHandlers?(run: AgentRun, prompt: PreparedPrompt, inputs: Record<string, unknown>): CycleHandlers<unknown>;

  // ---- public API -------------------------------------------------------------------------------

  /**
   * Registers a hook set (runs after those registered before; its wrap hooks sit inside theirs). Chains. Throws
   * CONFIG naming the key when the set is not an object, a hook point is not a function or `name` is not text.
   */
  withLifecycle(hook: AgentLifecycle): this {
    // Fails closed: a hook point that is not a function (`afterModel: 'continue'`) is refused here, not skipped.
    checkHookSet(hook);
    (this.hooks ??= []).push(hook);
    this.hookRunner = new HookRunner(this.hooks);
    return this;
  }

  /** Subscribes to every execution's events; returns the unsubscribe function. */
  onEvent(listener: AgentEventListener): () => void {
    (this.listeners ??= new Set()).add(listener);
    return () => this.listeners?.delete(listener);
  }

  /** Number of registered hook sets (0 = the fast path: no hook machinery is allocated or run). */
  get hookCount(): number {
    return this.hooks?.length ?? 0;
  }

  /**
   * The targets of `performanceTargets()` (merged over the defaults) this agent's metrics miss, as
   * `name: actual > target` (empty when all are met). Needs `performanceTracking`; throws `CONFIG` for an
   * unknown, zero, negative or non-numeric target.
   */
  checkPerformanceTargets(): string[] {
    return missedPerformanceTargets(this.performanceTargets(), this.metrics);
  }

  /** Where the prompt comes from: `signature`, `config` or `fallback`. */
  get promptKind(): PromptSource['kind'] {
    return this.promptSource().kind;
  }

  /** The strategy name reported in metadata. */
  get strategyName(): string {
    return this.executionStrategy().name;
  }

  /**
   * Runs the agent once: `beforeAgent` hooks → strategy (preExecute → model call(s) → parseResult →
   * postExecute) → metadata → `afterAgent` hooks. Throws an AgentError on failure, or with
   * `errorHandling` returns `{ error: { error_code, message, details }, metadata }`. Inputs that cannot reach
   * the model as JSON (a function, BigInt, symbol, circular value...) are VALIDATION before any model call; an
   * error with causes lists them in `details.causes` (`{ name, message }`, redacted, at most 5).
   */
  async execute(inputs: Record<string, unknown>, options: ExecuteOptions = {}): Promise<AgentResult<TOutput>> {
    const started = performance.now();
    const run = new AgentRun({
      agentId: this.id,
      llm: this.llm,
      config: this.config,
      hooks: this.hookRunner,
      listeners: this.listeners,
      onEvent: options.onEvent,
      signal: options.signal,
      streamText: options.streamText,
      extraBody: this.extraBody,
    });
    try {
      if (!inputs || typeof inputs !== 'object' || Array.isArray(inputs)) {
        throw new AgentInputError('inputs: execute() takes an object of named inputs, e.g. { question: "..." }');
      }
      checkInputValues(inputs);
      run.throwIfCancelled();
      if (run.observed) run.emit({ type: 'run_started', agentId: this.id, strategy: this.executionStrategy().name });
      const current = this.hookRunner ? await this.hookRunner.beforeAgent(inputs) : inputs;
      // A strategy is handed checked inputs (it checks only what preExecute makes of them).
      if (current !== inputs) checkInputValues(current);
      const outcome = await this.executionStrategy().run(this, run, current);
      if (!outcome || typeof outcome.output !== 'object' || outcome.output === null || Array.isArray(outcome.output)) {
        throw new AgentSettingsError([
          `strategy: ${this.executionStrategy().name}.run() must resolve to { output: an object of fields, terminationReason }`,
        ]);
      }
      // The same rule for every strategy: without errorHandling a failed run throws (its partial output is
      // on `result.error` only with errorHandling: true).
      if (outcome.error && !this.config.errorHandling)
        throw outcome.failure ?? new AgentError(outcome.error.error_code, outcome.error.message, outcome.error.details);
      // The strategy's output passed the agent's output validator (or is the agent's own free-text shape).
      let result = { ...outcome.output } as AgentResult<TOutput>;
      if (outcome.error) result.error = outcome.error;
      result.metadata = this.metadata(run, started, outcome.terminationReason);
      if (this.hookRunner) result = (await this.hookRunner.afterAgent(result)) as AgentResult<TOutput>;
      finishExecution(this, this.audit, run, inputs, result, outcome.error);
      return result;
    } catch (e) {
      const error = toRunError(e);
      const meta = this.metadata(run, started, failureTermination(error.error_code));
      finishExecution(this, this.audit, run, inputs, { error: error.toJSON(), metadata: meta }, error.toJSON());
      if (this.config.errorHandling) return { error: error.toJSON(), metadata: meta } as AgentResult<TOutput>;
      throw error;
    }
  }

  /**
   * Runs many executions with bounded concurrency (`config.batchConcurrency` unless given); results in
   * input order, one failure never stops the batch. Needs `batchProcessing: true`.
   */
  async executeBatch(
    items: readonly Record<string, unknown>[],
    options: BatchOptions = {},
  ): Promise<BatchResult<AgentResult<TOutput>>> {
    if (!this.config.batchProcessing) {
      throw new AgentSettingsError(['batchProcessing: executeBatch needs batchProcessing: true in the agent settings']);
    }
    if (!Array.isArray(items)) throw new AgentError('VALIDATION', 'items: executeBatch takes an array of input objects', {});
    return runBatch(
      items,
      async (item, _index, signal) => {
        const result = await this.execute(item, { signal });
        if (result.error) throw new AgentError(result.error.error_code, result.error.message, result.error.details);
        return result;
      },
      { concurrency: options.concurrency ?? this.config.batchConcurrency, signal: options.signal },
    );
  }

  // ---- tools ------------------------------------------------------------------------------------

  /** True when the agent was given tools (`toolRegistry` or `toolExecutor`). */
  hasToolSupport(): boolean {
    return this.toolExecutor !== undefined;
  }

  /** The agent's tools matching every given filter (`category`, `safeOnly`, `keyword`); all without filters. */
  discoverTools(query: ToolDiscoveryOptions = {}): RegisteredTool[] {
    const { category, safeOnly, keyword } = query;
    return requireAgentTools(this.toolExecutor, this.id, 'discoverTools').registry.discoverTools({ category, safeOnly, keyword });
  }

  /**
   * Runs one tool through the agent's executor: parameters validated, the approval policy applied (asking
   * through the shared control protocol), a timeout (`timeout` ms, default 30 s) and the agent's
   * `wrapToolCall` hooks. Never throws for a bad call: the result says what went wrong (`ok: false`). The call
   * is kept in the executor's recent-calls memory only with `storeInMemory: true`.
   */
  async executeTool(name: string, params: unknown, options: AgentToolCallOptions = {}): Promise<ToolCallResult> {
    const executor = requireAgentTools(this.toolExecutor, this.id, 'executeTool');
    return executor.executeTool(name, params, agentToolCallOptions(this.id, options, this.hookRunner, this.audit));
  }

  /**
   * Runs tools one after another; with `stopOnError` (default true) the first failing step stops the chain (the
   * rest are `skipped`). Like `executeTool`, a step is kept in the recent-calls memory only with its own
   * `options.storeInMemory: true`.
   */
  async executeToolChain(
    steps: readonly ToolChainStep[],
    options: { stopOnError?: boolean; signal?: AbortSignal } = {},
  ): Promise<ToolChainResult> {
    const executor = requireAgentTools(this.toolExecutor, this.id, 'executeToolChain');
    return executor.executeToolChain(agentChainSteps(this.id, steps, this.hookRunner, this.audit), options);
  }

  // ---- internals --------------------------------------------------------------------------------

  private executionStrategy(): ExecutionStrategy {
    if (!this.strategy) {
      const created = this.createExecutionStrategy();
      if (created === undefined || created === null) {
        if (this.config.logging) log.debug('createExecutionStrategy returned nothing; using single shot.', { agentId: this.id });
        this.strategy = new SingleShotStrategy();
      } else if (typeof created.run !== 'function' || typeof created.name !== 'string') {
        throw new AgentSettingsError([
          'strategy: createExecutionStrategy must return an ExecutionStrategy ({ name, run }) or nothing (single shot)',
        ]);
      } else this.strategy = created;
    }
    return this.strategy;
  }

  private promptSource(): PromptSource {
    if (!this.source) {
      const { signature: given, agentConfig } = this.options;
      const signature = given ?? (agentConfig ? undefined : this.createSignature());
      const definition = agentConfig ?? this.agentDefinition();
      this.source = signature
        ? signaturePromptSource(signature)
        : definition
          ? configPromptSource(definition, this.options.promptLoader ?? defaultLoader)
          : fallbackPromptSource;
    }
    return this.source;
  }

  private metadata(run: AgentRun, started: number, terminationReason: TerminationReason): ExecutionMetadata {
    return executionMetadata(this.id, this.strategy?.name ?? this.config.strategy, run, started, terminationReason);
  }
}
