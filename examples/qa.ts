/**
 * Question answering with the QA agent (config/agents/qa/v1.json): question + context → answer, confidence, reasoning.
 *
 *   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 MODEL=llama3.2 npx tsx examples/qa.ts "What does add return?"
 *
 * The provider comes from the environment: OPENAI_API_KEY (+ OPENAI_BASE_URL), OPENAI_BASE_URL alone for any
 * OpenAI-compatible server, or a running Ollama. MODEL picks the model (default: the provider's).
 */

import { createAgentRuntime, QAAgent } from 'tdd-agent/core';
const CODE = `function add(a, b) {\n  return a + b;\n}`;

async function main(): Promise<void> {
  const runtime = await createAgentRuntime({ model: process.env.MODEL });
  console.log(`provider: ${runtime.provider.provider} ${runtime.provider.model} (${runtime.provider.source})`);

  const agent = runtime.create(QAAgent);
  const result = await agent.execute({ question: process.argv[2] ?? 'What does add return?', context: CODE });

  console.log(`answer: ${result.answer}`);
  console.log(`confidence: ${result.confidence}`);
  console.log(`reasoning: ${String(result.reasoning)}`);
  console.log(`tokens: ${result.metadata.usage.totalTokens} in ${Math.round(result.metadata.executionTimeMs)} ms`);
}

main().catch((error: { error_code?: string; message?: string }) => {
  console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
  process.exitCode = 1;
});
