import { toAgentError } from '../errors/agentError';
import type { ChatMessage, LlmResult } from '../llm/types';
import type { ToolCallWrapper } from '../tools/types';
import { AgentSettingsError, HookError, HookRejectedError, describeValue, type InvalidHookValue } from './errors';
import { HOOK_POINTS, type AgentLifecycle, type HookAction } from './lifecycle';

/**
 * Runs a list of {@link AgentLifecycle} hook sets: value hooks in registration order, wrap hooks composed
 * with the first registered outermost. A hook that throws surfaces as {@link HookError} naming it; an
 * `afterModel` reject becomes {@link HookRejectedError}. A hook that returns something its point does not
 * take (an action that is not one of the four, inputs that are not an object, a wrap hook that resolves to
 * nothing...) fails closed with a CONFIG {@link HookError} naming the hook, the point and the value. Errors
 * raised *below* a wrap hook (by the model or the tool) pass through unchanged, they are not blamed on the hook.
 *
 * Agents create a runner only when at least one hook is registered (the zero-hook fast path allocates none).
 */
export class HookRunner {
  private readonly hooks: readonly AgentLifecycle[];
  private readonly names: readonly string[];
  private readonly wrapsModel: boolean;

  constructor(hooks: readonly AgentLifecycle[]) {
    // A copy: the agent's list may grow later, and names and wrapsModel describe this list.
    this.hooks = [...hooks];
    this.names = hooks.map((h, i) => h.name ?? `hook#${i + 1}`);
    this.wrapsModel = hooks.some((h) => h.wrapModelCall !== undefined);
  }

  /** Number of registered hook sets. */
  get size(): number {
    return this.hooks.length;
  }

  /** `beforeAgent` in order; each may replace the inputs for the next. */
  beforeAgent(input: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.chain('beforeAgent', input, (hook, current) => hook.beforeAgent!(current), isFields, OBJECT_OF_INPUTS);
  }

  /** `beforeModel` in order; each may replace the messages for the next. */
  beforeModel(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return this.chain('beforeModel', messages, (hook, current) => hook.beforeModel!(current), isMessages, MESSAGES);
  }

  /** Runs `call` inside every `wrapModelCall`, the first registered outermost. */
  wrapModelCall(call: () => Promise<LlmResult>): Promise<LlmResult> {
    if (!this.wrapsModel) return call();
    return this.composeWraps('wrapModelCall', call, (hook, next) => hook.wrapModelCall!(next), isLlmResult, LLM_RESULT);
  }

  /**
   * `afterModel` in order: reject stops with HookRejectedError, modify replaces the response downstream,
   * continue and approve pass it on. Returns the response the hooks settled on.
   */
  async afterModel(response: LlmResult): Promise<LlmResult> {
    let current = response;
    for (let i = 0; i < this.hooks.length; i++) {
      const hook = this.hooks[i]!;
      if (!hook.afterModel) continue;
      let action: HookAction | void | Promise<HookAction | void> = this.guard(i, 'afterModel', () => hook.afterModel!(current));
      if (isThenable(action)) action = await action;
      if (action === undefined) continue;
      if (!isHookAction(action)) throw this.invalid(i, 'afterModel', { value: action, expected: HOOK_ACTIONS, kind: 'action' });
      if (action.type === 'reject') throw new HookRejectedError(this.names[i]!, action.reason, { hookPoint: 'afterModel' });
      if (action.type === 'modify') current = action.response;
    }
    return current;
  }

  /** The `wrapToolCall` hooks composed into one wrapper (first registered outermost), or undefined if none. */
  toolCallWrapper(): ToolCallWrapper | undefined {
    if (!this.hooks.some((h) => h.wrapToolCall !== undefined)) return undefined;
    return (toolName, call, params) =>
      this.composeWraps(
        'wrapToolCall',
        call,
        (hook, next) => hook.wrapToolCall!(toolName, next, params),
        isToolResult,
        TOOL_RESULT,
      );
  }

  /** `afterAgent` in order; each may replace the result for the next. */
  afterAgent<R extends Record<string, unknown>>(result: R): Promise<R> {
    return this.chain('afterAgent', result, (hook, current) => hook.afterAgent!(current), isFields, OBJECT_OF_RESULT);
  }

  /** Runs one replacing hook point in registration order: a returned value replaces the current one. */
  private async chain<T>(
    point: 'beforeAgent' | 'beforeModel' | 'afterAgent',
    value: T,
    invoke: (hook: AgentLifecycle, current: T) => unknown,
    accepts: (value: unknown) => boolean,
    expected: string,
  ): Promise<T> {
    let current = value;
    for (let i = 0; i < this.hooks.length; i++) {
      const hook = this.hooks[i]!;
      if (!hook[point]) continue;
      let next = this.guard(i, point, () => invoke(hook, current));
      if (isThenable(next)) next = await next;
      if (next === undefined) continue;
      if (!accepts(next)) throw this.invalid(i, point, { value: next, expected });
      current = next as T;
    }
    return current;
  }

  /**
   * Runs `call` inside every hook that has `point`, the first registered outermost. Errors from below a
   * hook (the call itself, or an inner hook already blamed) are marked so that outer hooks are not blamed.
   */
  private composeWraps<T>(
    point: 'wrapModelCall' | 'wrapToolCall',
    call: () => Promise<T>,
    invoke: (hook: AgentLifecycle, next: () => Promise<T>) => Promise<T>,
    accepts: (value: unknown) => boolean,
    expected: string,
  ): Promise<T> {
    const inner = new WeakSet<object>();
    let chain = (): Promise<T> => call().catch((e: unknown) => rethrowMarked(e, inner));
    for (let i = this.hooks.length - 1; i >= 0; i--) {
      const hook = this.hooks[i]!;
      if (!hook[point]) continue;
      const next = chain;
      const checked = async (): Promise<T> => {
        const result = await invoke(hook, next);
        if (!accepts(result)) throw this.invalid(i, point, { value: result, expected });
        return result;
      };
      chain = () => this.guardWrap(i, point, inner, checked).catch((e: unknown) => rethrowMarked(e, inner));
    }
    return chain();
  }

  /** Runs one value hook, blaming it for what it throws; stays synchronous for synchronous hooks. */
  private guard<T>(index: number, point: string, run: () => T | Promise<T>): T | Promise<T> {
    let out: T | Promise<T>;
    try {
      out = run();
    } catch (e) {
      throw this.blame(index, point, e);
    }
    if (isThenable(out)) {
      return (out as Promise<T>).then(undefined, (e: unknown) => {
        throw this.blame(index, point, e);
      });
    }
    return out;
  }

  private async guardWrap<T>(index: number, point: string, inner: WeakSet<object>, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (typeof e === 'object' && e !== null && inner.has(e)) throw e;
      throw this.blame(index, point, e);
    }
  }

  private blame(index: number, point: string, e: unknown): Error {
    if (e instanceof HookRejectedError || e instanceof HookError) return e;
    return new HookError(this.names[index]!, point, toAgentError(e).error_code, e);
  }

  private invalid(index: number, point: string, what: InvalidHookValue): HookError {
    return new HookError(this.names[index]!, point, 'CONFIG', undefined, what);
  }
}

const HOOK_ACTIONS = 'HookAction.continue(), .approve(), .reject(reason) or .modify(response), or nothing (continue)';
const OBJECT_OF_INPUTS = 'an object of inputs, or nothing to keep them';
const MESSAGES = 'an array of chat messages ({ role, content }), or nothing to keep them';
const OBJECT_OF_RESULT = 'an object (the result), or nothing to keep it';
const LLM_RESULT = 'the response next() resolves to, or a replacement ({ text, toolCalls, ... })';
const TOOL_RESULT = 'the result next() resolves to, or a replacement ({ ok, content, ... })';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isFields(value: unknown): boolean {
  return isRecord(value) && !Array.isArray(value);
}

function isMessages(value: unknown): boolean {
  return Array.isArray(value) && value.every((m) => isRecord(m) && typeof m.role === 'string');
}

function isLlmResult(value: unknown): value is LlmResult {
  return isRecord(value) && typeof value.text === 'string' && Array.isArray(value.toolCalls);
}

function isToolResult(value: unknown): boolean {
  return isRecord(value) && typeof value.ok === 'boolean' && typeof value.content === 'string';
}

/** True for one of the four actions, well formed: a reject has a reason, a modify a response. */
function isHookAction(value: unknown): value is HookAction {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'continue':
    case 'approve':
      return true;
    case 'reject':
      return typeof value.reason === 'string';
    case 'modify':
      return isLlmResult(value.response);
    default:
      return false;
  }
}

/**
 * Checks a hook set before it is registered: an object whose hook points, when present, are functions and
 * whose `name`, when present, is a string. Throws {@link AgentSettingsError} (CONFIG) naming each bad key.
 */
export function checkHookSet(hook: unknown): asserts hook is AgentLifecycle {
  if (!isFields(hook)) throw new AgentSettingsError(['lifecycle: a hook set must be an object of optional hook functions']);
  const set = hook as Record<string, unknown>;
  const problems: string[] = [];
  if (set.name !== undefined && typeof set.name !== 'string')
    problems.push(`lifecycle.name: must be a string, got ${describeValue(set.name)}`);
  const label = typeof set.name === 'string' ? `lifecycle ${JSON.stringify(set.name)}` : 'lifecycle';
  for (const point of HOOK_POINTS) {
    const fn = set[point];
    if (fn !== undefined && typeof fn !== 'function')
      problems.push(`${label}.${point}: must be a function, got ${describeValue(fn)}`);
  }
  if (problems.length > 0) throw new AgentSettingsError(problems);
}

/** True for a promise (or any thenable): a value that is not one is used as is, without an await's microtask hop. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** Marks an error as coming from below the wrap hooks, so no hook is blamed for it. */
function rethrowMarked(e: unknown, inner: WeakSet<object>): never {
  if (typeof e === 'object' && e !== null) inner.add(e);
  throw e;
}
