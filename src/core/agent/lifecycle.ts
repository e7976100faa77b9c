import type { ChatMessage, LlmResult } from '../llm/types';
import type { ToolCallResult } from '../tools/types';

/** What `afterModel` decides about a model response. */
export type HookAction =
  | { type: 'continue' }
  | { type: 'approve' }
  | { type: 'reject'; reason: string }
  | { type: 'modify'; response: LlmResult };

/** Constructors of {@link HookAction} values: `HookAction.reject('reason')`, `HookAction.modify(response)`, ... */
export const HookAction = {
  continue: (): HookAction => ({ type: 'continue' }),
  approve: (): HookAction => ({ type: 'approve' }),
  reject: (reason: string): HookAction => ({ type: 'reject', reason }),
  modify: (response: LlmResult): HookAction => ({ type: 'modify', response }),
};

type MaybePromise<T> = T | Promise<T>;

/**
 * Six optional hooks around an agent run. A missing hook is a passthrough. Hooks run in
 * registration order; wrap hooks compose with the first registered outermost.
 */
export interface AgentLifecycle {
  /** Shown in errors thrown from this hook set. */
  name?: string;
  /** May return replacement inputs. */
  beforeAgent?(input: Record<string, unknown>): MaybePromise<Record<string, unknown> | void>;
  /** May return replacement messages (e.g. redacted). */
  beforeModel?(messages: ChatMessage[]): MaybePromise<ChatMessage[] | void>;
  wrapModelCall?(next: () => Promise<LlmResult>): Promise<LlmResult>;
  afterModel?(response: LlmResult): MaybePromise<HookAction | void>;
  wrapToolCall?(toolName: string, next: () => Promise<ToolCallResult>, params: unknown): Promise<ToolCallResult>;
  /** May return a replacement result. */
  afterAgent?<R extends Record<string, unknown>>(result: R): MaybePromise<R | void>;
}
