/**
 * Records the demo cassette (katas/cassettes/fizzbuzz-javascript.json) that `tdd-agent demo` replays.
 *
 * No real model runs on the machines this project is built on, so the "model" here is the scripted
 * FizzBuzz player from the tests (test/support/scriptedKataModel.ts) behind the loopback OpenAI server.
 * The session itself is real: the supervisor, the agents, the tool calls, the test runs and the commits.
 * Re-record after changing a role's config (the replay checks the system prompt): `npx tsx scripts/record-demo-cassette.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createOpenAIClient } from '../src/core/llm';
import { RecordingLlmClient } from '../src/core/replay';
import { runKataSession } from '../src/core/tdd/supervisor/kataSession';
import { fizzbuzzJs } from '../test/support/fizzbuzzPlans';
import { startOpenAIServer } from '../test/support/openaiServer';
import { scriptedKataModel } from '../test/support/scriptedKataModel';

async function main(): Promise<void> {
  const out = resolve(__dirname, '..', 'katas', 'cassettes', 'fizzbuzz-javascript.json');
  const server = await startOpenAIServer({ models: ['scripted-fizzbuzz'] }); // the preflight checks the model is served
  const workspace = await mkdtemp(join(tmpdir(), 'tdd-agent-record-'));
  try {
    server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(4) }).reply);
    const llm = new RecordingLlmClient(
      createOpenAIClient({ baseURL: server.baseURL, apiKey: 'recording' }),
      out,
      'FizzBuzz in JavaScript, four cycles; model scripted by test/support/fizzbuzzPlans.ts',
    );
    const summary = await runKataSession({
      workspace,
      kataPath: 'fizzbuzz',
      language: 'javascript',
      llm,
      model: 'scripted-fizzbuzz',
      provider: 'openai',
      approvalPolicy: { autoApproveUpTo: 'HIGH' },
      onEvent: (e) => e.type === 'cycle_finished' && process.stderr.write(`cycle ${e.cycle}: ${e.outcome}\n`),
    });
    await llm.flush();
    if (summary.status !== 'completed')
      throw new Error(`the recorded session ended ${summary.status}: ${summary.error?.message ?? ''}`);
    process.stderr.write(`Recorded ${llm.cassette.exchanges.length} exchanges to ${out}\n`);
  } finally {
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
