import type { ToolCallPreviewMessage } from '../control/messages';
import { Listeners } from '../control/transport';
import type { ApprovalOutcome, DangerLevel, ToolCallResult } from './types';

/** Events a ToolExecutor emits, for the supervisor, the panel and the CLI to show. */
export interface ToolExecutorEvents {
  /** A call needs a person; the request (same id) went to the control channel. */
  approval_requested: {
    requestId: string;
    tool: string;
    callId?: string;
    dangerLevel: DangerLevel;
    params: unknown;
    preview?: ToolCallPreviewMessage;
    reason?: string;
  };
  /** The approval request ended (answered, timed out, cancelled). */
  approval_answered: {
    requestId: string;
    tool: string;
    callId?: string;
    outcome: ApprovalOutcome;
    answeredBy?: string;
    reason?: string;
  };
  /** A call passed validation and approval and is about to run. */
  tool_started: { tool: string; callId?: string; params: unknown; approval: ApprovalOutcome; approvedBy?: string };
  /** Every call ends here, also unknown tools, invalid arguments and denials (then ok=false). */
  tool_finished: { result: ToolCallResult; params: unknown };
}

/** A minimal typed event emitter; a throwing listener is reported to `onListenerError`, never to the emitter. */
export class TypedEvents<E extends object> {
  private readonly listeners = new Map<keyof E, Listeners<never>>();

  constructor(private readonly onListenerError: (event: keyof E, error: unknown) => void = () => undefined) {}

  /** Subscribes; returns an unsubscribe function. */
  on<K extends keyof E>(event: K, listener: (payload: E[K]) => void): () => void {
    let list = this.listeners.get(event);
    if (!list) this.listeners.set(event, (list = new Listeners<never>()));
    return list.add(listener);
  }

  /** True when `event` has a listener (so an emitter can skip building its payload). */
  has(event: keyof E): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  /** Calls every listener of `event`. */
  emit<K extends keyof E>(event: K, payload: E[K]): void {
    for (const error of this.listeners.get(event)?.emit(payload as never) ?? []) this.onListenerError(event, error);
  }
}
