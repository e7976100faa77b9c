import { BaseAgent } from '../agentRuntime/baseAgent';
import type { AgentConfigRef } from '../agentRuntime/configPromptSource';
import { AgentInputError } from '../agentRuntime/errors';
import { parseJsonOutput } from '../agentRuntime/outputParsing';
import type { PreparedPrompt } from '../agentRuntime/promptSource';
import type { AgentRun } from '../agentRuntime/agentRun';

/** What the QA agent returns (`config/agents/qa/v1.json`'s output schema): `confidence` is within 0..1. */
export interface QAOutput extends Record<string, unknown> {
  answer: string;
  confidence: number;
  reasoning?: string;
}

/**
 * Question answering: `{ question, context? }` → `{ answer, confidence, reasoning }`. Prompt, schema and model
 * settings come from `config/agents/qa/v1.json`; this class adds behaviour only: an empty question is
 * rejected before any model call, and `confidence` is clamped to 0..1 before validation.
 */
export class QAAgent extends BaseAgent<QAOutput> {
  protected override agentDefinition(): AgentConfigRef {
    return { agent: 'qa', version: 'v1' };
  }

  protected override agentKind(): string {
    return 'qa';
  }

  override preExecute(inputs: Record<string, unknown>): Record<string, unknown> {
    const question = inputs.question;
    if (typeof question !== 'string' || question.trim() === '') {
      throw new AgentInputError(
        'question: ask a non-empty question (got ' + (typeof question === 'string' ? 'empty text' : typeof question) + ').',
        {
          field: 'question',
        },
      );
    }
    return { ...inputs, question: question.trim(), context: typeof inputs.context === 'string' ? inputs.context : '' };
  }

  override async preparePrompt(inputs: Record<string, unknown>, run: AgentRun): Promise<PreparedPrompt> {
    const prompt = await super.preparePrompt(inputs, run);
    const validate = prompt.validate;
    return validate ? { ...prompt, validate: (raw) => validate(clampConfidence(raw)) } : prompt;
  }
}

/** Clamps a numeric `confidence` in the model's JSON to 0..1 (other text passes unchanged to validation). */
export function clampConfidence(raw: string): string {
  const parsed = parseJsonOutput(raw);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return raw;
  const value = parsed.value as Record<string, unknown>;
  if (typeof value.confidence !== 'number' || !Number.isFinite(value.confidence)) return raw;
  return JSON.stringify({ ...value, confidence: Math.min(1, Math.max(0, value.confidence)) });
}
