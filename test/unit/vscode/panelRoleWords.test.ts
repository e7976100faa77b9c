/**
 * Issue 36 (9): a role's own words stay in its turn's history wherever a message carried them. Words said beside a
 * tool call keep their place before that call when the same message comes again as the turn's report (a turn its goal
 * ended); words that only streamed are kept, no longer "writing", once the role's phase ended.
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

const turn = (state: PanelState, role: string) =>
  state.actions
    .filter((a) => a.role === role && a.cycle === 1)
    .map((a) => (a.kind === 'message' ? `says: ${a.text}` : a.kind === 'toolCall' ? a.tool : a.kind));

describe("panel reducer: the roles' own words (issue 36)", () => {
  it('words beside a tool call stay before it when they come again as the report', () => {
    const state = fold([sessionStart(), ...askedAndRevertedCycle(1, 'sha1')]);
    assert.deepEqual(turn(state, 'tester'), [
      'ask_person',
      'says: Wrote one failing test: multiples of three are Fizz',
      'write_file',
      'testRun',
    ]);
    assert.deepEqual(turn(state, 'implementer'), ['says: Return Fizz for multiples of three', 'write_file', 'testRun']);
    const report = state.actions.find((a) => a.kind === 'message' && a.role === 'tester');
    assert.ok(report?.kind === 'message' && report.final, 'the same message, now the report');
  });

  it('words that only streamed are kept, and no longer marked as being written once the phase ended', () => {
    const events = askedAndRevertedCycle(1, 'sha1').flatMap((e): SupervisorEvent[] =>
      e.type === 'role_message' && e.role === 'implementer'
        ? e.final
          ? []
          : [{ type: 'role_text', cycle: e.cycle, role: e.role, attempt: e.attempt, message: e.message, delta: e.text }]
        : [e],
    );
    const words = fold([sessionStart(), ...events]).actions.find((a) => a.kind === 'message' && a.role === 'implementer');
    assert.ok(words?.kind === 'message');
    assert.deepEqual([words.text, words.streaming], ['Return Fizz for multiples of three', false]);
  });
});
