import type { AgentError, ErrorInfo } from '../../errors/agentError';
import { isoTime } from '../../logging/isoTime';
import type { AgentRun } from '../agentRun';
import { toRunError } from '../errorCauses';
import { AgentSettingsError } from '../errors';
import { isThenable } from '../hookRunner';
import { failureTermination, type TerminationReason } from '../events';
import { finishedOutput, prepareExecution } from './prepareExecution';
import type { ActionRecord, ExecutionStrategy, StrategyHost, StrategyResult } from './types';

/** Default of `maxToolCallsPerMessage`: tool calls one model message may have executed. */
export const DEFAULT_MAX_TOOL_CALLS_PER_MESSAGE = 32;

/** Options of {@link MultiCycleStrategy}. */
export interface MultiCycleOptions {
  /** Upper bound on model calls; reaching it ends the run with `max_cycles`. */
  maxCycles: number;
  /**
   * Most tool calls of one model message that are executed (default 32); the rest are answered with a
   * tool message saying they were not executed, so one reply cannot write thousands of files.
   */
  maxToolCallsPerMessage?: number;
}

/**
 * Runs cycles until the agent says it is done: per cycle `preCycle` → model call → `parseCycleResult` →
 * `shouldTerminate` → `extractObservation` (which runs at most `maxToolCallsPerMessage` tool calls) → `doneAfterObservation`. Keeps `action_history` and `observations` and always ends
 * with a termination reason (`finish`, `max_cycles`, `hook_rejected`, `error`, `cancelled`). A run that
 * ends early returns its partial output plus `error` (and the error itself as `failure`); the agent then
 * returns both with `errorHandling`, or throws the error without it (the same rule as single shot).
 */
export class MultiCycleStrategy implements ExecutionStrategy {
  readonly name = 'multi_cycle';
  readonly maxCycles: number;
  /** Tool calls of one model message that are executed; see {@link MultiCycleOptions.maxToolCallsPerMessage}. */
  readonly maxToolCallsPerMessage: number;

  constructor(options: MultiCycleOptions) {
    const problems: string[] = [];
    if (!Number.isInteger(options.maxCycles) || options.maxCycles < 1) {
      problems.push(`maxCycles: must be a whole number of at least 1 (got ${options.maxCycles})`);
    }
    const maxToolCalls = options.maxToolCallsPerMessage ?? DEFAULT_MAX_TOOL_CALLS_PER_MESSAGE;
    if (!Number.isInteger(maxToolCalls) || maxToolCalls < 1) {
      problems.push(`maxToolCallsPerMessage: must be a whole number of at least 1 (got ${maxToolCalls})`);
    }
    if (problems.length > 0) throw new AgentSettingsError(problems);
    this.maxCycles = options.maxCycles;
    this.maxToolCallsPerMessage = maxToolCalls;
  }

  /** One execution: cycles of preCycle → model call → parseCycleResult → shouldTerminate → extractObservation, up to maxCycles. */
  async run(host: StrategyHost, run: AgentRun, inputs: Record<string, unknown>): Promise<StrategyResult> {
    let start = prepareExecution(host, run, inputs);
    if (isThenable(start)) start = await start;
    const { prepared, prompt } = start;
    if (!host.createCycleHandlers) {
      throw new AgentSettingsError(['strategy: multi_cycle needs an agent that defines cycles (e.g. ReActAgent)']);
    }
    const handlers = host.createCycleHandlers(run, prompt, prepared);
    const actionHistory: ActionRecord[] = [];
    const observations: string[] = [];
    /** When each action was taken (epoch ms), formatted into its `timestamp` at the end: one pass over warm code. */
    const actionTimes: number[] = [];
    let terminationReason: TerminationReason = 'max_cycles';
    let lastParsed: unknown;
    let error: ErrorInfo | undefined;
    let failure: AgentError | undefined;
    try {
      for (let cycle = 1; cycle <= this.maxCycles; cycle++) {
        run.throwIfCancelled();
        run.cycles = cycle;
        if (run.observed) run.emit({ type: 'cycle_started', agentId: run.agentId, cycle });
        // Handlers may answer at once or with a promise; only a promise is awaited (each await is a microtask hop).
        let messages = handlers.preCycle(cycle, observations, prepared);
        if (isThenable(messages)) messages = await messages;
        const result = await run.callModel(prompt, messages, { ...handlers.modelOptions?.(cycle), cycle });
        lastParsed = handlers.parseCycleResult(result, cycle);
        if (isThenable(lastParsed)) lastParsed = await lastParsed;
        let done = handlers.shouldTerminate(lastParsed, cycle);
        if (isThenable(done)) done = await done;
        if (done) {
          terminationReason = 'finish';
          break;
        }
        const steps = await handlers.extractObservation(lastParsed, cycle, {
          maxToolCallsPerMessage: this.maxToolCallsPerMessage,
        });
        // The steps of one cycle were taken together: one time for them all, written out when the run ends.
        const at = Date.now();
        for (const step of steps) {
          actionHistory.push({ cycle, ...step, timestamp: '' });
          actionTimes.push(at);
          observations.push(step.observation);
        }
        let reached = handlers.doneAfterObservation?.(cycle);
        if (isThenable(reached)) reached = await reached;
        if (reached) {
          terminationReason = 'finish';
          break;
        }
      }
    } catch (e) {
      const err = (failure = toRunError(e));
      terminationReason = run.signal?.aborted ? 'cancelled' : failureTermination(err.error_code);
      error = err.toJSON();
    }
    stampActions(actionHistory, actionTimes);
    let final = handlers.finalOutput({ lastParsed, terminationReason, actionHistory, observations });
    if (isThenable(final)) final = await final;
    const output: Record<string, unknown> = { ...final, action_history: actionHistory, observations };
    if (error) return { output, terminationReason, error, failure };
    let finished = finishedOutput(host, run, output);
    if (isThenable(finished)) finished = await finished;
    return { output: finished, terminationReason };
  }
}

/** Writes each action's time as its ISO `timestamp`. */
function stampActions(actions: ActionRecord[], times: readonly number[]): void {
  for (let i = 0; i < actions.length; i++) actions[i]!.timestamp = isoTime(times[i]!);
}
