import type { AgentRun } from '../agentRun';
import { outputFields, preparedInputs } from '../extensionResults';
import { isThenable } from '../hookRunner';
import { checkInputValues } from '../inputValues';
import { validatedOutput } from '../repair';
import type { ExecutionStrategy, StrategyHost, StrategyResult } from './types';

/**
 * preExecute → model call (with bounded repair) → parseResult → postExecute. Metadata strategy: `single_shot`.
 * What preExecute returns must be an object of inputs that can be sent as JSON (checked before the model call);
 * a non-object from parseResult or postExecute is kept as `{ result }` (see `outputFields`).
 */
export class SingleShotStrategy implements ExecutionStrategy {
  readonly name = 'single_shot';

  /** One execution: preExecute → preparePrompt → model call with bounded repair → parseResult → postExecute. */
  async run(host: StrategyHost, run: AgentRun, inputs: Record<string, unknown>): Promise<StrategyResult> {
    // The extension points answer at once unless overridden with async ones: only a promise is awaited.
    let given = host.preExecute(inputs, run);
    if (isThenable(given)) given = await given;
    const prepared = preparedInputs(given);
    // The agent checked the inputs it was given; only what preExecute made of them is new.
    if (prepared !== inputs) checkInputValues(prepared);
    let prompt = host.preparePrompt(prepared, run);
    if (isThenable(prompt)) prompt = await prompt;
    const response = await run.callModel(prompt, prompt.messages, { responseFormat: prompt.responseFormat });
    let value = validatedOutput(run, prompt, response);
    if (isThenable(value)) value = await value;
    let parsed = host.parseResult(value, run);
    if (isThenable(parsed)) parsed = await parsed;
    let output = host.postExecute(outputFields('parseResult', parsed), run);
    if (isThenable(output)) output = await output;
    return { output: outputFields('postExecute', output), terminationReason: 'finish' };
  }
}
