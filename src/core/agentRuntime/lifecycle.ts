import type { ChatMessage, LlmResult } from '../llm/types';
import type { ToolCallResult } from '../tools/types';

/** The six hook points of an {@link AgentLifecycle}, in the order a run reaches them. */
export const HOOK_POINTS = ['beforeAgent', 'beforeModel', 'wrapModelCall', 'afterModel', 'wrapToolCall', 'afterAgent'] as const;

/**
 * What `afterModel` decides about a model response: exactly one of these four (build them with the
 * {@link HookAction} helpers). Anything else a hook returns (a misspelt type, a bare string, a reject without a
 * reason, a modify without a response, `null`) stops the run with a CONFIG HookError; returning nothing
 * (`undefined`) is `continue`.
 */
export type HookAction =
  { type: 'continue' } | { type: 'approve' } | { type: 'reject'; reason: string } | { type: 'modify'; response: LlmResult };

/** Constructors of {@link HookAction} values: `HookAction.reject('reason')`, `HookAction.modify(response)`, ... */
export const HookAction = {
  /** Pass the response on unchanged. */
  continue: (): HookAction => ({ type: 'continue' }),
  /** Explicitly accept the response (same effect as continue: the response passes on unchanged). */
  approve: (): HookAction => ({ type: 'approve' }),
  /** Stop the run with a HookRejectedError (HOOK_REJECTED) naming the hook and this reason. */
  reject: (reason: string): HookAction => ({ type: 'reject', reason }),
  /** Replace the response for the following hooks and the agent. */
  modify: (response: LlmResult): HookAction => ({ type: 'modify', response }),
};

/** A value or a promise of it: hooks may be sync or async. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Six optional hooks around an agent run. A missing hook is a passthrough. Hooks run in
 * registration order; wrap hooks compose with the first registered outermost. Each hook point that is
 * present must be a function (checked by `withLifecycle`), and each returns what its comment says or nothing
 * (`undefined`, a passthrough); any other value fails the run with a CONFIG HookError naming the hook.
 */
export interface AgentLifecycle {
  /** Shown in errors thrown from this hook set (default `hook#<n>`). */
  name?: string;
  /** May return replacement inputs. */
  beforeAgent?(input: Record<string, unknown>): MaybePromise<Record<string, unknown> | void>;
  /** May return replacement messages (e.g. redacted). */
  beforeModel?(messages: ChatMessage[]): MaybePromise<ChatMessage[] | void>;
  /** Around every model call: call `next()` to make it (retry, cache, time, or short-circuit it). */
  wrapModelCall?(next: () => Promise<LlmResult>): Promise<LlmResult>;
  /** Judges each model response: return a {@link HookAction} (nothing = continue). */
  afterModel?(response: LlmResult): MaybePromise<HookAction | void>;
  /** Around every tool call: call `next()` to run it; may inspect `params`, time it or replace its result. */
  wrapToolCall?(toolName: string, next: () => Promise<ToolCallResult>, params: unknown): Promise<ToolCallResult>;
  /** May return a replacement result. */
  afterAgent?<R extends Record<string, unknown>>(result: R): MaybePromise<R | void>;
}
