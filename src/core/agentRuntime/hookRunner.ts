import { toAgentError } from '../errors/agentError';
import type { ChatMessage, LlmResult } from '../llm/types';
import type { ToolCallWrapper } from '../tools/types';
import { HookError, HookRejectedError } from './errors';
import type { AgentLifecycle, HookAction } from './lifecycle';

/**
 * Runs a list of {@link AgentLifecycle} hook sets: value hooks in registration order, wrap hooks composed
 * with the first registered outermost. A hook that throws surfaces as {@link HookError} naming it; an
 * `afterModel` reject becomes {@link HookRejectedError}. Errors raised *below* a wrap hook (by the model
 * or the tool) pass through unchanged, they are not blamed on the hook.
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
    return this.chain('beforeAgent', input, (hook, current) => hook.beforeAgent!(current));
  }

  /** `beforeModel` in order; each may replace the messages for the next. */
  beforeModel(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return this.chain('beforeModel', messages, (hook, current) => hook.beforeModel!(current));
  }

  /** Runs `call` inside every `wrapModelCall`, the first registered outermost. */
  wrapModelCall(call: () => Promise<LlmResult>): Promise<LlmResult> {
    if (!this.wrapsModel) return call();
    return this.composeWraps('wrapModelCall', call, (hook, next) => hook.wrapModelCall!(next));
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
      if (action?.type === 'reject') throw new HookRejectedError(this.names[i]!, action.reason, { hookPoint: 'afterModel' });
      if (action?.type === 'modify') current = action.response;
    }
    return current;
  }

  /** The `wrapToolCall` hooks composed into one wrapper (first registered outermost), or undefined if none. */
  toolCallWrapper(): ToolCallWrapper | undefined {
    if (!this.hooks.some((h) => h.wrapToolCall !== undefined)) return undefined;
    return (toolName, call, params) =>
      this.composeWraps('wrapToolCall', call, (hook, next) => hook.wrapToolCall!(toolName, next, params));
  }

  /** `afterAgent` in order; each may replace the result for the next. */
  afterAgent<R extends Record<string, unknown>>(result: R): Promise<R> {
    return this.chain('afterAgent', result, (hook, current) => hook.afterAgent!(current));
  }

  /** Runs one replacing hook point in registration order: a returned value replaces the current one. */
  private async chain<T>(
    point: 'beforeAgent' | 'beforeModel' | 'afterAgent',
    value: T,
    invoke: (hook: AgentLifecycle, current: T) => unknown,
  ): Promise<T> {
    let current = value;
    for (let i = 0; i < this.hooks.length; i++) {
      const hook = this.hooks[i]!;
      if (!hook[point]) continue;
      let next = this.guard(i, point, () => invoke(hook, current));
      if (isThenable(next)) next = await next;
      if (next) current = next as T;
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
  ): Promise<T> {
    const inner = new WeakSet<object>();
    let chain = (): Promise<T> => call().catch((e: unknown) => rethrowMarked(e, inner));
    for (let i = this.hooks.length - 1; i >= 0; i--) {
      const hook = this.hooks[i]!;
      if (!hook[point]) continue;
      const next = chain;
      chain = () => this.guardWrap(i, point, inner, () => invoke(hook, next)).catch((e: unknown) => rethrowMarked(e, inner));
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
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** Marks an error as coming from below the wrap hooks, so no hook is blamed for it. */
function rethrowMarked(e: unknown, inner: WeakSet<object>): never {
  if (typeof e === 'object' && e !== null) inner.add(e);
  throw e;
}
