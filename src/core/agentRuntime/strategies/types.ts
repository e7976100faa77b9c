import type { AgentError, ErrorInfo } from '../../errors/agentError';
import type { ChatMessage, LlmResult } from '../../llm/types';
import type { AgentRun, ModelCallOptions } from '../agentRun';
import type { TerminationReason } from '../events';
import type { PreparedPrompt } from '../promptSource';

/** One step of a multi-cycle run as recorded in `action_history`. */
export interface ActionRecord {
  cycle: number;
  thought: string;
  action: string;
  action_input: unknown;
  observation: string;
  /** ISO time the step finished. */
  timestamp: string;
}

/** What acting on one cycle produced (one per tool call; the strategy adds cycle and timestamp). */
export type CycleStep = Omit<ActionRecord, 'cycle' | 'timestamp'>;

/** Bounds the strategy sets on each cycle, handed to `extractObservation`. */
export interface CycleLimits {
  /**
   * Most tool calls of one model message that may run; the rest must not be executed, and each still
   * gets a tool message saying so (every tool_call id needs an answer).
   */
  maxToolCallsPerMessage: number;
}

/** The run so far, given to `finalOutput`. */
export interface CycleRunState<P> {
  lastParsed?: P;
  terminationReason: TerminationReason;
  actionHistory: readonly ActionRecord[];
  observations: readonly string[];
}

/**
 * The per-run callbacks a multi-cycle agent provides (fresh per execution, so runs never share state).
 * Per cycle: `preCycle` → model call → `parseCycleResult` → `shouldTerminate` → `extractObservation`.
 */
export interface CycleHandlers<P = LlmResult> {
  /** Messages for this cycle's model call. */
  preCycle(
    cycle: number,
    observations: readonly string[],
    inputs: Record<string, unknown>,
  ): ChatMessage[] | Promise<ChatMessage[]>;
  /** Extra call options for this cycle (tools). */
  modelOptions?(cycle: number): ModelCallOptions;
  /** Turns the cycle's model response into the agent's own representation (e.g. text plus tool calls). */
  parseCycleResult(result: LlmResult, cycle: number): P | Promise<P>;
  /** True ends the run with `finish`. May throw (e.g. OutputValidationError) to end it with `error`. */
  shouldTerminate(parsed: P, cycle: number): boolean | Promise<boolean>;
  /** Acts on the cycle (runs tools, within `limits`) and reports what was observed. */
  extractObservation(parsed: P, cycle: number, limits?: CycleLimits): CycleStep[] | Promise<CycleStep[]>;
  /**
   * Asked after `extractObservation`: true ends the run with `finish` without another model call (the goal the
   * agent works for was reached by what the cycle did, e.g. the tests a tool call made fail or pass as required).
   */
  doneAfterObservation?(cycle: number): boolean | Promise<boolean>;
  /** The output fields once the run has ended (action_history and observations are added by the strategy). */
  finalOutput(state: CycleRunState<P>): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** The agent as a strategy sees it: its extension points. */
export interface StrategyHost {
  /** See `BaseAgent.preExecute`. */
  preExecute(inputs: Record<string, unknown>, run: AgentRun): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** See `BaseAgent.preparePrompt`. */
  preparePrompt(inputs: Record<string, unknown>, run: AgentRun): PreparedPrompt | Promise<PreparedPrompt>;
  /** See `BaseAgent.parseResult`. */
  parseResult(output: Record<string, unknown>, run: AgentRun): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** See `BaseAgent.postExecute`. */
  postExecute(output: Record<string, unknown>, run: AgentRun): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Multi-cycle agents only. */
  createCycleHandlers?(run: AgentRun, prompt: PreparedPrompt, inputs: Record<string, unknown>): CycleHandlers<unknown>;
}

/** What a strategy hands back to the agent. */
export interface StrategyResult {
  output: Record<string, unknown>;
  terminationReason: TerminationReason;
  /** Set when a multi-cycle run ended with hook_rejected, error or cancelled (the partial output is kept). */
  error?: ErrorInfo;
  /** The error behind `error`, thrown as is (with its cause) when the agent has no `errorHandling`. */
  failure?: AgentError;
}

/** How an agent turns inputs into output: single shot or multi-cycle (or your own). */
export interface ExecutionStrategy {
  /** Reported as `metadata.strategy`. */
  readonly name: string;
  /** Runs one execution through the host's extension points; ends with a termination reason. */
  run(host: StrategyHost, run: AgentRun, inputs: Record<string, unknown>): Promise<StrategyResult>;
}
