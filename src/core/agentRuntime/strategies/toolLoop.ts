import type { ChatMessage, LlmResult, LlmToolCall, ToolSpec } from '../../llm/types';
import { toolNameMatcher } from '../../agentsAsData/toolPatterns';
import type { AgentToolbox, ToolCallResult, ToolCallWrapper } from '../../tools/types';
import type { AgentRun } from '../agentRun';
import { HookError, HookRejectedError, OutputValidationError } from '../errors';
import type { PreparedPrompt } from '../promptSource';
import { repairMessage } from '../repair';
import { capText, ConversationWindow, type ConversationWindowOptions } from './conversationWindow';
import { DEFAULT_MAX_TOOL_CALLS_PER_MESSAGE } from './multiCycle';
import type { CycleHandlers, CycleStep } from './types';

/** Limits of a tool loop's prompt, and how a caller ends it early or keeps it short (see {@link createToolLoopCycles}). */
export interface ToolLoopLimits {
  window?: ConversationWindowOptions;
  /** Tool output longer than this is cut (with a marker) before it goes back to the model. Default 8000. */
  maxObservationChars?: number;
  /**
   * Asked after each cycle's tool calls ran: true ends the run there, as finished, without asking the model for a
   * final answer (its final answer is then the text of its last message, often empty). For a goal the caller can
   * check itself better than the model can say it (the tests fail or pass as required).
   */
  goalCheck?: (steps: readonly CycleStep[], cycle: number) => boolean | Promise<boolean>;
  /**
   * Rewrites the messages of each model call after the window built them, e.g. replacing file contents that a newer
   * version later in the conversation supersedes by a one-line note. Must keep every message and tool_call id.
   */
  compactMessages?: (messages: ChatMessage[]) => ChatMessage[];
}

/**
 * The generic multi-cycle tool loop (ReAct and any agent that acts through tools), as the callbacks of
 * `MultiCycleStrategy`: each cycle is one model call with the tools; tool calls run
 * through the toolbox (with the composed `wrapToolCall` hooks) and their results go back as tool
 * messages; a reply without tool calls is the final answer (validated when the prompt has a schema).
 * The prompt stays bounded by a {@link ConversationWindow}.
 */
export function createToolLoopCycles(
  run: AgentRun,
  prompt: PreparedPrompt,
  toolbox: AgentToolbox | undefined,
  limits: ToolLoopLimits = {},
): CycleHandlers<LlmResult> {
  return new ToolLoop(run, prompt, toolbox, limits);
}

/** What one model message's tool calls left: the tool messages, the steps, and a line per call for the summary. */
interface CallsAnswered {
  steps: CycleStep[];
  toolMessages: ChatMessage[];
  /** The calls that ran, and their results in the same order. */
  executed: LlmToolCall[];
  outcomes: ToolCallResult[];
  /** What else happened to the message's calls (past the cap, cut off). */
  summaries: string[];
}

/** The tool loop's state across cycles: see {@link createToolLoopCycles}. */
class ToolLoop implements CycleHandlers<LlmResult> {
  private readonly window: ConversationWindow;
  private readonly maxChars: number;
  /** The prompt's `tools` list (exact names and `prefix*` patterns): the one filter on what the model sees and may call. */
  private readonly allowed: ((toolName: string) => boolean) | undefined;
  private readonly specs: ToolSpec[];
  private pendingRepair: string[] | undefined;
  private final: Record<string, unknown> | undefined;
  private repairs = 0;
  private goalReached = false;

  constructor(
    private readonly run: AgentRun,
    private readonly prompt: PreparedPrompt,
    private readonly toolbox: AgentToolbox | undefined,
    private readonly limits: ToolLoopLimits,
  ) {
    this.window = new ConversationWindow(limits.window);
    this.maxChars = limits.maxObservationChars ?? 8000;
    const allowed = prompt.tools ? toolNameMatcher(prompt.tools) : undefined;
    this.allowed = allowed;
    this.specs = toolbox ? toolbox.toolSpecs().filter((s) => !allowed || allowed(s.function.name)) : [];
  }

  preCycle(): ChatMessage[] {
    const messages = this.window.build(this.prompt.messages);
    return this.limits.compactMessages ? this.limits.compactMessages(messages) : messages;
  }

  modelOptions(): { tools: ToolSpec[] } {
    return { tools: this.specs };
  }

  parseCycleResult(result: LlmResult): LlmResult {
    return result;
  }

  shouldTerminate(result: LlmResult): boolean {
    const { prompt } = this;
    if (result.toolCalls.length > 0) return false;
    if (!prompt.validate) {
      this.final = { final_answer: result.text.trim() };
      return true;
    }
    const check = prompt.validate(result.text);
    if (check.ok) {
      this.final = { final_answer: result.text.trim(), ...check.value };
      return true;
    }
    if (this.repairs >= this.run.config.maxRepairAttempts) {
      throw new OutputValidationError(
        `The final answer of ${prompt.label} did not match its output schema after ${this.repairs} repair attempt(s).`,
        check.violations,
        { agent: prompt.label, attempts: this.repairs, output_excerpt: result.text.slice(0, 500) },
      );
    }
    this.pendingRepair = check.violations;
    return false;
  }

  async extractObservation(result: LlmResult, cycle: number, limits?: { maxToolCallsPerMessage?: number }): Promise<CycleStep[]> {
    if (this.pendingRepair) return this.askForRepair(this.pendingRepair, result, cycle);
    const maxCalls = limits?.maxToolCallsPerMessage ?? DEFAULT_MAX_TOOL_CALLS_PER_MESSAGE;
    // Out of output tokens while writing a call: the last call is cut off and never runs (a half-written file).
    const truncated = result.finishReason === 'length' ? result.toolCalls.at(-1) : undefined;
    const complete = truncated ? result.toolCalls.slice(0, -1) : result.toolCalls;
    const answered = await this.runCalls(result, cycle, complete.slice(0, maxCalls));
    this.answerSkipped(answered, result, complete.slice(maxCalls), maxCalls);
    if (truncated) this.answerTruncated(answered, result, truncated);
    // Calls read from the message's text: the model is told so, once per tool message, in one short line.
    if (result.toolCallsFromText) {
      for (const message of answered.toolMessages) message.content = `${FROM_TEXT_NOTE}\n${String(message.content)}`;
    }
    this.remember(answered, result, cycle, truncated);
    const { goalCheck } = this.limits;
    if (goalCheck && answered.executed.length > 0 && (await goalCheck(answered.steps, cycle))) {
      this.goalReached = true;
      this.final = { final_answer: result.text.trim(), goal_reached: true };
    }
    return answered.steps;
  }

  doneAfterObservation(): boolean {
    return this.goalReached;
  }

  finalOutput({ terminationReason }: { terminationReason: string }): Record<string, unknown> {
    return this.final ?? { final_answer: '', ...(terminationReason === 'max_cycles' ? { incomplete: true } : {}) };
  }

  /** The final answer did not match its schema: the model is asked for a corrected one. */
  private askForRepair(violations: string[], result: LlmResult, cycle: number): CycleStep[] {
    const ask = repairMessage(violations);
    this.pendingRepair = undefined;
    this.repairs++;
    this.run.repairAttempts++;
    this.window.add({
      messages: [
        { role: 'assistant', content: result.text },
        { role: 'user', content: ask },
      ],
      summary: `cycle ${cycle}: final answer did not match the output schema; asked for a corrected one`,
    });
    return [{ thought: result.text, action: 'repair_output', action_input: null, observation: ask }];
  }

  /** Runs the calls one after another, each announced before and after (a throw against the contract is a failure). */
  private async runCalls(result: LlmResult, cycle: number, executed: LlmToolCall[]): Promise<CallsAnswered> {
    const { run } = this;
    const answered: CallsAnswered = { steps: [], toolMessages: [], executed, outcomes: [], summaries: [] };
    for (const call of executed) {
      const params = parseArguments(call.arguments);
      if (run.observed)
        run.emit({ type: 'tool_started', agentId: run.agentId, cycle, toolName: call.name, callId: call.id, params });
      let outcome: ToolCallResult;
      try {
        outcome = await startTool(run, this.toolbox, this.allowed, this.specs, call, params);
      } catch (e) {
        outcome = toolFailure(run, call, e);
      }
      if (run.observed)
        run.emit({
          type: 'tool_called',
          agentId: run.agentId,
          cycle,
          toolName: call.name,
          callId: call.id,
          params,
          result: outcome,
        });
      answered.toolMessages.push({ role: 'tool', tool_call_id: call.id, content: capText(outcome.content, this.maxChars) });
      answered.steps.push({ thought: result.text, action: call.name, action_input: params, observation: outcome.content });
      answered.outcomes.push(outcome);
    }
    return answered;
  }

  /** Past the cap nothing runs, but every tool_call id still needs its tool message. */
  private answerSkipped(answered: CallsAnswered, result: LlmResult, skipped: LlmToolCall[], maxCalls: number): void {
    if (skipped.length === 0) return;
    const notice = notExecutedNotice(maxCalls, result.toolCalls.length);
    for (const call of skipped) {
      answered.toolMessages.push({ role: 'tool', tool_call_id: call.id, content: notice });
      answered.steps.push({
        thought: result.text,
        action: call.name,
        action_input: parseArguments(call.arguments),
        observation: notice,
      });
    }
    answered.summaries.push(`${skipped.length} more tool calls not executed (at most ${maxCalls} per message)`);
  }

  /** The call cut off at the output limit did not run: its tool message says how to make it fit. */
  private answerTruncated(answered: CallsAnswered, result: LlmResult, truncated: LlmToolCall): void {
    const notice = truncatedCallNotice(truncated.name, this.specs);
    answered.toolMessages.push({ role: 'tool', tool_call_id: truncated.id, content: notice });
    answered.steps.push({ thought: result.text, action: truncated.name, action_input: null, observation: notice });
    answered.summaries.push(`${truncated.name} cut off at the output limit, not executed`);
  }

  /** The model's message and its tool messages go into the window, with a summary for when they leave it. */
  private remember(answered: CallsAnswered, result: LlmResult, cycle: number, truncated: LlmToolCall | undefined): void {
    const { executed, outcomes, summaries } = answered;
    this.window.add({
      messages: [
        {
          role: 'assistant',
          content: result.text || null,
          // The cut-off call's arguments are not valid JSON and would only cost tokens: they go back as {}.
          tool_calls: result.toolCalls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c === truncated ? '{}' : c.arguments },
          })),
        },
        ...answered.toolMessages,
      ],
      // Written only if the cycle leaves the verbatim window.
      summary: () => {
        const calls = executed.map(
          (call, i) =>
            `${call.name}(${capText(call.arguments, 80)}) → ${outcomes[i]!.ok ? '' : 'failed: '}${capText(outcomes[i]!.content, 120)}`,
        );
        return `cycle ${cycle}: ${[...calls, ...summaries].join('; ')}`;
      },
    });
  }
}

/**
 * Starts one model-issued call (or its refusal, which still goes through the wrapToolCall hooks). Not an async
 * function: the loop awaits the toolbox's own promise, one hop per call; what it throws goes to {@link toolFailure}.
 */
function startTool(
  run: AgentRun,
  toolbox: AgentToolbox | undefined,
  allowed: ((toolName: string) => boolean) | undefined,
  offered: readonly ToolSpec[],
  call: LlmToolCall,
  params: unknown,
): Promise<ToolCallResult> {
  const wrap = run.toolCallWrapper();
  if (!toolbox)
    return refuseCall(
      wrap,
      call,
      params,
      `No tools are available to this agent; nothing was executed. Answer without calling ${call.name}.`,
    );
  if (allowed && !allowed(call.name)) {
    const names = offered.map((s) => s.function.name);
    return refuseCall(
      wrap,
      call,
      params,
      `Tool ${call.name} is not available to this agent; nothing was executed. Use one of: ${names.join(', ') || '(none)'}.`,
    );
  }
  return toolbox.executeCall(call, { signal: run.signal, wrap, requestedBy: run.agentId, parsedArguments: params });
}

/**
 * A toolbox (or hook) that threw against its contract: a failed result the model reads. A cancelled run and the
 * hooks' own errors end the run instead.
 */
function toolFailure(run: AgentRun, call: LlmToolCall, e: unknown): ToolCallResult {
  if (run.signal?.aborted || e instanceof HookError || e instanceof HookRejectedError) throw e;
  const message = e instanceof Error ? e.message : String(e);
  return {
    toolName: call.name,
    callId: call.id,
    ok: false,
    content: `Tool ${call.name} failed: ${message}`,
    error: { error_code: 'TOOL_FAILED', message },
    approval: 'auto',
    durationMs: 0,
  };
}

/**
 * The first line of the tool message of a call the client read from the model's text (`LlmResult.toolCallsFromText`):
 * it ran, but the model should make real tool calls. Short: every such message costs its tokens again.
 */
export const FROM_TEXT_NOTE = 'Note: this call was read from your message text; next time make it as a real tool call.';

/** A refused call's result; it still goes through the wrapToolCall hooks, like any other call. */
function refuseCall(
  wrap: ToolCallWrapper | undefined,
  call: LlmToolCall,
  params: unknown,
  content: string,
): Promise<ToolCallResult> {
  const refusal = (): Promise<ToolCallResult> =>
    Promise.resolve({
      toolName: call.name,
      callId: call.id,
      ok: false,
      content,
      error: { error_code: 'TOOL_NOT_FOUND', message: content },
      approval: 'policy_denied',
      durationMs: 0,
    });
  return wrap ? wrap(call.name, refusal, params) : refusal();
}

/** The tool message of a call past the per-message cap: what happened, that nothing changed, what to do. */
function notExecutedNotice(maxCalls: number, total: number): string {
  return (
    `Not executed: one message may make at most ${maxCalls} tool calls, and your message made ${total}, so only the first ${maxCalls} ran. ` +
    `Nothing was changed by this call. Send it again in a later message (at most ${maxCalls} tool calls per message).`
  );
}

/**
 * The tool message of a call cut off at the model's output limit: it did not run, and how to make the change
 * fit (edit_file's smaller edits when the agent has it, else smaller calls).
 */
function truncatedCallNotice(toolName: string, offered: readonly ToolSpec[]): string {
  const hasEdit = offered.some((s) => s.function.name === 'edit_file');
  const advice = hasEdit
    ? 'Make the change in smaller pieces: use edit_file with only the lines that change (a few small search/replace blocks), not a whole file.'
    : 'Make the change in smaller pieces, with shorter tool calls.';
  return (
    `Not executed: your message reached the output token limit while writing this ${toolName} call, so its arguments were cut off. ` +
    `Nothing was changed by this call. ${advice}`
  );
}

/** The call's JSON arguments as a value for events and history, or the raw text when it is not JSON. */
function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
