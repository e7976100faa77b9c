import type { AgentRun } from '../agentRun';
import { isThenable } from '../hookRunner';
import { validatedOutput } from '../repair';
import { finishedOutput, prepareExecution } from './prepareExecution';
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
    let start = prepareExecution(host, run, inputs);
    if (isThenable(start)) start = await start;
    const { prompt } = start;
    const response = await run.callModel(prompt, prompt.messages, { responseFormat: prompt.responseFormat });
    let value = validatedOutput(run, prompt, response);
    if (isThenable(value)) value = await value;
    let output = finishedOutput(host, run, value);
    if (isThenable(output)) output = await output;
    return { output, terminationReason: 'finish' };
  }
}
