/**
 * Issue 36 (2): a refactoring the supervisor undid reads as reverted, with why, not "Skipped" — the timeline's phase
 * keeps "reverted" when the Refactorer then changes nothing, and says which tests the refactoring broke.
 */
import assert from 'node:assert/strict';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import { emptyPanelState, parsePanelState, type PanelState } from '../../../src/shared/panelProtocol';
import { reducePanel } from '../../../src/vscode/panel/panelReducer';
import { askedAndRevertedCycle, sessionStart } from './fixtures';

function fold(events: SupervisorEvent[]): PanelState {
  const state = events.reduce(
    (s, event, i) => reducePanel(s, { type: 'supervisor', event, at: 1000 + i }),
    emptyPanelState({ instanceId: 'h', trusted: true }),
  );
  assert.ok(parsePanelState(state), 'a valid snapshot');
  return state;
}

const refactorer = (state: PanelState) => state.cycles[0]!.phases.find((p) => p.role === 'refactorer');

describe('panel reducer: a reverted refactoring (issue 36)', () => {
  it('stays "reverted" when the next attempt changes nothing, and says which test it broke', () => {
    const phase = refactorer(fold([sessionStart(), ...askedAndRevertedCycle(1, 'sha1')]));
    assert.equal(phase?.outcome, 'reverted');
    assert.equal(phase?.attempts, 2);
    assert.equal(phase?.reverted, 'Refactoring reverted: it broke 1 test (returns Fizz for multiples of three)');
  });

  it('a later attempt that stood is the outcome, without the earlier revert', () => {
    const events = askedAndRevertedCycle(1, 'sha1').map((e): SupervisorEvent =>
      e.type === 'phase_finished' && e.role === 'refactorer' ? { ...e, outcome: 'refactored' } : e,
    );
    const phase = refactorer(fold([sessionStart(), ...events]));
    assert.equal(phase?.outcome, 'passed');
    assert.equal(phase?.reverted, undefined);
  });

  it('says why in words for fewer tests, a failed gate, and a run that could not say which tests', () => {
    const withRevert = (reason: string, change: (e: SupervisorEvent) => SupervisorEvent = (e) => e) =>
      refactorer(
        fold([
          sessionStart(),
          ...askedAndRevertedCycle(1, 'sha1')
            .map((e): SupervisorEvent => (e.type === 'reverted' ? { ...e, reason } : e))
            .map(change),
        ]),
      )?.reverted;
    assert.equal(withRevert('The number of tests went down from 2 to 1.'), 'Refactoring reverted: it left fewer tests (1 of 2)');
    assert.equal(
      withRevert('The quality gate failed after the refactoring:\nlint: 1 error'),
      'Refactoring reverted: a quality gate failed after it',
    );
    assert.equal(
      withRevert('The refactoring broke the tests (2 failing, 0 passing):', (e) =>
        e.type === 'test_run_finished' && e.role === 'refactorer'
          ? { ...e, tests: { status: 'failed', passed: 0, failed: 2, total: 2 }, testCases: undefined }
          : e,
      ),
      'Refactoring reverted: it broke 2 tests',
    );
  });

  it("keeps the failing tests' names on the test run's history entry", () => {
    const state = fold([sessionStart(), ...askedAndRevertedCycle(1, 'sha1')]);
    const run = state.actions.find((a) => a.kind === 'testRun' && a.role === 'refactorer');
    assert.deepEqual(run?.kind === 'testRun' && run.failingTests, ['returns Fizz for multiples of three']);
  });
});
