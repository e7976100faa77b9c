import { AgentFactory } from '../agentsAsData';
import type { ControlProtocol } from '../control/controlProtocol';
import { sharedAuditFile, toolCallAuditSink, type AuditTrail } from '../audit/auditTrail';
import { runBatch, type BatchOptions, type BatchResult } from '../batch/runBatch';
import { AgentError, type ErrorInfo } from '../errors/agentError';
import type { LlmClient, TokenUsage } from '../llm/types';
import { getLogger } from '../logging/logger';
import {
  PERFORMANCE_TARGET_NAMES,
  PerformanceMetrics,
  checkTargets,
  mergeTargets,
  type PerformanceTargets,
} from '../metrics/performanceMetrics';
import { AgentRun } from './agentRun';
import { parseAgentConfig, type AgentConfigExtensions, type BaseAgentConfig, type BaseAgentConfigInput } from './config';
import { configPromptSource, type AgentConfigRef, type AgentPromptLoader } from './configPromptSource';
import { AgentInputError, AgentSettingsError } from './errors';
import { failureTermination, type AgentEventListener, type TerminationReason } from './events';
import { toRunError } from './errorCauses';
import { HookRunner, checkHookSet } from './hookRunner';
import { checkInputValues } from './inputValues';
import type { AgentLifecycle } from './lifecycle';
import { fallbackPromptSource, signaturePromptSource, type PreparedPrompt, type PromptSource } from './promptSource';
import type { Signature } from './signature';
import type { ApprovalPolicy } from '../tools/approvalPolicy';
import { ToolExecutor, type ExecuteToolOptions, type ToolChainResult, type ToolChainStep } from '../tools/executor';
import type { RegisteredTool, ToolDiscoveryQuery, ToolRegistry } from '../tools/registry';
import { toolUsesWorkspace, type ToolCallResult, type ToolCallWrapper } from '../tools/types';
import { MultiCycleStrategy } from './strategies/multiCycle';
import { SingleShotStrategy } from './strategies/singleShot';
import type { CycleHandlers, ExecutionStrategy, StrategyHost } from './strategies/types';

/** What every execution result carries besides its output fields. */
export interface ExecutionMetadata {
  agentId: string;
  /** The model the calls used ('' when the run failed before any call). */
  model: string;
  strategy: string;
  /** `name/version` of the prompt definition, or `fallback`. */
  prompt?: string;
  executionTimeMs: number;
  usage: TokenUsage;
  modelCalls: number;
  repairAttempts: number;
  /** Tool calls the model wrote into its text and the client read from there; absent when there were none. */
  toolCallsFromText?: number;
  terminationReason: TerminationReason;
  /** Multi-cycle runs only. */
  cycles?: number;
}

/**
 * An execution's output fields (typed as `T`, the agent's output) plus `metadata`. With `errorHandling`, a
 * failed run returns `error` and whatever output it has (`Partial<T>`): check `error` before the fields.
 */
export type AgentResult<T extends Record<string, unknown> = Record<string, unknown>> =
  (T & { metadata: ExecutionMetadata; error?: undefined }) | (Partial<T> & { metadata: ExecutionMetadata; error: ErrorInfo });

/** Per-execution options. */
export interface ExecuteOptions {
  signal?: AbortSignal;
  /** Receives this execution's events (in addition to listeners added with `onEvent`). */
  onEvent?: AgentEventListener;
  /** Stream the model's text: each piece arrives as a `text_delta` event before the call's `model_called` (needs a listener). */
  streamText?: boolean;
}

/** Constructor options of {@link BaseAgent} and every agent built on it. */
export interface BaseAgentOptions {
  /** Answers model calls (from `createAgentRuntime`, `createOpenAIClient`, or a replay client). */
  llm: LlmClient;
  /** Settings, validated with defaults (see BaseAgentConfigSchema). */
  config?: BaseAgentConfigInput;
  /** Default (also for an empty or blank id): `<agent kind>-<n>`. A number is converted to a string. */
  id?: string | number;
  /** Prompt from a code signature (overrides `createSignature()`). */
  signature?: Signature;
  /** Prompt from a JSON agent config in `config/agents` (overrides `agentDefinition()`). */
  agentConfig?: AgentConfigRef;
  /** How config prompts are loaded; default `AgentFactory.create`. */
  promptLoader?: AgentPromptLoader;
  /** Hook sets registered at construction (same as calling `withLifecycle` for each). */
  lifecycle?: AgentLifecycle | readonly AgentLifecycle[];
  /** Shared metrics; with `performanceTracking` and none given, the agent keeps its own. */
  metrics?: PerformanceMetrics;
  /** Audit sink; with `auditTrail` and none given, `config.auditPath` is used. */
  audit?: AuditTrail;
  /** Receives every execution's events. */
  onEvent?: AgentEventListener;
  /**
   * Opt-in tools: the agent builds a `ToolExecutor` over this registry, sharing the agent's `control` protocol,
   * so tool approvals and the agent use one approval channel. Needs `workspaceRoot` when one of its tools works
   * in a workspace (see `toolUsesWorkspace`: file, search, shell, git and test tools, and custom tools that do
   * not declare `usesWorkspace: false`); a registry of http, MCP or such custom tools needs none.
   */
  toolRegistry?: ToolRegistry;
  /**
   * Opt-in tools with an executor you built, used as given. `toolRegistry`, `workspaceRoot` and `toolPolicy` may
   * be given with it only when they are the executor's own (else CONFIG naming both).
   */
  toolExecutor?: ToolExecutor;
  /** Absolute real path of the workspace the tools of `toolRegistry` work in (needed when one of them works in one). */
  workspaceRoot?: string;
  /** Approval policy of the executor built from `toolRegistry` (default: SAFE runs, every other level is asked). */
  toolPolicy?: ApprovalPolicy;
  /** The agent's control protocol (approvals, questions); the executor built from `toolRegistry` uses it. */
  control?: ControlProtocol;
}

/** Every option {@link BaseAgent} itself reads; anything else must be declared by a subclass (`extraOptionKeys`). */
const BASE_OPTION_KEYS: ReadonlySet<string> = new Set([
  'llm',
  'config',
  'id',
  'signature',
  'agentConfig',
  'promptLoader',
  'lifecycle',
  'metrics',
  'audit',
  'onEvent',
  'toolRegistry',
  'toolExecutor',
  'workspaceRoot',
  'toolPolicy',
  'control',
]);

/** Options of {@link BaseAgent.discoverTools}: every given filter must match. */
export type ToolDiscoveryOptions = Pick<ToolDiscoveryQuery, 'category' | 'safeOnly' | 'keyword'>;

/**
 * Options of {@link BaseAgent.executeTool}. `storeInMemory` defaults to false here (003: `store_in_memory: bool
 * = False`): a call lands in the executor's recent-calls memory only when asked.
 */
export type AgentToolCallOptions = Pick<ExecuteToolOptions, 'timeout' | 'storeInMemory' | 'signal'>;

const log = getLogger('agent');

/** The performance targets every agent has unless it overrides `performanceTargets()`. */
export const DEFAULT_PERFORMANCE_TARGETS: Readonly<PerformanceTargets> = Object.freeze({
  frameworkInitMs: 100,
  agentCreationP95Ms: 200,
  executionP95Ms: 500,
});

/**
 * The targets in effect: `targets` merged over {@link DEFAULT_PERFORMANCE_TARGETS} (a key left out keeps its
 * default, one set to `undefined` is off), when every given target is a known name and a positive finite
 * number (a success rate at most 1); else throws CONFIG naming each bad key.
 */
function effectivePerformanceTargets(targets: PerformanceTargets): PerformanceTargets {
  if (!targets || typeof targets !== 'object' || Array.isArray(targets))
    throw new AgentSettingsError(['performanceTargets: must return an object of targets']);
  const problems: string[] = [];
  const known: readonly string[] = PERFORMANCE_TARGET_NAMES;
  for (const [key, value] of Object.entries(targets)) {
    if (!known.includes(key)) {
      problems.push(`performanceTargets.${key}: not a performance target (targets: ${known.join(', ')})`);
      continue;
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      problems.push(`performanceTargets.${key}: must be a positive number, got ${JSON.stringify(value)}`);
    } else if (key === 'minSuccessRate' && value > 1) {
      problems.push(`performanceTargets.minSuccessRate: must be at most 1, got ${value}`);
    }
  }
  if (problems.length > 0) throw new AgentSettingsError(problems);
  return mergeTargets(DEFAULT_PERFORMANCE_TARGETS, targets);
}
const counters = new Map<string, number>();

/**
 * The executor-level wrapper of an agent built without a workspace: a call of a tool that works in one (a tool
 * registered after the agent was built) fails with CONFIG before the tool runs.
 */
function refuseWorkspaceTools(registry: ToolRegistry): ToolCallWrapper {
  return (toolName, next) => {
    const tool = registry.get(toolName);
    if (tool && toolUsesWorkspace(tool)) {
      throw new AgentError(
        'CONFIG',
        `${toolName} works in a workspace and this agent was built without workspaceRoot; nothing was executed or changed.`,
        { tool: toolName },
      );
    }
    return next();
  };
}
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
  /** The validated settings. */
  readonly config: BaseAgentConfig;
  /** Shared or own metrics (undefined without performance tracking). */
  readonly metrics?: PerformanceMetrics;
  protected readonly llm: LlmClient;
  private readonly options: BaseAgentOptions;
  private readonly audit?: AuditTrail;
  private hooks?: AgentLifecycle[];
  private hookRunner?: HookRunner;
  private listeners?: Set<AgentEventListener>;
  private strategy?: ExecutionStrategy;
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
    const extra = this.extraOptionKeys();
    const unknown = Object.keys(options).filter((key) => !BASE_OPTION_KEYS.has(key) && !extra.includes(key));
    if (unknown.length > 0) {
      const known = [...BASE_OPTION_KEYS, ...extra].sort().join(', ');
      throw new AgentSettingsError(
        unknown.map((key) => `${key}: not an option of ${new.target.name} (options: ${known})`),
        { unknownOptions: unknown },
      );
    }
    if (options.signature && options.agentConfig) {
      throw new AgentSettingsError(['signature, agentConfig: give one prompt definition, not both']);
    }
    this.control = options.control;
    this.toolExecutor = this.createToolExecutor(options);
    this.config = parseAgentConfig(options.config, this.configExtensions(), this.frameworkConfigExtensions());
    this.options = options;
    this.llm = options.llm;
    // 000 EP-2: a non-string id (or agentKind()) is converted to a string; an empty or blank one gives the default.
    const kind = String(this.agentKind() ?? '').trim() || 'agent';
    const given: unknown = options.id ?? '';
    const id = ['string', 'number', 'bigint', 'boolean'].includes(typeof given) ? String(given as string) : undefined;
    if (id === undefined || id.length > 200) {
      throw new AgentSettingsError([
        `id: must be a string (a number is converted) of at most 200 characters, or empty / omitted for the default`,
      ]);
    }
    if (id.trim() !== '') this.id = id;
    else {
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      this.id = `${kind}-${n}`;
    }
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

  /** Builds this execution's prompt from the agent's prompt source. */
  async preparePrompt(inputs: Record<string, unknown>, _run: AgentRun): Promise<PreparedPrompt> {
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
    const targets = effectivePerformanceTargets(this.performanceTargets());
    if (!this.metrics)
      throw new AgentSettingsError([
        'performanceTracking: checkPerformanceTargets needs performanceTracking: true in the agent settings',
      ]);
    return checkTargets(this.metrics.snapshot(), targets);
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
    });
    try {
      if (!inputs || typeof inputs !== 'object' || Array.isArray(inputs)) {
        throw new AgentInputError('inputs: execute() takes an object of named inputs, e.g. { question: "..." }');
      }
      checkInputValues(inputs);
      run.throwIfCancelled();
      if (run.observed) run.emit({ type: 'run_started', agentId: this.id, strategy: this.executionStrategy().name });
      const current = this.hookRunner ? await this.hookRunner.beforeAgent(inputs) : inputs;
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
      let result = {
        ...outcome.output,
        ...(outcome.error ? { error: outcome.error } : {}),
        metadata: this.metadata(run, started, outcome.terminationReason),
      } as AgentResult<TOutput>;
      if (this.hookRunner) result = (await this.hookRunner.afterAgent(result)) as AgentResult<TOutput>;
      this.finish(run, inputs, result, outcome.error);
      return result;
    } catch (e) {
      const error = toRunError(e);
      const meta = this.metadata(run, started, failureTermination(error.error_code));
      this.finish(run, inputs, { error: error.toJSON(), metadata: meta }, error.toJSON());
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
    return this.requireTools('discoverTools').registry.discoverTools({ category, safeOnly, keyword });
  }

  /**
   * Runs one tool through the agent's executor: parameters validated, the approval policy applied (asking
   * through the shared control protocol), a timeout (`timeout` ms, default 30 s) and the agent's
   * `wrapToolCall` hooks. Never throws for a bad call: the result says what went wrong (`ok: false`). The call
   * is kept in the executor's recent-calls memory only with `storeInMemory: true`.
   */
  async executeTool(name: string, params: unknown, options: AgentToolCallOptions = {}): Promise<ToolCallResult> {
    const executor = this.requireTools('executeTool');
    const { timeout, storeInMemory, signal } = options;
    return executor.executeTool(name, params, {
      timeout,
      storeInMemory: storeInMemory ?? false,
      signal,
      requestedBy: this.id,
      wrap: this.hookRunner?.toolCallWrapper(),
      ...(this.audit ? { audit: toolCallAuditSink(this.audit, this.id) } : {}),
    });
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
    const executor = this.requireTools('executeToolChain');
    if (!Array.isArray(steps))
      throw new AgentError('VALIDATION', 'steps: executeToolChain takes an array of { name, params } steps.', {});
    const wrap = this.hookRunner?.toolCallWrapper();
    const audit = this.audit ? toolCallAuditSink(this.audit, this.id) : undefined;
    const own = steps.map((step) => ({
      ...step,
      options: {
        storeInMemory: false,
        ...step?.options,
        requestedBy: this.id,
        ...(wrap ? { wrap } : {}),
        ...(audit ? { audit } : {}),
      },
    }));
    return executor.executeToolChain(own, options);
  }

  private requireTools(method: string): ToolExecutor {
    if (this.toolExecutor) return this.toolExecutor;
    throw new AgentError(
      'CONFIG',
      `${method}: agent ${this.id} has no tools. Construct it with { toolRegistry, workspaceRoot } or { toolExecutor }.`,
      { agentId: this.id, method },
    );
  }

  private createToolExecutor(options: BaseAgentOptions): ToolExecutor | undefined {
    const { toolRegistry, toolExecutor, workspaceRoot, toolPolicy } = options;
    if (toolExecutor !== undefined) {
      if (!(toolExecutor instanceof ToolExecutor)) throw new AgentSettingsError(['toolExecutor: must be a ToolExecutor']);
      // 003 D2: the executor is used as given; what else is given must agree with it (its registry, workspace, policy).
      const problems: string[] = [];
      if (toolRegistry !== undefined && toolRegistry !== toolExecutor.registry)
        problems.push('toolRegistry, toolExecutor: the executor works on another registry; give one, not both');
      if (workspaceRoot !== undefined && workspaceRoot !== toolExecutor.workspaceRoot)
        problems.push(
          `workspaceRoot, toolExecutor: the executor works in ${toolExecutor.workspaceRoot}, not in ${workspaceRoot}`,
        );
      if (toolPolicy !== undefined && toolPolicy !== toolExecutor.policy)
        problems.push('toolPolicy: only applies with toolRegistry (a given toolExecutor has its own)');
      if (problems.length > 0) throw new AgentSettingsError(problems);
      return toolExecutor;
    }
    if (toolRegistry === undefined) {
      const unused = (['workspaceRoot', 'toolPolicy'] as const).filter((key) => options[key] !== undefined);
      if (unused.length > 0) throw new AgentSettingsError(unused.map((key) => `${key}: only applies with toolRegistry`));
      return undefined;
    }
    if (typeof toolRegistry?.discoverTools !== 'function') throw new AgentSettingsError(['toolRegistry: must be a ToolRegistry']);
    if (workspaceRoot !== undefined && (typeof workspaceRoot !== 'string' || workspaceRoot === '')) {
      throw new AgentSettingsError(['workspaceRoot: must be the absolute path of the workspace the tools work in']);
    }
    if (workspaceRoot === undefined) {
      // 003: the executor comes from the registry alone, unless a tool works in a workspace.
      const needing = toolRegistry
        .list()
        .filter(toolUsesWorkspace)
        .map((tool) => tool.name);
      if (needing.length > 0) {
        const shown =
          needing.length > 5 ? `${needing.slice(0, 5).join(', ')} and ${needing.length - 5} more` : needing.join(', ');
        throw new AgentSettingsError(
          [
            `workspaceRoot: toolRegistry needs the absolute path of the workspace the tools work in (${shown} work in one; a custom tool that does not declares usesWorkspace: false)`,
          ],
          { toolsNeedingWorkspace: needing },
        );
      }
    }
    return new ToolExecutor({
      registry: toolRegistry,
      // No workspace: tools that declare they need none get '' (a path that resolves to nothing), and a tool that
      // needs one (registered after the agent was built) is refused before it runs.
      workspaceRoot: workspaceRoot ?? '',
      policy: toolPolicy,
      control: options.control,
      ...(workspaceRoot === undefined ? { wrap: refuseWorkspaceTools(toolRegistry) } : {}),
    });
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
    const meta: ExecutionMetadata = {
      agentId: this.id,
      model: run.model,
      strategy: this.strategy?.name ?? this.config.strategy,
      prompt: run.promptLabel,
      executionTimeMs: performance.now() - started,
      usage: { ...run.usage },
      modelCalls: run.modelCalls,
      repairAttempts: run.repairAttempts,
    } as ExecutionMetadata;
    // Optional fields only when they say something, in the order metadata always had.
    if (run.toolCallsFromText > 0) meta.toolCallsFromText = run.toolCallsFromText;
    meta.terminationReason = terminationReason;
    if (run.cycles > 0) meta.cycles = run.cycles;
    return meta;
  }

  private finish(run: AgentRun, inputs: Record<string, unknown>, result: AgentResult, error?: ErrorInfo): void {
    const meta = result.metadata;
    if (run.observed) {
      run.emit({
        type: 'finished',
        agentId: this.id,
        terminationReason: meta.terminationReason,
        cycles: run.cycles,
        usage: meta.usage,
        executionTimeMs: meta.executionTimeMs,
        ...(error ? { error } : {}),
      });
    }
    this.metrics?.recordExecution({ durationMs: meta.executionTimeMs, success: !error, usage: meta.usage });
    if (this.config.logging) {
      if (error) log.warn('Agent execution failed.', { agentId: this.id, error_code: error.error_code, message: error.message });
      else
        log.debug('Agent execution finished.', {
          agentId: this.id,
          ms: Math.round(meta.executionTimeMs),
          tokens: meta.usage.totalTokens,
        });
    }
    if (this.audit) {
      const { metadata: _m, error: _e, ...outputs } = result;
      this.audit.record({
        timestamp: new Date().toISOString(),
        agentId: this.id,
        inputs,
        ...(error ? { error } : { outputs }),
        usage: meta.usage,
        durationMs: meta.executionTimeMs,
        model: meta.model,
        terminationReason: meta.terminationReason,
      });
    }
  }
}
