import type { AgentRun } from '../agentRun';
import { outputFields, preparedInputs } from '../extensionResults';
import { isThenable } from '../hookRunner';
import { checkInputValues } from '../inputValues';
import type { PreparedPrompt } from '../promptSource';
import type { StrategyHost } from './types';

/** What a built-in strategy starts from: the inputs preExecute made and the prompt built from them. */
export interface PreparedExecution {
  prepared: Record<string, unknown>;
  prompt: PreparedPrompt;
}

/**
 * preExecute → its inputs checked (only new ones: the agent checked what it was given) → preparePrompt. The extension
 * points answer at once unless overridden with async ones: a promise comes back only when one of them made one.
 */
export function prepareExecution(
  host: StrategyHost,
  run: AgentRun,
  inputs: Record<string, unknown>,
): PreparedExecution | Promise<PreparedExecution> {
  const given = host.preExecute(inputs, run);
  return isThenable(given) ? given.then((g) => withPrompt(host, run, inputs, g)) : withPrompt(host, run, inputs, given);
}

function withPrompt(
  host: StrategyHost,
  run: AgentRun,
  inputs: Record<string, unknown>,
  given: unknown,
): PreparedExecution | Promise<PreparedExecution> {
  const prepared = preparedInputs(given);
  if (prepared !== inputs) checkInputValues(prepared);
  const prompt = host.preparePrompt(prepared, run);
  return isThenable(prompt) ? prompt.then((p) => ({ prepared, prompt: p })) : { prepared, prompt };
}

/** parseResult → postExecute on a run's output, as output fields; a promise only when one of them made one. */
export function finishedOutput(
  host: StrategyHost,
  run: AgentRun,
  output: Record<string, unknown>,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const parsed = host.parseResult(output, run);
  return isThenable(parsed) ? parsed.then((p) => posted(host, run, p)) : posted(host, run, parsed);
}

function posted(host: StrategyHost, run: AgentRun, parsed: unknown): Record<string, unknown> | Promise<Record<string, unknown>> {
  const out = host.postExecute(outputFields('parseResult', parsed), run);
  return isThenable(out) ? out.then((o) => outputFields('postExecute', o)) : outputFields('postExecute', out);
}
