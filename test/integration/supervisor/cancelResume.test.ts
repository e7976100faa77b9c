import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionSummarySchema } from '../../../src/core/tdd/supervisor/sessionSummary';
import { fizzbuzzJs, JS, JS_SOURCE_PATH, JS_TEST_PATH } from '../../support/fizzbuzzPlans';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { initPersonRepo, readOrNull, runWithReply, SessionHarness, turnOfRequest } from './sessionHarness';

const PERSON_FILES = { 'README.md': '# My katas\n\nNotes I keep on my own branch.\n' };

describe('TDD supervisor: cancelling mid-cycle, then resuming', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('leaves the session branch at the last green commit, returns the person to their branch, and resumes from the next cycle', async () => {
    const git = await initPersonRepo(h.workspace, PERSON_FILES, 'work');
    const personHead = (await git.revparse(['HEAD'])).trim();

    // Cancel while the implementer of cycle 2 is working (the red test of cycle 2 is on disk, uncommitted).
    const controller = new AbortController();
    const first = scriptedKataModel({ cycles: fizzbuzzJs(3) });
    let redTestOnDisk: string | null = null;
    const cancelled = await runWithReply(
      h,
      async (req) => {
        const t = turnOfRequest(req);
        if (t.role === 'implementer' && t.cycle === 2 && !controller.signal.aborted) {
          redTestOnDisk = await readOrNull(join(h.workspace, JS_TEST_PATH));
          controller.abort();
        }
        return first.reply(req);
      },
      { signal: controller.signal },
    );
    const { summary } = cancelled;

    assert.equal(redTestOnDisk, JS.testFile(2), 'the cancel came while the red test of cycle 2 was uncommitted');
    assert.equal(summary.status, 'cancelled', JSON.stringify(summary.error));
    SessionSummarySchema.parse(summary);
    // The history shows where the session stopped; resuming runs cycle 2 again.
    assert.deepEqual(summary.cycles.map((c) => [c.n, c.outcome]), [[1, 'green'], [2, 'cancelled']]);
    assert.equal(cancelled.events.at(-1)?.type, 'session_finished');

    // The person is back on their branch, with their work as it was.
    assert.equal((await git.revparse(['--abbrev-ref', 'HEAD'])).trim(), 'work');
    assert.equal((await git.revparse(['work'])).trim(), personHead);
    assert.equal(await readFile(join(h.workspace, 'README.md'), 'utf8'), PERSON_FILES['README.md']);
    assert.equal((await git.status()).isClean(), true);

    // .tdd/session.json says cancelled.
    const saved = JSON.parse(await readFile(join(h.workspace, '.tdd', 'session.json'), 'utf8'));
    assert.equal(saved.status, 'cancelled');
    assert.equal(saved.branch, summary.branch);

    // The session branch is exactly the last green commit: clean tree, the red test gone.
    await git.checkout(summary.branch);
    assert.equal((await git.revparse(['HEAD'])).trim(), summary.cycles[0]!.commit);
    assert.equal((await git.status()).isClean(), true);
    assert.equal(await readFile(join(h.workspace, JS_TEST_PATH), 'utf8'), JS.testFile(1));
    assert.equal(await readFile(join(h.workspace, JS_SOURCE_PATH), 'utf8'), JS.impl(1));
    await git.checkout('work');

    // Resume: the same branch, from cycle 2, to the end.
    const second = scriptedKataModel({ cycles: fizzbuzzJs(3) });
    const resumed = await runWithReply(h, second.reply, { resume: true });
    assert.equal(resumed.summary.status, 'completed', JSON.stringify(resumed.summary.error));
    assert.equal(resumed.summary.branch, summary.branch);
    const started = resumed.events.find((e) => e.type === 'session_started');
    assert.ok(started && started.type === 'session_started' && started.resumedFromCycle === 2 && started.branch === summary.branch);
    assert.deepEqual(second.played[0], { role: 'tester', cycle: 2, attempt: 1 });
    assert.deepEqual(resumed.summary.cycles.map((c) => [c.n, c.outcome]), [[1, 'green'], [2, 'green'], [3, 'green'], [4, 'kata_complete']]);

    const subjects = (await git.log([summary.branch])).all.map((c) => c.message).reverse();
    assert.deepEqual(subjects.filter((s) => s.startsWith('feat:')).length, 3, subjects.join(' | '));
    assert.equal((await git.revparse(['--abbrev-ref', 'HEAD'])).trim(), 'work');
    assert.equal((await git.revparse(['work'])).trim(), personHead);
    assert.equal(JSON.parse(await readFile(join(h.workspace, '.tdd', 'session.json'), 'utf8')).status, 'completed');
  });
});
