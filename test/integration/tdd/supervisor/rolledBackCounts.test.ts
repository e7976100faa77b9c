import { strict as assert } from 'node:assert';
import { formatEvent } from '../../../../src/cli/progressPrinter';
import type { SupervisorEvent } from '../../../../src/core/tdd/events';
import { SessionSummarySchema } from '../../../../src/core/tdd/sessionSummary';
import { emptyPanelState } from '../../../../src/shared/panelProtocol';
import { reducePanel } from '../../../../src/vscode/panel/panelReducer';
import { fizzbuzzJs, JS_SOURCE_PATH } from '../../../support/fizzbuzzPlans';
import type { TurnPlan } from '../../../support/scriptedKataModel';
import { cancelledSession, initPersonRepo, SessionHarness } from './sessionHarness';

/** An implementation that never makes a FizzBuzz test pass. */
const wrong: TurnPlan = {
  writes: [{ path: JS_SOURCE_PATH, content: `export function fizzbuzz(n) {\n  return 'nope';\n}\n` }],
  report: 'return something',
};

/** Every attempt of the Implementer in cycle `n` leaves the new test red. */
function implementerNeverGreen(n: number): Record<string, TurnPlan> {
  return Object.fromEntries([1, 2, 3].map((attempt) => [`implementer:${n}:${attempt}`, wrong]));
}

function cycleFinished(events: SupervisorEvent[], n: number): Extract<SupervisorEvent, { type: 'cycle_finished' }> {
  const found = events.find((e) => e.type === 'cycle_finished' && e.cycle === n);
  assert.ok(found && found.type === 'cycle_finished', `no cycle_finished for cycle ${n}`);
  return found;
}

/** The panel's view model after the session's events. */
function panelOf(events: SupervisorEvent[]) {
  return events.reduce(
    (state, event, i) => reducePanel(state, { type: 'supervisor', event, at: 1000 + i }),
    emptyPanelState({ instanceId: 'h', trusted: true }),
  );
}

/**
 * A cycle whose Implementer never reached green is rolled back to the last green commit: the session ends there, so
 * the cycle's `cycle_finished`, the summary, the CLI's lines and the panel's header give that state's counts. The
 * failed cycle's own red run is reported too, as the rolled-back attempt, never as where the session ended.
 */
describe('TDD supervisor: the counts after a failed cycle are the ones of the state it was rolled back to', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('after a green cycle: the last green commit’s counts (1 passed, 0 failed), the red run as the rolled-back attempt', async () => {
    const { summary, events } = await h.run(
      { cycles: fizzbuzzJs(2), overrides: implementerNeverGreen(2), completeAfterLastCycle: false },
      { maxCycles: 2 },
    );
    assert.equal(summary.status, 'failed');
    SessionSummarySchema.parse(summary);
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'failed'],
    );

    const failed = cycleFinished(events, 2);
    assert.deepEqual(
      { passed: failed.tests.passed, failed: failed.tests.failed, total: failed.tests.total },
      { passed: 1, failed: 0, total: 1 },
    );
    assert.deepEqual(failed.rolledBackTests && { passed: failed.rolledBackTests.passed, failed: failed.rolledBackTests.failed }, {
      passed: 1,
      failed: 1,
    });
    assert.equal(cycleFinished(events, 1).rolledBackTests, undefined, 'a green cycle rolled nothing back');

    assert.deepEqual(summary.cycles[1]!.tests, { passed: 1, failed: 0 });
    assert.deepEqual(summary.cycles[1]!.rolled_back_tests, { passed: 1, failed: 1 });
    assert.equal(summary.cycles[0]!.rolled_back_tests, undefined);
    assert.equal(summary.totals.tests_passed, 1);

    assert.equal(
      formatEvent(failed),
      '  cycle 2: failed, rolled back (1 passing; the rolled-back attempt had 1 passed, 1 failed)',
    );
    assert.match(formatEvent(events.at(-1)!)!, /^Session failed: 2 cycles, 1 commits, 1 tests passing,/);

    const panel = panelOf(events);
    assert.deepEqual(
      panel.session?.totals && { passed: panel.session.totals.testsPassed, failed: panel.session.totals.testsFailed },
      {
        passed: 1,
        failed: 0,
      },
    );
    const row = panel.cycles.find((c) => c.n === 2)!;
    assert.deepEqual(row.tests, { passed: 1, failed: 0 });
    assert.deepEqual(row.rolledBackTests, { passed: 1, failed: 1 });
  });

  it('a cycle cancelled after its red run: its record has the counts it was rolled back to, the red ones apart', async () => {
    const { state } = await cancelledSession(h);
    const cycle = state.cycles.at(-1)!;
    assert.equal(cycle.outcome, 'cancelled');
    assert.deepEqual(cycle.tests, { passed: 0, failed: 0, total: 0 }, 'the scaffold has no test yet');
    assert.equal(cycle.rolledBackTests?.failed, 1, 'the Tester’s red test');
    assert.equal(state.metrics.testsPassing, 0);
  });

  it('before any green cycle: the baseline’s counts, known failure included (2 passed, 1 failed)', async () => {
    const ok = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('adds', () => assert.equal(1 + 1, 2));\ntest('subtracts', () => assert.equal(2 - 1, 1));\n`;
    const broken = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('talks to a server that is not there', () => {\n  assert.fail('ECONNREFUSED 127.0.0.1:5432');\n});\n`;
    await initPersonRepo(h.workspace, {
      'package.json': JSON.stringify({ name: 'mine', type: 'module', scripts: { test: 'node --test' } }, null, 2),
      'test/math.test.js': ok,
      'test/db.test.js': broken,
    });
    const { summary, events } = await h.run(
      { cycles: fizzbuzzJs(1), overrides: implementerNeverGreen(1), completeAfterLastCycle: false },
      { maxCycles: 1 },
    );
    assert.equal(summary.status, 'failed');
    SessionSummarySchema.parse(summary);
    assert.equal(summary.totals.commits, 0);

    const failed = cycleFinished(events, 1);
    assert.deepEqual({ passed: failed.tests.passed, failed: failed.tests.failed }, { passed: 2, failed: 1 });
    assert.ok(failed.rolledBackTests, 'the red attempt is reported');
    assert.equal(failed.rolledBackTests.failed, 2, 'the known failure and the new test');
    assert.deepEqual(summary.cycles[0]!.tests, { passed: 2, failed: 1 });
    assert.equal(summary.totals.tests_passed, 2, 'the baseline’s passing tests: no cycle changed the branch');

    const panel = panelOf(events);
    assert.deepEqual(
      panel.session?.totals && { passed: panel.session.totals.testsPassed, failed: panel.session.totals.testsFailed },
      {
        passed: 2,
        failed: 1,
      },
    );
  });
});
