/**
 * Chain of thought with the CoT agent (config/agents/cot/v1.json): problem → step1..step5, final_answer, confidence.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/cot.ts "A train leaves at 9:40 and arrives at 11:15. How long is the trip?"
 */

import { CoTAgent, createAgentRuntime } from 'tdd-agent/core';
async function main(): Promise<void> {
  const runtime = await createAgentRuntime({ model: process.env.MODEL });
  const agent = runtime.create(CoTAgent);
  const problem = process.argv[2] ?? 'A train leaves at 9:40 and arrives at 11:15. How long is the trip?';
  const result = await agent.execute({ problem });

  // Steps the model left out are absent (only step1 is required by the config's output schema).
  for (const step of ['step1', 'step2', 'step3', 'step4', 'step5']) {
    if (typeof result[step] === 'string' && result[step] !== '') console.log(`${step}: ${result[step] as string}`);
  }
  console.log(`final_answer: ${result.final_answer}`);
  console.log(`confidence: ${result.confidence}`);
}

main().catch((error: { error_code?: string; message?: string }) => {
  console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
  process.exitCode = 1;
});
