import type { ErrorCode, ErrorInfo } from '../errors/agentError';
import type { FinishReason, TokenUsage } from '../llm/types';
import type { ToolCallResult } from '../tools/types';
import { getLogger } from '../logging/logger';

/** Why a run ended. Single-shot runs end with `finish` or `error`/`cancelled`/`hook_rejected`. */
export type TerminationReason = 'finish' | 'max_cycles' | 'hook_rejected' | 'error' | 'cancelled';

/** How a run that failed with `code` ended: `cancelled`, `hook_rejected`, or `error` for anything else. */
export function failureTermination(code: ErrorCode): TerminationReason {
  return code === 'CANCELLED' ? 'cancelled' : code === 'HOOK_REJECTED' ? 'hook_rejected' : 'error';
}

/**
 * What an agent reports while it runs, for the supervisor, the panel and the CLI. `cycle` is 1-based;
 * single-shot runs report cycle 1 (and 2.. for repair calls).
 */
export type AgentEvent =
  | { type: 'run_started'; agentId: string; strategy: string }
  | { type: 'cycle_started'; agentId: string; cycle: number }
  | {
      type: 'model_called';
      agentId: string;
      cycle: number;
      model: string;
      usage: TokenUsage;
      finishReason: FinishReason;
      toolCalls: number;
      /** How many of `toolCalls` the model wrote into its text and the client read from there (absent: none). */
      toolCallsFromText?: number;
      latencyMs: number;
      text: string;
    }
  /** A piece of the model's text as it streams (only with `streamText`); the call's whole text follows in `model_called`. */
  | { type: 'text_delta'; agentId: string; cycle: number; delta: string }
  | { type: 'tool_started'; agentId: string; cycle: number; toolName: string; callId: string; params: unknown }
  | {
      type: 'tool_called';
      agentId: string;
      cycle: number;
      toolName: string;
      callId: string;
      params: unknown;
      result: ToolCallResult;
    }
  | {
      type: 'finished';
      agentId: string;
      terminationReason: TerminationReason;
      cycles: number;
      usage: TokenUsage;
      executionTimeMs: number;
      error?: ErrorInfo;
    };

/** Receives agent events. A listener that throws is logged and otherwise ignored. */
export type AgentEventListener = (event: AgentEvent) => void;

/** Calls each listener; never lets a listener break the run. */
export function deliverEvent(listeners: Iterable<AgentEventListener>, event: AgentEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (e) {
      getLogger('agent').warn('An agent event listener threw; ignoring it.', { event: event.type, error: e });
    }
  }
}
