/**
 * A whole TDD session from code: runKataSession runs red-green-refactor cycles of the bundled FizzBuzz kata
 * in a fresh temporary git workspace. Tester, Implementer and Refactorer are agents defined in
 * config/agents; the supervisor runs the real tests after every role and commits only green states.
 * `approvalPolicy: { autoApproveUpTo: 'MEDIUM' }` is the CLI's `--yes`: file writes and test runs are
 * approved without asking (pass `control` with a ControlProtocol to ask a person instead).
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/tdd-session.ts            (MAX_CYCLES=3 by default; KEEP=1 keeps the folder)
 */
import { createAgentRuntime } from 'tdd-agent/core';
import { runKataSession, type SupervisorEvent } from 'tdd-agent/tdd';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleGit } from 'simple-git';

function show(event: SupervisorEvent): void {
  if (event.type === 'session_started') console.log(`session on branch ${event.branch} with ${event.model}`);
  if (event.type === 'test_run_finished')
    console.log(`  tests after ${event.role}: ${event.tests.passed} passed, ${event.tests.failed} failed`);
  if (event.type === 'commit_made') console.log(`  commit ${event.sha.slice(0, 7)} ${event.message.split('\n')[0]}`);
  if (event.type === 'cycle_finished') console.log(`cycle ${event.cycle}: ${event.outcome}`);
}

async function main(): Promise<void> {
  const workspace = await mkdtemp(join(tmpdir(), 'tdd-example-'));
  try {
    const runtime = await createAgentRuntime({ model: process.env.MODEL });
    const summary = await runKataSession({
      workspace,
      kataPath: 'fizzbuzz',
      language: 'javascript',
      llm: runtime.llm,
      model: runtime.provider.model,
      provider: runtime.provider.provider,
      maxCycles: Number(process.env.MAX_CYCLES ?? 3),
      approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
      testTimeoutMs: 30_000,
      onEvent: show,
    });
    console.log(
      `status: ${summary.status}; ${summary.cycles.length} cycles, ${summary.totals.commits} commits${summary.error ? `; ${summary.error.message}` : ''}`,
    );
    const log = await simpleGit(workspace).log([summary.branch]);
    console.log(`git log ${summary.branch}:\n${log.all.map((c) => `  ${c.hash.slice(0, 7)} ${c.message}`).join('\n')}`);
    if (summary.status !== 'completed' && summary.status !== 'max_cycles') process.exitCode = 1;
  } finally {
    if (process.env.KEEP) console.log(`workspace kept at ${workspace}`);
    else await rm(workspace, { recursive: true, force: true });
  }
}

main().catch((error: { error_code?: string; message?: string }) => {
  console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
  process.exitCode = 1;
});
