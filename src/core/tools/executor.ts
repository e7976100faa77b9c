/** The ToolExecutor: runs a model's tool calls (look the tool up, validate, approve, run within a deadline, record). */
import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, ControlProtocol } from '../control/controlProtocol';
import { isAgentError, type ErrorCode } from '../errors/agentError';
import type { LlmToolCall, ToolSpec } from '../llm/types';
import { getLogger, logLevelEnabled, type Logger } from '../logging/logger';
import { redactSecrets, redactValue } from '../security/redact';
import { ApprovalPolicy } from './approvalPolicy';
import { DEFAULT_MAX_CONTENT_CHARS } from './contentLimits';
import {
  DEFAULT_TOOL_TIMEOUT_MS,
  type ExecuteToolOptions,
  type ToolChainResult,
  type ToolChainStep,
  type ToolExecutorOptions,
} from './executorOptions';
import type { ToolRegistry, RegisteredTool } from './registry';
import { ToolResultMemory, type RememberedToolCall } from './resultMemory';
import type { ToolAuditSink } from './toolAudit';
import { parseToolArguments, validateToolParams } from './toolArguments';
import { composeToolCallWrappers } from './toolCallWrapper';
import { toToolSpecs } from './toolSpecs';
import { RunningCall, ToolCallContext } from './runningCall';
import { previewOf } from './toolCallPreview';
import { auditRecordOf, callResult, CallState } from './toolCallState';
import type {
  AgentToolbox,
  ExecuteCallOptions,
  DangerLevel,
  ToolCallResult,
  ToolCallWrapper,
  ToolContext,
  ToolOutput,
} from './types';

export * from './executorOptions';
export { DEFAULT_MAX_CONTENT_CHARS };

const NOTHING_CHANGED = 'Nothing was executed or changed.';

/**
 * Runs tool calls for agents: looks the tool up, parses and validates the arguments, applies
 * the approval policy (asking a person through the ControlProtocol when needed), and executes
 * with a timeout and cancellation through the `wrapToolCall` chain. A bad call never throws:
 * it becomes an ok=false ToolCallResult whose content tells the model what was wrong and, for
 * anything refused before running, that nothing was executed or changed.
 */
export class ToolExecutor implements AgentToolbox {
  readonly registry: ToolRegistry;
  readonly policy: ApprovalPolicy;
  private readonly options: ToolExecutorOptions;
  private readonly logger: Logger;
  private readonly memory: ToolResultMemory;

  constructor(options: ToolExecutorOptions) {
    this.options = options;
    this.registry = options.registry;
    this.policy = options.policy ?? new ApprovalPolicy();
    this.logger = options.logger ?? getLogger('tools');
    this.memory = new ToolResultMemory(options.memorySize ?? 50);
  }

  /** The absolute real path of the workspace the tools work in (handed to every tool). */
  get workspaceRoot(): string {
    return this.options.workspaceRoot;
  }

  /** The OpenAI function tools of every registered tool (read at call time: MCP tools come and go). */
  toolSpecs(): ToolSpec[] {
    return toToolSpecs(this.registry.list());
  }

  /** Runs one model-issued call (raw JSON arguments). Never throws for a bad call. */
  executeCall(call: LlmToolCall, options: ExecuteCallOptions = {}): Promise<ToolCallResult> {
    const { parsedArguments, signal, wrap, requestedBy } = options;
    const params = isPlainObject(parsedArguments) ? parsedArguments : call.arguments;
    return this.executeTool(call.name, params, { signal, wrap, requestedBy, callId: call.id });
  }

  /** Runs one tool by name; `params` is an object or a JSON string. Never throws for a bad call. */
  async executeTool(name: string, params: unknown, options: ExecuteToolOptions = {}): Promise<ToolCallResult> {
    const state = new CallState(name, options.callId, options.requestedBy, params);
    let result: ToolCallResult;
    try {
      // A call refused before it runs is answered without a trip through the microtask queue.
      const running = this.run(state, params, options);
      result = running instanceof Promise ? await running : running;
    } catch (error) {
      // Defensive: run() handles every expected failure itself.
      result = this.failure(state, 'TOOL_FAILED', `Tool ${name} failed unexpectedly: ${errorMessage(error)}`);
    }
    const audited = this.finish(state, result, options.storeInMemory ?? true, options.audit);
    if (audited) await audited;
    return result;
  }

  /**
   * Runs calls one after another. With `stopOnError` (default true) the first ok=false result
   * stops the chain and the remaining steps are reported as skipped.
   */
  async executeToolChain(
    steps: readonly ToolChainStep[],
    options: { stopOnError?: boolean; signal?: AbortSignal } = {},
  ): Promise<ToolChainResult> {
    const stopOnError = options.stopOnError ?? true;
    const results: ToolCallResult[] = [];
    for (let index = 0; index < steps.length; index++) {
      const step = steps[index]!;
      const result = await this.executeTool(step.name, step.params, { signal: options.signal, ...step.options });
      results.push(result);
      if (!result.ok && stopOnError) {
        return { results, ok: false, stoppedAt: index, skipped: steps.slice(index + 1).map((s) => s.name) };
      }
    }
    return { results, ok: results.every((r) => r.ok), skipped: [] };
  }

  /** The most recent calls kept with `storeInMemory`, oldest first. */
  recentCalls(limit?: number): RememberedToolCall[] {
    return this.memory.recent(limit);
  }

  /** Forgets the recent calls. */
  clearMemory(): void {
    this.memory.clear();
  }

  private run(state: CallState, rawParams: unknown, options: ExecuteToolOptions): ToolCallResult | Promise<ToolCallResult> {
    const tool = this.registry.get(state.name);
    if (!tool) {
      const available = this.registry.names();
      return this.failure(
        state,
        'TOOL_NOT_FOUND',
        `Unknown tool "${state.name}". ${NOTHING_CHANGED} Available tools: ${available.length ? available.join(', ') : '(none)'}.`,
      );
    }
    state.dangerLevel = tool.dangerLevel;

    const parsed = parseToolArguments(tool.name, rawParams);
    if (!parsed.ok) return this.failure(state, 'VALIDATION', `${parsed.message} ${NOTHING_CHANGED}`);
    state.parsedAs(parsed.value);

    const valid = validateToolParams(tool.name, tool.parameters, parsed.value);
    if (!valid.ok) return this.failure(state, 'VALIDATION', `${valid.message}\n${NOTHING_CHANGED}`);

    if (options.signal?.aborted)
      return this.failure(state, 'CANCELLED', `The run was cancelled before ${tool.name} started. ${NOTHING_CHANGED}`);

    const refusal = this.approve(tool, state, valid.value, options.signal);
    if (refusal instanceof Promise) return refusal.then((refused) => refused ?? this.execute(tool, state, valid.value, options));
    if (refusal) return refusal;
    return this.execute(tool, state, valid.value, options);
  }

  /**
   * Applies the policy; returns a refusal result, or undefined when the call may run. A promise only when a person
   * is asked: the policy's own verdicts need no trip through the microtask queue.
   */
  private approve(
    tool: RegisteredTool,
    state: CallState,
    params: unknown,
    signal?: AbortSignal,
  ): ToolCallResult | undefined | Promise<ToolCallResult | undefined> {
    const verdict = this.policy.decide(tool.name, tool.dangerLevel);
    if (verdict.rule === 'deny') {
      state.approval = 'policy_denied';
      return this.failure(
        state,
        'TOOL_DENIED',
        `${NOTHING_CHANGED} ${tool.name} was refused by the approval policy: ${verdict.reason}. Do not retry it; find another way or report that it is needed.`,
      );
    }
    if (verdict.rule === 'allow') {
      state.approval = verdict.outcome ?? 'auto';
      state.approvedBy = verdict.approvedBy;
      return undefined;
    }
    const control = this.options.control;
    if (!control) {
      state.approval = 'denied';
      return this.failure(
        state,
        'TOOL_DENIED',
        `${NOTHING_CHANGED} ${tool.name} (danger ${tool.dangerLevel}) needs a person's approval and no one is available to approve it.`,
      );
    }
    return this.approveByPerson(control, tool, state, params, verdict.reason, signal);
  }

  /** Asks a person through the control channel; returns a refusal result unless they approve. */
  private async approveByPerson(
    control: ControlProtocol,
    tool: RegisteredTool,
    state: CallState,
    params: unknown,
    reason: string,
    signal?: AbortSignal,
  ): Promise<ToolCallResult | undefined> {
    const answer = await this.askPerson(control, tool, state, params, tool.dangerLevel, reason, signal);
    state.approval = answer.outcome;
    state.approvedBy = answer.answeredBy;
    this.policy.recordAnswer(tool.name, answer);
    if (answer.outcome === 'approved' || answer.outcome === 'always') return undefined;
    const why = answer.reason ?? (answer.outcome === 'timeout' ? 'nobody answered in time' : 'the request was denied');
    return this.failure(
      state,
      'TOOL_DENIED',
      `${NOTHING_CHANGED} ${tool.name} was not approved: ${why}. Do not retry the same call unless the person asks for it.`,
    );
  }

  private execute(tool: RegisteredTool, state: CallState, params: unknown, options: ExecuteToolOptions): Promise<ToolCallResult> {
    const timeoutMs = options.timeout ?? this.options.defaultTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const wrap = options.wrap || this.options.wrap ? composeToolCallWrappers(options.wrap, this.options.wrap) : undefined;
    if (!wrap) return this.runWithTimeout(tool, state, params, timeoutMs, options.signal);
    return this.executeWrapped(wrap, tool, state, params, timeoutMs, options.signal);
  }

  /** Runs the call inside the `wrapToolCall` chain; a hook that fails or returns no tool result gives an ok=false result. */
  private async executeWrapped(
    wrap: ToolCallWrapper,
    tool: RegisteredTool,
    state: CallState,
    params: unknown,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<ToolCallResult> {
    try {
      const wrapped: unknown = await wrap(tool.name, () => this.runWithTimeout(tool, state, params, timeoutMs, signal), params);
      if (isToolCallResult(wrapped)) return wrapped;
      return this.failure(
        state,
        'CONFIG',
        `A wrapToolCall hook around ${tool.name} returned ${wrapped === undefined ? 'nothing' : 'something that is not a tool result'}; it must return the tool result (what next() resolves to, or one like it).`,
      );
    } catch (error) {
      const code: ErrorCode = isAgentError(error) ? error.error_code : 'TOOL_FAILED';
      return this.failure(state, code, `A wrapToolCall hook failed around ${tool.name}: ${errorMessage(error)}`);
    }
  }

  private async runWithTimeout(
    tool: RegisteredTool,
    state: CallState,
    params: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ToolCallResult> {
    const call = new RunningCall(signal, timeoutMs);
    let running: Promise<ToolOutput | string>;
    try {
      running = Promise.resolve(tool.execute(params, this.toolContext(tool, state, params, call)));
    } catch (error) {
      running = Promise.reject(error as Error);
    }
    running.then(
      (output) => call.settle(this.success(state, tool, output)),
      (error: unknown) => {
        const code: ErrorCode = isAgentError(error) ? error.error_code : 'TOOL_FAILED';
        call.settle(this.failure(state, code, `${tool.name} failed: ${errorMessage(error)}`));
      },
    );
    const outcome = await call.outcome;
    if (outcome === 'cancelled')
      return this.failure(state, 'CANCELLED', `${tool.name} was cancelled while running; it may have made partial changes.`);
    if (outcome === 'timeout')
      return this.failure(
        state,
        'TIMEOUT',
        `${tool.name} did not finish within ${timeoutMs / 1000} s and was cancelled; it may have made partial changes.`,
      );
    return outcome;
  }

  /** What the tool is handed (see {@link ToolCallContext}); `requestEscalation` asks through this executor. */
  private toolContext(tool: RegisteredTool, state: CallState, params: unknown, call: RunningCall): ToolContext {
    const context = new ToolCallContext(this.options.workspaceRoot, this.logger, tool.name, call, this.options.sandbox);
    context.requestEscalation = (level, reason) => this.escalate(tool, state, params, level, reason, call.signal);
    return context;
  }

  private async escalate(
    tool: RegisteredTool,
    state: CallState,
    params: unknown,
    level: DangerLevel,
    reason: string,
    signal: AbortSignal,
  ): Promise<boolean> {
    const verdict = this.policy.decideLevel(level);
    const record = (granted: boolean, answeredBy?: string): boolean => {
      (state.escalations ??= []).push({ level, reason, granted, ...(answeredBy ? { answeredBy } : {}) });
      return granted;
    };
    if (verdict.rule === 'deny') return record(false);
    if (verdict.rule === 'allow') return record(true, verdict.approvedBy);
    const control = this.options.control;
    if (!control) return record(false);
    // An "always" answer to an escalation counts once: session grants never cover escalations.
    const answer = await this.askPerson(control, tool, state, params, level, reason, signal);
    return record(answer.outcome === 'approved' || answer.outcome === 'always', answer.answeredBy);
  }

  /** Sends one approval request (with its preview) through the control channel. */
  private async askPerson(
    control: ControlProtocol,
    tool: RegisteredTool,
    state: CallState,
    params: unknown,
    dangerLevel: DangerLevel,
    reason: string,
    signal?: AbortSignal,
  ): Promise<ApprovalAnswer> {
    const requestId = randomUUID();
    const toolName = tool.name;
    const preview = await previewOf(this.options.preview, tool, params, this.options.workspaceRoot, this.logger);
    const answer = await control.requestApproval(
      {
        id: requestId,
        tool: toolName,
        dangerLevel,
        params: state.shownParams(),
        preview,
        reason,
        requestedBy: state.requestedBy,
        callId: state.callId,
        timeoutMs: this.options.approvalTimeoutMs,
      },
      signal,
    );
    return answer;
  }

  private success(state: CallState, tool: RegisteredTool, output: ToolOutput | string): ToolCallResult {
    const content = typeof output === 'string' ? output : String(output?.content ?? '');
    const data = typeof output === 'string' ? undefined : output?.data;
    const clipped = this.clip(redactSecrets(content) || '(no output)', tool.maxContentChars);
    return callResult(state, true, clipped, data === undefined ? undefined : redactValue(data));
  }

  private failure(state: CallState, code: ErrorCode, message: string): ToolCallResult {
    const safe = this.clip(redactSecrets(message));
    return callResult(state, false, `Error: ${safe}`, undefined, { error_code: code, message: safe });
  }

  private clip(text: string, toolMax?: number): string {
    const max = toolMax ?? this.options.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS;
    return text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters cut]` : text;
  }

  /** Remembers and logs the call; returns the audit write to wait for, when there is an audit trail. */
  private finish(state: CallState, result: ToolCallResult, store: boolean, callAudit?: ToolAuditSink): Promise<void> | undefined {
    if (store) this.memory.remember(Date.now(), state, result);
    // The record's fields only when the record goes anywhere (a logger of the caller's own decides for itself).
    if (this.options.logger || logLevelEnabled('debug'))
      this.logger.debug('tool call finished', {
        tool: state.name,
        ok: result.ok,
        approval: result.approval,
        code: result.error?.error_code,
      });
    const audit = this.options.audit;
    if (!audit && !callAudit) return undefined;
    return this.writeAudit(audit && callAudit ? [audit, callAudit] : [(audit ?? callAudit)!], state, result);
  }

  private async writeAudit(sinks: readonly ToolAuditSink[], state: CallState, result: ToolCallResult): Promise<void> {
    const record = auditRecordOf(state, result);
    for (const sink of sinks) {
      try {
        await sink(record);
      } catch (error) {
        this.logger.warn('the audit sink failed', { tool: state.name, error: errorMessage(error) });
      }
    }
  }
}

/** True for a value shaped like a ToolCallResult (what a wrapToolCall hook must resolve to). */
function isToolCallResult(value: unknown): value is ToolCallResult {
  const result = value as Partial<ToolCallResult> | null | undefined;
  return typeof result === 'object' && result !== null && typeof result.ok === 'boolean' && typeof result.content === 'string';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
