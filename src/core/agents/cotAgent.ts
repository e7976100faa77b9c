import { BaseAgent } from '../agent/baseAgent';
import type { AgentConfigRef } from '../agent/configPromptSource';
import { AgentInputError } from '../agent/errors';

/**
 * Chain of thought: `{ problem, context? }` → `{ step1..step5, final_answer, confidence }`. The whole
 * definition (prompt, schema, model settings) is `config/agents/cot/v1.json`; the code only refuses an
 * empty problem before any model call.
 */
export class CoTAgent extends BaseAgent {
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
export function cotSteps(result: Record<string, unknown>): string[] {
  return [1, 2, 3, 4, 5].map((i) => result[`step${i}`]).filter((s): s is string => typeof s === 'string' && s.trim() !== '');
}
