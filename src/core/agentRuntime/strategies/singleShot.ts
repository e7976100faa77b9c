import type { AgentRun } from '../agentRun';
import { outputFields, preparedInputs } from '../extensionResults';
import { checkInputValues } from '../inputValues';
import { callWithRepair } from '../repair';
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
    const prepared = preparedInputs(await host.preExecute(inputs, run));
    checkInputValues(prepared);
    const prompt = await host.preparePrompt(prepared, run);
    const { value } = await callWithRepair(run, prompt);
    const parsed = outputFields('parseResult', await host.parseResult(value, run));
    return { output: outputFields('postExecute', await host.postExecute(parsed, run)), terminationReason: 'finish' };
  }
}
