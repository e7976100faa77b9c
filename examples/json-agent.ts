/**
 * An agent defined only by data: examples/agents/triage/v1.json holds its prompt, output schema, enums and
 * model settings. No agent class is written: a BaseAgent is pointed at the config with `agentConfig`, and
 * `configRoot` says where the agents folder is (default: the project's config/agents).
 * The system prompt's first line is `agent: triage/v1`, so any server log can tell which agent is calling.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/json-agent.ts "The export button does nothing since the last update."
 */
import { BaseAgent, createAgentRuntime } from 'tdd-agent/core';
import { join } from 'node:path';

async function main(): Promise<void> {
  const runtime = await createAgentRuntime({ model: process.env.MODEL });
  const agent = runtime.create(BaseAgent, {
    agentConfig: { agent: 'triage', version: 'v1', configRoot: join(__dirname, 'agents') },
  });
  const ticket = process.argv[2] ?? 'Since this morning nobody on our team can log in; we get a 500 error.';
  const result = await agent.execute({ ticket });

  console.log(`prompt: ${result.metadata.prompt}`);
  console.log(`category: ${String(result.category)}`);
  console.log(`priority: ${String(result.priority)}`);
}

main().catch((error: { error_code?: string; message?: string }) => {
  console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
  process.exitCode = 1;
});
