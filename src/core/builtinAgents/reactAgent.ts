import { z } from 'zod';
import type { AgentRun } from '../agentRuntime/agentRun';
import type { BaseAgentOptions } from '../agentRuntime/agentOptions';
import { BaseAgent } from '../agentRuntime/baseAgent';
import type { BaseAgentConfigInput } from '../agentRuntime/config';
import { AgentSettingsError } from '../agentRuntime/errors';
import type { PreparedPrompt } from '../agentRuntime/promptSource';
import { createSignature, type Signature } from '../agentRuntime/signature';
import { createToolLoopCycles, type ToolLoopLimits } from '../agentRuntime/strategies/toolLoop';
import type { ActionRecord, CycleHandlers } from '../agentRuntime/strategies/types';
import type { AgentToolbox } from '../tools/types';

/** Options of {@link ReActAgent}: the base options plus the tools and prompt limits. */
export interface ReActAgentOptions extends BaseAgentOptions, ToolLoopLimits {
  /** Tools the model may call (default: the agent's `toolExecutor` / `toolRegistry`); without any the agent answers directly. */
  toolbox?: AgentToolbox;
}

const REACT_SIGNATURE: Signature = createSignature({
  name: 'react',
  instructions:
    'You solve the task step by step. When you need information or want to act, call one of the provided tools; you will see each result. When the task is done, reply without a tool call: that reply is your final answer.',
  inputs: {
    task: { type: z.string().trim().min(1, 'give the task to work on'), description: 'What to achieve.' },
    context: { type: z.string().optional(), description: 'Background the task needs (optional).' },
  },
});

/**
 * What a ReAct run returns: the model's `final_answer` (empty, with `incomplete`, when it ran out of cycles)
 * plus any fields of its config's output schema.
 */
export interface ReActOutput extends Record<string, unknown> {
  final_answer: string;
  incomplete?: boolean;
  /** Set when the run ended because the caller's `goalCheck` said the goal was reached after a tool call. */
  goal_reached?: boolean;
  /** One entry per tool call the run made, in order. */
  action_history: ActionRecord[];
  /** The observation text of each cycle, in order. */
  observations: string[];
}

/**
 * ReAct: `{ task, context? }` (or the inputs of `agentConfig`) → a multi-cycle run where the model acts
 * through tool calls; returns `final_answer`, `action_history` and `observations`. With `agentConfig`
 * (e.g. `{ agent: 'tester', version: 'v1' }`) the system prompt, tools list and model come from that config.
 */
export class ReActAgent extends BaseAgent<ReActOutput> {
  private readonly toolbox?: AgentToolbox;
  private readonly limits: ToolLoopLimits;

  constructor(options: ReActAgentOptions) {
    super(options);
    if (options.toolbox && this.toolExecutor) {
      throw new AgentSettingsError(['toolbox, toolRegistry/toolExecutor: give the tools one way']);
    }
    this.toolbox = options.toolbox ?? this.toolExecutor;
    this.limits = {
      window: options.window,
      maxObservationChars: options.maxObservationChars,
      goalCheck: options.goalCheck,
      compactMessages: options.compactMessages,
    };
  }

  protected override extraOptionKeys(): readonly string[] {
    return ['toolbox', 'window', 'maxObservationChars', 'goalCheck', 'compactMessages'];
  }

  protected override createSignature(): Signature | undefined {
    return REACT_SIGNATURE;
  }

  protected override agentKind(): string {
    return 'react';
  }

  protected override configExtensions(): BaseAgentConfigInput {
    return { strategy: 'multi_cycle', maxCycles: 10 };
  }

  override createCycleHandlers(run: AgentRun, prompt: PreparedPrompt): CycleHandlers<unknown> {
    return createToolLoopCycles(run, prompt, this.toolbox, this.limits) as CycleHandlers<unknown>;
  }
}
