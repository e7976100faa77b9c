/**
 * A whole TDD session from code: runKataSession runs red-green-refactor cycles of the bundled FizzBuzz kata
 * in a fresh temporary git workspace. Tester, Implementer and Refactorer are agents defined in
 * config/agents; the supervisor runs the real tests after every role and commits only green states.
 * `approvalPolicy: { autoApproveUpTo: 'MEDIUM' }` is the CLI's `--yes`: file writes and test runs are
 * approved without asking (pass `control` with a ControlProtocol to ask a person instead); examples/support/
 * fizzbuzzSession.ts sets that up, the same for every session example.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/tdd-session.ts            (MAX_CYCLES=3 by default; KEEP=1 keeps the folder)
 */
import type { SupervisorEvent } from 'tdd-agent/tdd';
import { simpleGit } from 'simple-git';
import { runFizzBuzz, runMain } from './support/fizzbuzzSession';

function show(event: SupervisorEvent): void {
  if (event.type === 'session_started') console.log(`session on branch ${event.branch} with ${event.model}`);
  if (event.type === 'test_run_finished')
    console.log(`  tests after ${event.role}: ${event.tests.passed} passed, ${event.tests.failed} failed`);
  if (event.type === 'commit_made') console.log(`  commit ${event.sha.slice(0, 7)} ${event.message.split('\n')[0]}`);
  if (event.type === 'cycle_finished') console.log(`cycle ${event.cycle}: ${event.outcome}`);
}

runMain(() =>
  runFizzBuzz({ onEvent: show }, async (summary, workspace) => {
    const log = await simpleGit(workspace).log([summary.branch]);
    console.log(`git log ${summary.branch}:\n${log.all.map((c) => `  ${c.hash.slice(0, 7)} ${c.message}`).join('\n')}`);
  }),
);
