import type { LlmResult } from '../llm/types';
import type { AgentRun } from './agentRun';
import { OutputValidationError } from './errors';
import type { OutputCheck, PreparedPrompt } from './promptSource';

/** The message that asks the model to fix its previous reply. */
export function repairMessage(violations: readonly string[]): string {
  return [
    'Your previous reply did not match the required output format:',
    ...violations.map((v) => `- ${v}`),
    'Reply again with only the corrected JSON object.',
  ].join('\n');
}

/**
 * The output of a model reply: `{ response }` for a free-text prompt, else the reply validated against the prompt's
 * schema. A reply that is valid (or free text) is returned as it is, with no trip through the microtask queue;
 * an invalid one gets a bounded repair (see {@link repairUntilValid}), a promise.
 */
export function validatedOutput(
  run: AgentRun,
  prompt: PreparedPrompt,
  response: LlmResult,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (!prompt.validate) return { response: response.text };
  const check = prompt.validate(response.text);
  return check.ok ? check.value : repairUntilValid(run, prompt, response, check.violations);
}

/**
 * Invalid output gets a bounded repair: the model is asked again with the violations, at most
 * `maxRepairAttempts` times and within `repairTokenBudget` tokens; then an {@link OutputValidationError}
 * (OUTPUT_VALIDATION_FAILED) carries the last violations. Never loops unbounded.
 */
async function repairUntilValid(
  run: AgentRun,
  prompt: PreparedPrompt,
  first: LlmResult,
  firstViolations: string[],
): Promise<Record<string, unknown>> {
  const validate = prompt.validate!;
  let response = first;
  let check: OutputCheck = { ok: false, violations: firstViolations };
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
    check = validate(response.text);
  }
  return check.value;
}
