import assert from 'node:assert/strict';
import { emptyPanelState } from '../../../src/shared/panelProtocol';
import { reducePanel } from '../../../src/vscode/panel/panelReducer';
import { formatTokens, statusView } from '../../../src/vscode/status/statusText';
import { wholeSession } from './fixtures';

describe('status bar text', () => {
  it('idle: a short label that opens the panel', () => {
    assert.equal(statusView(emptyPanelState({ instanceId: 'i', trusted: true })).text, '$(beaker) TDD');
  });

  it('running: cycle n/N, phase, tests passed/failed and tokens', () => {
    let state = emptyPanelState({ instanceId: 'i', trusted: true });
    for (const event of wholeSession(2).slice(0, 1 + 15 + 5)) state = reducePanel(state, { type: 'supervisor', event, at: 1 });
    const view = statusView(state);
    // The tests of the last commit (cycle 1), not the red run of cycle 2's Tester.
    assert.equal(view.text, '$(sync~spin) TDD 2/6 red ✓1 ✗0 690 tok'.replace('690', String(state.session!.totals.tokens)));
    assert.match(view.tooltip, /cycle 2\/6/);
  });

  it('says "writing a test", not "red", while the Tester has not run its new test yet (issue 25)', () => {
    let state = emptyPanelState({ instanceId: 'i', trusted: true });
    const events = wholeSession(2);
    const started = events.findIndex((e) => e.type === 'phase_changed' && e.phase === 'TESTING');
    for (const event of events.slice(0, started + 1)) state = reducePanel(state, { type: 'supervisor', event, at: 1 });
    assert.match(statusView(state).text, /TDD 1\/6 writing a test /);
  });

  it("starting with the kata's own max_cycles still unknown: only the cycle, no '/0'", () => {
    const state = reducePanel(emptyPanelState({ instanceId: 'h', trusted: true }), {
      type: 'sessionStarting',
      kata: 'fizz.md',
      model: 'm',
      provider: 'openai',
      maxCycles: 0,
      at: 1,
    });
    assert.match(statusView(state).text, /TDD 0 starting/);
  });

  it('finished: the final status and totals', () => {
    let state = emptyPanelState({ instanceId: 'i', trusted: true });
    for (const event of wholeSession(3)) state = reducePanel(state, { type: 'supervisor', event, at: 1 });
    assert.equal(statusView(state).text, '$(pass) TDD done 3/6 ✓3 ✗0 690 tok');
  });

  it('formats token counts compactly', () => {
    assert.deepEqual([0, 999, 1234, 12_345, 2_500_000].map(formatTokens), ['0', '999', '1.2k', '12k', '2.5M']);
  });
});
