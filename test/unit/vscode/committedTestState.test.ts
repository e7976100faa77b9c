/**
 * The session's test state is the state of its last commit, not of the last raw run: after a red refactoring was
 * rolled back, the header and the status bar say what every cycle says (all passed), and a run from the Testing
 * view becomes the state they show.
 */
import assert from 'node:assert/strict';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import { emptyPanelState, type PanelState } from '../../../src/shared/panelProtocol';
import { reducePanel, type PanelAction } from '../../../src/vscode/panel/panelReducer';
import { statusView } from '../../../src/vscode/status/statusText';
import { completedSummary, greenCycle, wholeSession } from './fixtures';

const fold = (state: PanelState, actions: PanelAction[]): PanelState => actions.reduce(reducePanel, state);
const supervisor = (list: SupervisorEvent[]): PanelAction[] =>
  list.map((event, i) => ({ type: 'supervisor', event, at: 1000 + i }));
const counts = (passed: number, failed: number) => ({
  status: failed > 0 ? ('failed' as const) : ('passed' as const),
  passed,
  failed,
  total: passed + failed,
});

/** Cycle `n` whose Refactorer broke a test: its run is red, the supervisor rolls the refactoring back. */
function cycleWithRedRefactor(n: number): SupervisorEvent[] {
  const green = greenCycle(n, `sha${n}`);
  const end = green.findIndex((e) => e.type === 'phase_finished' && e.role === 'refactorer');
  return [
    ...green.slice(0, end),
    { type: 'test_run_finished', cycle: n, role: 'refactorer', tests: counts(n - 1, 1), durationMs: 40 },
    { type: 'reverted', cycle: n, role: 'refactorer', reason: 'The refactoring broke the tests.' },
    { type: 'phase_finished', cycle: n, role: 'refactorer', outcome: 'skipped', attempts: 3, durationMs: 90 },
    ...green.slice(end + 1),
  ];
}

describe('the session’s test state is the one of its last commit', () => {
  const [started] = wholeSession(1);
  const baseline: SupervisorEvent = {
    type: 'test_run_finished',
    cycle: 0,
    role: 'baseline',
    tests: counts(0, 0),
    durationMs: 10,
  };

  it('after a red refactoring was rolled back: header and status bar say 4 passed, 0 failed, as every cycle does', () => {
    const events: SupervisorEvent[] = [
      started!,
      baseline,
      ...greenCycle(1, 'sha1'),
      ...greenCycle(2, 'sha2'),
      ...greenCycle(3, 'sha3'),
      ...cycleWithRedRefactor(4),
    ];
    const running = fold(emptyPanelState({ instanceId: 'h', trusted: true }), supervisor(events));
    assert.deepEqual(
      running.cycles.map((c) => c.tests),
      [1, 2, 3, 4].map((n) => ({ passed: n, failed: 0 })),
    );
    assert.equal(running.session?.totals.testsPassed, 4);
    assert.equal(running.session?.totals.testsFailed, 0);
    const finished = fold(running, supervisor([{ type: 'session_finished', status: 'completed', summary: completedSummary(4) }]));
    assert.deepEqual(
      { passed: finished.session?.totals.testsPassed, failed: finished.session?.totals.testsFailed },
      { passed: 4, failed: 0 },
    );
    assert.match(statusView(finished).text, /✓4 ✗0/);
    assert.doesNotMatch(statusView(finished).text, /✗1/);
  });

  it('before the first commit the baseline is the state; the Tester’s red run does not change it', () => {
    const mid = greenCycle(1, 'sha1').slice(0, 5); // up to the Tester's red run
    const state = fold(
      emptyPanelState({ instanceId: 'h', trusted: true }),
      supervisor([started!, { ...baseline, tests: counts(2, 0) }, ...mid]),
    );
    assert.deepEqual(
      { passed: state.session?.totals.testsPassed, failed: state.session?.totals.testsFailed },
      { passed: 2, failed: 0 },
    );
  });

  it('a session that ends before its first green cycle keeps the baseline’s count', () => {
    const state = fold(
      emptyPanelState({ instanceId: 'h', trusted: true }),
      supervisor([
        started!,
        { ...baseline, tests: counts(2, 0) },
        { type: 'session_finished', status: 'failed', summary: { ...completedSummary(0), status: 'failed' } },
      ]),
    );
    assert.deepEqual(
      { passed: state.session?.totals.testsPassed, failed: state.session?.totals.testsFailed },
      { passed: 2, failed: 0 },
    );
  });

  it('after a cycle rolled back: header and status bar say the last commit’s counts; the cycle row keeps its attempt’s apart', () => {
    const red = greenCycle(2, 'sha2').slice(0, 5); // cycle 2 up to the Tester's red run (1 passed, 1 failed)
    const events: SupervisorEvent[] = [
      started!,
      baseline,
      ...greenCycle(1, 'sha1'),
      ...red,
      { type: 'test_run_finished', cycle: 2, role: 'implementer', tests: counts(1, 1), durationMs: 40 },
      { type: 'reverted', cycle: 2, role: 'implementer', reason: 'No green state after the last attempt.' },
      { type: 'phase_finished', cycle: 2, role: 'implementer', outcome: 'failed', attempts: 3, durationMs: 90 },
      { type: 'cycle_finished', cycle: 2, outcome: 'failed', tests: counts(1, 0), rolledBackTests: counts(1, 1) },
      {
        type: 'session_finished',
        status: 'failed',
        summary: { ...completedSummary(1), status: 'failed', totals: { ...completedSummary(1).totals, cycles: 2 } },
      },
    ];
    const state = fold(emptyPanelState({ instanceId: 'h', trusted: true }), supervisor(events));
    assert.deepEqual(
      { passed: state.session?.totals.testsPassed, failed: state.session?.totals.testsFailed },
      { passed: 1, failed: 0 },
    );
    assert.match(statusView(state).text, /✓1 ✗0/);
    const row = state.cycles.find((c) => c.n === 2)!;
    assert.equal(row.outcome, 'failed');
    assert.deepEqual(row.tests, { passed: 1, failed: 0 });
    assert.deepEqual(row.rolledBackTests, { passed: 1, failed: 1 });
    assert.equal(state.cycles.find((c) => c.n === 1)!.rolledBackTests, undefined);
  });

  it('a run from the Testing view becomes the header’s and the status bar’s state (after the session ended)', () => {
    const done = fold(emptyPanelState({ instanceId: 'h', trusted: true }), supervisor(wholeSession(2)));
    const ran = reducePanel(done, { type: 'testingRun', tests: { passed: 1, failed: 1 } });
    assert.equal(ran.session?.totals.testsFailed, 1);
    assert.match(statusView(ran).text, /✓1 ✗1/);
    const again = reducePanel(ran, { type: 'testingRun', tests: { passed: 2, failed: 0 } });
    assert.match(statusView(again).text, /✓2 ✗0/);
  });
});
