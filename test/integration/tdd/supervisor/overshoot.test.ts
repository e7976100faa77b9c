import { strict as assert } from 'node:assert';
import { SessionSummarySchema } from '../../../../src/core/tdd/sessionSummary';
import { fizzbuzzJs, JS, JS_TEST_PATH } from '../../../support/fizzbuzzPlans';
import { contextOf, fileInContext, SessionHarness } from './sessionHarness';

/** A test that re-asserts cycle 1's behaviour (any number as itself): it passes before any production change. */
const alreadyPassing = `${JS.testFile(1)}\ntest('returns the number itself for 2', () => {\n  assert.equal(fizzbuzz(2), '2');\n});\n`;

describe('TDD supervisor: an overshooting tester', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('counts the overshoot, reverts the passing test and asks the tester again with the reason; the cycle then goes green', async () => {
    const { summary, events, played } = await h.run({
      cycles: fizzbuzzJs(2),
      overrides: {
        'tester:2:1': {
          writes: [{ path: JS_TEST_PATH, content: alreadyPassing }],
          report: 'returns the number itself for 2',
          runTests: true,
        },
      },
    });

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    SessionSummarySchema.parse(summary);
    assert.equal(summary.totals.overshoots, 1);
    assert.equal(summary.totals.violations, 0);
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'green', 'kata_complete'],
    );
    const testing = summary.cycles[1]!.phases.find((p) => p.role === 'tester')!;
    assert.deepEqual([testing.attempts, testing.outcome], [2, 'red']);

    const overshoot = events.find((e) => e.type === 'overshoot');
    assert.ok(overshoot && overshoot.type === 'overshoot');
    assert.equal(overshoot.cycle, 2);
    assert.equal(overshoot.attempt, 1);
    assert.match(overshoot.reason, /Overshoot/);

    // The tester was asked again, told why, and saw its passing test gone (the file as cycle 1 committed it).
    assert.deepEqual(
      played.filter((t) => t.role === 'tester' && t.cycle === 2).map((t) => t.attempt),
      [1, 2],
    );
    const retry = contextOf(h.server, 'tester', 2, 2);
    assert.ok(retry.includes(overshoot.reason), 'the retry context carries the overshoot reason');
    assert.match(retry, /# Your previous attempt was rejected/);
    assert.equal(
      fileInContext(retry, JS_TEST_PATH),
      JS.testFile(1),
      'the overshooting test was reverted: the file is back to the committed version',
    );

    // The green commit holds the real red test of cycle 2, not the overshoot.
    const committed = await h.git().show([`${summary.cycles[1]!.commit}:${JS_TEST_PATH}`]);
    assert.equal(committed, JS.testFile(2));
  });
});
