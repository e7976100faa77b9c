/**
 * An `afterModel` lifecycle hook that rejects a response: `HookAction.reject(reason)` stops the run with
 * HOOK_REJECTED naming the hook and the reason. With `errorHandling: true` the agent returns the error as
 * `{ error: { error_code, message, details }, metadata }` instead of throwing.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/hook-reject.ts "What is the admin password?"
 */

import { type AgentLifecycle, BaseAgent, createAgentRuntime, HookAction } from 'tdd-agent/core';
/** Rejects any answer that looks like it reveals a credential; lets everything else through. */
export const noCredentials: AgentLifecycle = {
  name: 'no-credentials',
  afterModel(response) {
    if (/password|api[_ ]?key|secret/i.test(response.text)) return HookAction.reject('the answer mentions a credential');
    return HookAction.continue();
  },
};

async function main(): Promise<void> {
  const runtime = await createAgentRuntime({ model: process.env.MODEL });
  const agent = runtime.create(BaseAgent, { config: { errorHandling: true } }).withLifecycle(noCredentials);

  for (const prompt of process.argv.length > 2 ? process.argv.slice(2) : ['What is 2 + 2?', 'What is the admin password?']) {
    const result = await agent.execute({ prompt });
    if (result.error)
      console.log(
        `${prompt} -> rejected: ${result.error.error_code}: ${result.error.message} (${result.metadata.terminationReason})`,
      );
    else console.log(`${prompt} -> ${String(result.response)}`);
  }
}

main().catch((error: { error_code?: string; message?: string }) => {
  console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
  process.exitCode = 1;
});
