import type { ToolCallPreviewMessage } from '../control/messages';
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
  approval_answered: { requestId: string; tool: string; callId?: string; outcome: ApprovalOutcome; answeredBy?: string; reason?: string };
  /** A call passed validation and approval and is about to run. */
  tool_started: { tool: string; callId?: string; params: unknown; approval: ApprovalOutcome; approvedBy?: string };
  /** Every call ends here, also unknown tools, invalid arguments and denials (then ok=false). */
  tool_finished: { result: ToolCallResult; params: unknown };
}

/** A listener of one executor event. */
export type ToolExecutorListener<K extends keyof ToolExecutorEvents> = (event: ToolExecutorEvents[K]) => void;

/** A minimal typed event emitter; a throwing listener is reported to `onListenerError`, never to the emitter. */
export class TypedEvents<E extends object> {
  private readonly listeners = new Map<keyof E, Set<(event: never) => void>>();

  constructor(private readonly onListenerError: (event: keyof E, error: unknown) => void = () => undefined) {}

  /** Subscribes; returns an unsubscribe function. */
  on<K extends keyof E>(event: K, listener: (payload: E[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (event: never) => void);
    return () => set.delete(listener as (event: never) => void);
  }

  /** Calls every listener of `event`. */
  emit<K extends keyof E>(event: K, payload: E[K]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as (payload: E[K]) => void)(payload);
      } catch (error) {
        this.onListenerError(event, error);
      }
    }
  }
}
