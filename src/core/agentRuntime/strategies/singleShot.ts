import type { AgentRun } from '../agentRun';
import { callWithRepair } from '../repair';
import type { ExecutionStrategy, StrategyHost, StrategyResult } from './types';

/** preExecute → model call (with bounded repair) → parseResult → postExecute. Metadata strategy: `single_shot`. */
export class SingleShotStrategy implements ExecutionStrategy {
  readonly name = 'single_shot';

  /** One execution: preExecute → preparePrompt → model call with bounded repair → parseResult → postExecute. */
  async run(host: StrategyHost, run: AgentRun, inputs: Record<string, unknown>): Promise<StrategyResult> {
    const prepared = await host.preExecute(inputs, run);
    const prompt = await host.preparePrompt(prepared, run);
    const { value } = await callWithRepair(run, prompt);
    const parsed = await host.parseResult(value, run);
    return { output: await host.postExecute(parsed, run), terminationReason: 'finish' };
  }
}
