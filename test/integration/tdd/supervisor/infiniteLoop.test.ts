import { strict as assert } from 'node:assert';
import { readdir, readlink } from 'node:fs/promises';
import { runProcess } from '../../../../src/core/process/runProcess';
import { fizzbuzzJs, JS_SOURCE_PATH } from '../../../support/fizzbuzzPlans';
import { contextOf, SessionHarness } from './sessionHarness';

const spinning = `export function fizzbuzz(n) {\n  while (true) {}\n}\n`;

/** Processes still running inside the workspace: by command line (pgrep -f) and by working folder (/proc/<pid>/cwd). */
async function leftoverProcesses(workspace: string): Promise<string[]> {
  const found: string[] = [];
  const pgrep = await runProcess({ cwd: '/', command: 'pgrep', args: ['-fa', workspace], timeoutMs: 5000 });
  for (const line of pgrep.stdout.split('\n').filter(Boolean)) if (!line.includes('pgrep')) found.push(line);
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
    if (cwd === workspace || cwd.startsWith(`${workspace}/`)) found.push(`${pid} (cwd ${cwd})`);
  }
  return found;
}

describe('TDD supervisor: generated code with an infinite loop', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('times the test run out, kills the whole process tree, tells the implementer, and the next attempt fixes it', async () => {
    const { summary, events, played } = await h.run(
      {
        cycles: fizzbuzzJs(1),
        // No run_tests from the model here: the supervisor's own run is the one under test.
        overrides: { 'implementer:1:1': { writes: [{ path: JS_SOURCE_PATH, content: spinning }], report: 'loop until done' } },
      },
      { testTimeoutMs: 3000 },
    );

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'kata_complete'],
    );
    const timedOut = events.filter((e) => e.type === 'test_run_finished' && e.tests.status === 'timeout');
    assert.equal(timedOut.length, 1);
    assert.ok(timedOut[0]!.type === 'test_run_finished' && timedOut[0]!.role === 'implementer');
    assert.match(timedOut[0]!.reason ?? '', /did not finish within 3 s and were killed/);

    // The implementer was told and tried again; the session went on.
    assert.deepEqual(
      played.filter((t) => t.role === 'implementer').map((t) => t.attempt),
      [1, 2],
    );
    assert.match(
      contextOf(h.server, 'implementer', 1, 2),
      /Attempt 1 did not make the tests pass \(timed out: Tests did not finish within 3 s/,
    );
    const implementing = summary.cycles[0]!.phases.find((p) => p.role === 'implementer')!;
    assert.deepEqual([implementing.attempts, implementing.outcome], [2, 'green']);

    // Nothing of the spinning test run is left behind.
    assert.deepEqual(await leftoverProcesses(h.workspace), []);
    assert.deepEqual(await leftoverProcesses(h.worktree), []);
  });
});
