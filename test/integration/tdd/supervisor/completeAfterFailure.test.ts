import { strict as assert } from 'node:assert';
import { fizzbuzzJs, JS_SOURCE_PATH } from '../../../support/fizzbuzzPlans';
import type { TurnPlan } from '../../../support/scriptedKataModel';
import { SessionHarness } from './sessionHarness';

/** An implementation that never makes a FizzBuzz test pass. */
const wrong: TurnPlan = {
  writes: [{ path: JS_SOURCE_PATH, content: `export function fizzbuzz(n) {\n  return 'nope';\n}\n` }],
  report: 'return something',
};

/**
 * A Tester that says KATA_COMPLETE right after a failed cycle does not make the session a success: the failed cycle's
 * behaviour was rolled back, so the task is not done (the same rule as at the cycle limit: the last attempt must be green).
 */
describe('TDD supervisor: "nothing left to test" right after a failed cycle', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('ends failed (GREEN_NOT_REACHED), at the last green commit, saying why', async () => {
    const overrides = Object.fromEntries([1, 2, 3].map((attempt) => [`implementer:2:${attempt}`, wrong]));
    // Cycle 1 green, cycle 2 never green, cycle 3: the Tester answers KATA_COMPLETE.
    const { summary } = await h.run({ cycles: fizzbuzzJs(2), overrides }, { maxCycles: 5 });
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'failed', 'kata_complete'],
    );
    assert.equal(summary.status, 'failed');
    assert.equal(summary.error?.error_code, 'GREEN_NOT_REACHED');
    assert.match(summary.error?.message ?? '', /failed to reach green, and then the Tester found nothing left to test/);
    assert.match(summary.error?.message ?? '', /the workspace is at the last green commit/);
    assert.equal(summary.totals.commits, 1, 'the green cycle stays committed');
  });

  it('a Tester that finds nothing left after green cycles still completes the session', async () => {
    const { summary } = await h.run({ cycles: fizzbuzzJs(1) }, { maxCycles: 5 });
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'kata_complete'],
    );
    assert.equal(summary.status, 'completed');
    assert.equal(summary.error, undefined);
  });
});
