import { strict as assert } from 'node:assert';
import { fizzbuzzJs, JS, JS_SOURCE_PATH } from '../../../support/fizzbuzzPlans';
import type { TurnPlan } from '../../../support/scriptedKataModel';
import { contextOf, fileInContext, SessionHarness } from './sessionHarness';

/** Returns numbers instead of strings: breaks the cycle-1 test. */
const breaking = (k: number): TurnPlan => ({
  writes: [{ path: JS_SOURCE_PATH, content: `export function fizzbuzz(n) {\n  return n; // attempt ${k}\n}\n` }],
  report: `inline the conversion (${k})`,
});

describe('TDD supervisor: a refactoring that goes red', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('reverts each red refactoring, retries, skips refactoring after three red attempts and carries on', async () => {
    const { summary, events, played } = await h.run({
      cycles: fizzbuzzJs(2),
      overrides: { 'refactorer:1:1': breaking(1), 'refactorer:1:2': breaking(2), 'refactorer:1:3': breaking(3) },
    });

    // Non-fatal: the session goes on to cycle 2 and completes.
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'green', 'kata_complete'],
    );
    const refactoring = summary.cycles[0]!.phases.find((p) => p.role === 'refactorer')!;
    assert.deepEqual([refactoring.attempts, refactoring.outcome], [3, 'skipped']);
    assert.equal(summary.totals.reverts, 3);
    assert.equal(summary.totals.retries, 2);
    assert.equal(summary.totals.commits, 2, 'two green commits, no refactor commit');
    assert.deepEqual(
      played.filter((t) => t.role === 'refactorer' && t.cycle === 1).map((t) => t.attempt),
      [1, 2, 3],
    );

    const reverts = events.filter((e) => e.type === 'reverted');
    assert.equal(reverts.length, 3);
    assert.ok(reverts.every((e) => e.type === 'reverted' && e.role === 'refactorer' && /broke the tests/.test(e.reason)));

    // After every revert the production file is the green version again, byte for byte.
    assert.equal(fileInContext(contextOf(h.server, 'refactorer', 1, 2), JS_SOURCE_PATH), JS.impl(1));
    assert.equal(fileInContext(contextOf(h.server, 'refactorer', 1, 3), JS_SOURCE_PATH), JS.impl(1));
    assert.equal(fileInContext(contextOf(h.server, 'tester', 2, 1), JS_SOURCE_PATH), JS.impl(1));
    assert.match(contextOf(h.server, 'refactorer', 1, 3), /Your previous refactoring was reverted/);
    assert.equal(await h.git().show([`${summary.cycles[0]!.commit}:${JS_SOURCE_PATH}`]), JS.impl(1));
    const subjects = (await h.git().log([summary.branch])).all.map((c) => c.message);
    assert.ok(!subjects.some((s) => s.startsWith('refactor:')), subjects.join(' | '));
  });
});
