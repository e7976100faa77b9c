import { BaseAgent } from '../agentRuntime/baseAgent';
import type { AgentConfigRef } from '../agentRuntime/configPromptSource';
import { AgentInputError } from '../agentRuntime/errors';

/** What the CoT agent returns (`config/agents/cot/v1.json`'s output schema): up to five steps, the answer and a 0..1 confidence. */
export interface CoTOutput extends Record<string, unknown> {
  step1: string;
  step2?: string;
  step3?: string;
  step4?: string;
  step5?: string;
  final_answer: string;
  confidence: number;
}

/**
 * Chain of thought: `{ problem, context? }` → `{ step1..step5, final_answer, confidence }`. The whole
 * definition (prompt, schema, model settings) is `config/agents/cot/v1.json`; the code only refuses an
 * empty problem before any model call.
 */
export class CoTAgent extends BaseAgent<CoTOutput> {
  protected override agentDefinition(): AgentConfigRef {
    return { agent: 'cot', version: 'v1' };
  }

  protected override agentKind(): string {
    return 'cot';
  }

  override preExecute(inputs: Record<string, unknown>): Record<string, unknown> {
    if (typeof inputs.problem !== 'string' || inputs.problem.trim() === '') {
      throw new AgentInputError('problem: describe the problem to reason about (it is empty or missing).', { field: 'problem' });
    }
    return { ...inputs, context: typeof inputs.context === 'string' ? inputs.context : '' };
  }
}

/** The non-empty steps of a CoT result (`step1`..`step5`), in order: what the CLI and the panel show as a list. */
export function cotSteps(result: Partial<CoTOutput>): string[] {
  return [result.step1, result.step2, result.step3, result.step4, result.step5].filter(
    (s): s is string => typeof s === 'string' && s.trim() !== '',
  );
}
