/** What an execution takes and returns: its options, its result and metadata, and how a finished run is reported. */
import type { AuditTrail } from '../audit/auditTrail';
import type { ErrorInfo } from '../errors/agentError';
import type { TokenUsage } from '../llm/types';
import { getLogger } from '../logging/logger';
import type { PerformanceMetrics } from '../metrics/performanceMetrics';
import type { AgentRun } from './agentRun';
import type { AgentEventListener, TerminationReason } from './events';

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

/** What a finished run is reported to: the agent's id, metrics and logging setting (a BaseAgent is one). */
export interface FinishingAgent {
  readonly id: string;
  readonly metrics?: PerformanceMetrics;
  readonly config: { readonly logging?: boolean };
}

const log = getLogger('agent');

/** The metadata of run `run` of agent `agentId` with strategy `strategy`, started at `started` (`performance.now()`). */
export function executionMetadata(
  agentId: string,
  strategy: string,
  run: AgentRun,
  started: number,
  terminationReason: TerminationReason,
): ExecutionMetadata {
  const meta: ExecutionMetadata = {
    agentId,
    model: run.model,
    strategy,
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

/** Reports a finished run: the `finished` event, the agent's metrics, its log and (with one) its audit trail. */
export function finishExecution(
  agent: FinishingAgent,
  audit: AuditTrail | undefined,
  run: AgentRun,
  inputs: Record<string, unknown>,
  result: AgentResult,
  error?: ErrorInfo,
): void {
  const meta = result.metadata;
  if (run.observed) {
    run.emit({
      type: 'finished',
      agentId: agent.id,
      terminationReason: meta.terminationReason,
      cycles: run.cycles,
      usage: meta.usage,
      executionTimeMs: meta.executionTimeMs,
      ...(error ? { error } : {}),
    });
  }
  agent.metrics?.recordExecution({ durationMs: meta.executionTimeMs, success: !error, usage: meta.usage });
  if (agent.config.logging) {
    // A run the person cancelled did not fail: no warning for it.
    if (error?.error_code === 'CANCELLED') log.debug('Agent execution cancelled.', { agentId: agent.id });
    else if (error)
      log.warn('Agent execution failed.', { agentId: agent.id, error_code: error.error_code, message: error.message });
    else
      log.debug('Agent execution finished.', {
        agentId: agent.id,
        ms: Math.round(meta.executionTimeMs),
        tokens: meta.usage.totalTokens,
      });
  }
  if (audit) {
    const { metadata: _m, error: _e, ...outputs } = result;
    audit.record({
      timestamp: new Date().toISOString(),
      agentId: agent.id,
      inputs,
      ...(error ? { error } : { outputs }),
      usage: meta.usage,
      durationMs: meta.executionTimeMs,
      model: meta.model,
      terminationReason: meta.terminationReason,
    });
  }
}
