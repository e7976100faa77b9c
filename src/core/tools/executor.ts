import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ApprovalAnswer, ControlProtocol } from '../control/controlProtocol';
import type { ToolCallPreviewMessage } from '../control/messages';
import { isAgentError, type ErrorCode } from '../errors/agentError';
import type { LlmToolCall, ToolSpec } from '../llm/types';
import { getLogger, logLevelEnabled, type Logger } from '../logging/logger';
import type { ProcessSandbox } from '../osSandbox/types';
import { redactSecrets, redactValue } from '../security/redact';
import { ApprovalPolicy } from './approvalPolicy';
import { Deadlines, type Expiring } from './callDeadlines';
import { DEFAULT_MAX_CONTENT_CHARS } from './contentLimits';
import type { ToolRegistry, RegisteredTool } from './registry';
import { ToolResultMemory, type RememberedToolCall } from './resultMemory';
import type { EscalationRecord, ToolAuditRecord, ToolAuditSink } from './toolAudit';
import { parseToolArguments, validateToolParams } from './toolArguments';
import { composeToolCallWrappers } from './toolCallWrapper';
import { toToolSpecs } from './toolSpecs';
import type {
  AgentToolbox,
  ApprovalOutcome,
  ExecuteCallOptions,
  DangerLevel,
  ToolCallResult,
  ToolCallWrapper,
  ToolContext,
  ToolOutput,
} from './types';

/** Default time a tool may run: 30 s. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
export { DEFAULT_MAX_CONTENT_CHARS };

/** Says what a call would change (a diff, a command line, or text), shown in the approval request. */
export type ToolPreview = (
  toolName: string,
  params: unknown,
  workspaceRoot: string,
) => Promise<ToolCallPreviewMessage | string | undefined> | ToolCallPreviewMessage | string | undefined;

/** Options of a ToolExecutor. */
export interface ToolExecutorOptions {
  registry: ToolRegistry;
  /** Absolute real path of the workspace root, handed to every tool. */
  workspaceRoot: string;
  /** Default: `new ApprovalPolicy()` (SAFE/LOW allowed, the rest asked). */
  policy?: ApprovalPolicy;
  /** Who to ask. Without one, every `ask` verdict is denied ("no one to ask"). */
  control?: ControlProtocol;
  /** Time a person has to answer one approval request (default: the protocol's, 5 min). */
  approvalTimeoutMs?: number;
  /** Previews for approval requests; default: each tool's own `preview` (see `ToolDefinition`); `false`: none. */
  preview?: ToolPreview | false;
  /** The audit trail: one record per call when given. */
  audit?: ToolAuditSink;
  /** Default per-call timeout (30 s). */
  defaultTimeoutMs?: number;
  /** How many recent calls `recentCalls()` keeps (50). */
  memorySize?: number;
  /** Longest result content fed back to the model (100 000 characters; the rest is cut with a marker); a tool's own `maxContentChars` wins. */
  maxContentChars?: number;
  /** A wrapper applied inside the per-call `wrap` of every execution. */
  wrap?: ToolCallWrapper;
  logger?: Logger;
  /** The OS sandbox handed to every tool in its ToolContext (`run_command` runs its command in it). */
  sandbox?: ProcessSandbox;
}

/** Options of one `executeTool` call. */
export interface ExecuteToolOptions {
  /** Milliseconds the tool may run (default: the executor's, 30 s). */
  timeout?: number;
  /** Keep the call in the recent-calls memory (default true). */
  storeInMemory?: boolean;
  signal?: AbortSignal;
  /** Which agent or role asked (audit trail). */
  requestedBy?: string;
  /** The `wrapToolCall` chain composed from the agent's lifecycle hooks. */
  wrap?: ToolCallWrapper;
  /** The model's tool-call id, echoed in the result. */
  callId?: string;
  /** A second audit sink for this call (an agent's own trail), besides the executor's `audit`. */
  audit?: ToolAuditSink;
}

/** One step of a tool chain. */
export interface ToolChainStep {
  name: string;
  params: unknown;
  options?: ExecuteToolOptions;
}

/** What a chain did: every result in order, and where it stopped when it stopped early. */
export interface ToolChainResult {
  results: ToolCallResult[];
  /** True when every executed step succeeded and none was skipped. */
  ok: boolean;
  /** Index of the failing step that stopped the chain (stopOnError only). */
  stoppedAt?: number;
  /** Steps never run because the chain stopped. */
  skipped: string[];
}

const NOTHING_CHANGED = 'Nothing was executed or changed.';

interface CallState {
  name: string;
  callId?: string;
  requestedBy?: string;
  dangerLevel?: DangerLevel;
  /** The parameters as the model sent them (never shown: see `params`). */
  rawParams: unknown;
  /** The redacted parameters memory and the audit trail show; set by {@link shownParams}. */
  params?: unknown;
  approval: ApprovalOutcome;
  approvedBy?: string;
  escalations: EscalationRecord[];
  started: number;
}

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
    const state: CallState = {
      name,
      callId: options.callId,
      requestedBy: options.requestedBy,
      rawParams: params,
      approval: 'denied',
      escalations: [],
      started: performance.now(),
    };
    let result: ToolCallResult;
    try {
      result = await this.run(state, params, options);
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

  private async run(state: CallState, rawParams: unknown, options: ExecuteToolOptions): Promise<ToolCallResult> {
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
    // Redacted once, as parsed: memory and the audit trail read state.params (see shownParams).
    state.params = redactValue(parsed.value);

    const valid = validateToolParams(tool.name, tool.parameters, parsed.value);
    if (!valid.ok) return this.failure(state, 'VALIDATION', `${valid.message}\n${NOTHING_CHANGED}`);

    if (options.signal?.aborted)
      return this.failure(state, 'CANCELLED', `The run was cancelled before ${tool.name} started. ${NOTHING_CHANGED}`);

    let refusal = this.approve(tool, state, valid.value, options.signal);
    if (refusal instanceof Promise) refusal = await refusal;
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
      state.escalations.push({ level, reason, granted, ...(answeredBy ? { answeredBy } : {}) });
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
    const preview = await this.previewFor(tool, params);
    const answer = await control.requestApproval(
      {
        id: requestId,
        tool: toolName,
        dangerLevel,
        params: shownParams(state),
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

  private async previewFor(tool: RegisteredTool, params: unknown): Promise<ToolCallPreviewMessage | undefined> {
    const option = this.options.preview;
    if (option === false) return undefined;
    const workspaceRoot = this.options.workspaceRoot;
    const preview =
      option !== undefined
        ? () => option(tool.name, params, workspaceRoot)
        : tool.preview
          ? () => tool.preview?.(params, { workspaceRoot })
          : undefined;
    if (!preview) return undefined;
    const name = tool.name;
    try {
      // Redacted here, so the request shows a safe preview.
      const value = await preview();
      if (value === undefined || value === null) return undefined;
      return redactValue(typeof value === 'string' ? { kind: 'text', text: value } : value);
    } catch (error) {
      this.logger.debug('no preview for tool call', { tool: name, error: errorMessage(error) });
      return undefined;
    }
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
    if (store) this.memory.record(Date.now(), shownParams(state), result);
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
    const record: ToolAuditRecord = {
      time: new Date().toISOString(),
      tool: state.name,
      ...(state.callId !== undefined ? { callId: state.callId } : {}),
      ...(state.requestedBy !== undefined ? { requestedBy: state.requestedBy } : {}),
      ...(state.dangerLevel !== undefined ? { dangerLevel: state.dangerLevel } : {}),
      params: shownParams(state),
      approval: result.approval,
      ...(result.approvedBy !== undefined ? { approvedBy: result.approvedBy } : {}),
      ok: result.ok,
      ...(result.error ? { errorCode: result.error.error_code } : {}),
      durationMs: result.durationMs,
      resultSize: result.content.length,
      ...(state.escalations.length ? { escalations: [...state.escalations] } : {}),
    };
    for (const sink of sinks) {
      try {
        await sink(record);
      } catch (error) {
        this.logger.warn('the audit sink failed', { tool: state.name, error: errorMessage(error) });
      }
    }
  }
}

/**
 * A result's common fields, in the order results always had them (the optional ones only when set): one object
 * built in place instead of spreads of small ones.
 */
function callResult(
  state: CallState,
  ok: boolean,
  content: string,
  data?: unknown,
  error?: ToolCallResult['error'],
): ToolCallResult {
  const result = { toolName: state.name } as ToolCallResult;
  if (state.callId !== undefined) result.callId = state.callId;
  result.ok = ok;
  result.content = content;
  if (data !== undefined) result.data = data;
  if (error) result.error = error;
  result.approval = state.approval;
  if (state.approvedBy !== undefined) result.approvedBy = state.approvedBy;
  result.durationMs = performance.now() - state.started;
  return result;
}

/** The parameters memory and the audit trail show: the parsed ones, else the raw ones, redacted once. */
function shownParams(state: CallState): unknown {
  if (!('params' in state))
    state.params = typeof state.rawParams === 'string' ? redactSecrets(state.rawParams) : redactValue(state.rawParams);
  return state.params;
}

/**
 * The ToolContext of one call. Its signal and logger are made when the tool first reads them (most calls never do),
 * as getters of the class: getters in an object literal were made anew for every call.
 */
class ToolCallContext implements ToolContext {
  requestEscalation?: (level: DangerLevel, reason: string) => Promise<boolean>;

  constructor(
    readonly workspaceRoot: string,
    private readonly parentLogger: Logger,
    private readonly toolName: string,
    private readonly call: RunningCall,
    readonly sandbox: ProcessSandbox | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.call.signal;
  }

  get logger(): Logger {
    return this.parentLogger.child(this.toolName);
  }
}

/** How a running call ended: the tool's result, or its deadline or the caller's abort came first. */
type CallOutcome = ToolCallResult | 'timeout' | 'cancelled';

/** Every executor's running calls' deadlines, on one timer. */
const callDeadlines = new Deadlines();

/**
 * One running tool call: settles once, with the tool's result or on its deadline or the caller's abort, whichever
 * comes first, and then aborts the tool's signal. That signal is made when the tool first reads it (most calls
 * never do: an AbortSignal per call was a large share of the executor's own cost); read after the abort, it is
 * already aborted. The instance is the abort listener and its own deadline's entry (one shared timer: callDeadlines.ts), so a call makes no closures and no timer.
 */
class RunningCall implements Expiring {
  readonly outcome: Promise<CallOutcome>;
  private resolve!: (outcome: CallOutcome) => void;
  private settled = false;
  private controller?: AbortController;
  private abortReason?: { value: unknown };

  constructor(
    private readonly outer: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.outcome = new Promise<CallOutcome>((resolve) => {
      this.resolve = resolve;
    });
    callDeadlines.add(this, timeoutMs);
    outer?.addEventListener('abort', this, { once: true });
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason) this.controller.abort(this.abortReason.value);
    }
    return this.controller.signal;
  }

  /** Its deadline passed. */
  expire(): void {
    this.end('timeout', new Error('timeout'));
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.end('cancelled', this.outer?.reason);
  }

  /** Aborts the tool's signal and settles with `why` (unless already settled). */
  end(why: 'timeout' | 'cancelled', reason: unknown): void {
    if (this.settled) return;
    this.abortReason = { value: reason };
    this.controller?.abort(reason);
    this.settle(why);
  }

  settle(outcome: CallOutcome): void {
    if (this.settled) return;
    this.settled = true;
    callDeadlines.delete(this);
    this.outer?.removeEventListener('abort', this);
    this.resolve(outcome);
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
