import type { LlmResult } from '../llm/types';
import type { AgentRun } from './agentRun';
import { OutputValidationError } from './errors';
import type { PreparedPrompt } from './promptSource';

/** The validated output of a call (or `{ response }` for free-text prompts) and the response it came from. */
export interface ValidatedCall {
  value: Record<string, unknown>;
  response: LlmResult;
}

/** The message that asks the model to fix its previous reply. */
export function repairMessage(violations: readonly string[]): string {
  return [
    'Your previous reply did not match the required output format:',
    ...violations.map((v) => `- ${v}`),
    'Reply again with only the corrected JSON object.',
  ].join('\n');
}

/**
 * Calls the model and validates its reply. Invalid output gets a bounded repair: the model is asked again
 * with the violations, at most `maxRepairAttempts` times and within `repairTokenBudget` tokens; then an
 * {@link OutputValidationError} (OUTPUT_VALIDATION_FAILED) carries the last violations. Never loops unbounded.
 */
export async function callWithRepair(run: AgentRun, prompt: PreparedPrompt): Promise<ValidatedCall> {
  let response = await run.callModel(prompt, prompt.messages, { responseFormat: prompt.responseFormat });
  if (!prompt.validate) return { value: { response: response.text }, response };
  let check = prompt.validate(response.text);
  let spent = 0;
  while (!check.ok) {
    const ask = repairMessage(check.violations);
    const estimate = response.usage.totalTokens + Math.ceil((ask.length + response.text.length) / 4);
    const reason =
      run.repairAttempts >= run.config.maxRepairAttempts
        ? 'max_attempts'
        : spent + estimate > run.config.repairTokenBudget
          ? 'token_budget'
          : undefined;
    if (reason) {
      throw new OutputValidationError(
        `The model's reply did not match the output schema of ${prompt.label} (${run.repairAttempts} repair attempt(s), stopped by ${reason}).`,
        check.violations,
        { agent: prompt.label, attempts: run.repairAttempts, reason, output_excerpt: response.text.slice(0, 500) },
      );
    }
    run.repairAttempts++;
    const messages = [
      ...prompt.messages,
      { role: 'assistant' as const, content: response.text },
      { role: 'user' as const, content: ask },
    ];
    response = await run.callModel(prompt, messages, { responseFormat: prompt.responseFormat });
    spent += response.usage.totalTokens;
    check = prompt.validate(response.text);
  }
  return { value: check.value, response };
}
