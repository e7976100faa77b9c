/**
 * Batch processing: `executeBatch(items, { concurrency })` runs many executions with bounded concurrency.
 * Results come back in input order, each `{ ok: true, value }` or `{ ok: false, error }`; one failure never
 * stops the batch. Needs `batchProcessing: true` in the agent settings.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/batch.ts
 */

import { createAgentRuntime, QAAgent } from 'tdd-agent/core';
const CONTEXT = 'Orders ship from Lyon. Standard delivery takes 3 days, express 1 day. Returns are free within 30 days.';
const QUESTIONS = ['Where do orders ship from?', 'How long does express delivery take?', '', 'Are returns free?'];

async function main(): Promise<void> {
  const runtime = await createAgentRuntime({ model: process.env.MODEL });
  const agent = runtime.create(QAAgent, { config: { batchProcessing: true, batchConcurrency: 2 } });

  // The empty question fails validation before any model call; the other items are unaffected.
  const batch = await agent.executeBatch(QUESTIONS.map((question) => ({ question, context: CONTEXT })));
  for (const item of batch.results) {
    const question = QUESTIONS[item.index] || '(empty question)';
    console.log(
      item.ok
        ? `${item.index} ${question} -> ${String(item.value.answer)}`
        : `${item.index} ${question} -> ${item.error.error_code}`,
    );
  }
  const m = batch.metadata;
  console.log(`batch: ${m.succeeded}/${m.total} succeeded, ${m.failed} failed, concurrency ${m.concurrency}`);
}

main().catch((error: { error_code?: string; message?: string }) => {
  console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
  process.exitCode = 1;
});
