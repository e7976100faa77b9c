/**
 * Issue 36 (6): the history lists a fact once. A role's answered question (`person_question` and its `ask_person` call)
 * is one entry, "answered by you", with the time the person took; the Implementer's green run of the changed tests and
 * the whole suite's run right after it are one green test run per cycle.
 */
import assert from 'node:assert/strict';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import {
  emptyPanelState,
  parsePanelState,
  type PanelState,
  type TestRunRecord,
  type ToolCallRecord,
} from '../../../src/shared/panelProtocol';
import { reducePanel, testRunId } from '../../../src/vscode/panel/panelReducer';
import { askedAndRevertedCycle, sessionStart } from './fixtures';

function fold(events: SupervisorEvent[]): PanelState {
  const state = events.reduce(
    (s, event, i) => reducePanel(s, { type: 'supervisor', event, at: 1000 + i }),
    emptyPanelState({ instanceId: 'h', trusted: true }),
  );
  assert.ok(parsePanelState(state), 'a valid snapshot');
  return state;
}

const questions = (state: PanelState) =>
  state.actions.filter((a): a is ToolCallRecord => a.kind === 'toolCall' && a.tool === 'ask_person');
const runs = (state: PanelState, role: string) =>
  state.actions.filter((a): a is TestRunRecord => a.kind === 'testRun' && a.role === role);

describe('panel reducer: each fact once in the history (issue 36)', () => {
  it('an answered ask_person is one entry, answered by the person, with the time it waited', () => {
    const asked = questions(fold([sessionStart(), ...askedAndRevertedCycle(1, 'sha1')]));
    assert.equal(asked.length, 1);
    const [entry] = asked;
    assert.equal(entry!.id, 'ask1', "the call's id");
    assert.equal(entry!.answer, 'person');
    assert.equal(entry!.durationMs, 37_700);
    assert.equal(entry!.resultSummary, 'You answered: Start at 1');
    assert.ok(entry!.ok);
  });

  it('is one entry whichever event comes first, and for a question nobody answered', () => {
    const events = askedAndRevertedCycle(1, 'sha1');
    const question = events.findIndex((e) => e.type === 'person_question');
    const [asked] = events.splice(question, 1) as [Extract<SupervisorEvent, { type: 'person_question' }>];
    events.splice(question + 1, 0, { ...asked, outcome: 'timeout', answer: undefined, answeredBy: undefined });
    const [entry, ...more] = questions(fold([sessionStart(), ...events]));
    assert.equal(more.length, 0);
    assert.equal(entry!.answer, 'nobody');
    assert.match(entry!.resultSummary, /^No answer \(no answer in time\); the tester decided by itself/);
    assert.ok(entry!.ok, 'no answer is no failure');
  });

  it("the Implementer's changed tests and the whole suite after them are one green run, kept under the full run's id", () => {
    const events = [sessionStart(), ...askedAndRevertedCycle(1, 'sha1'), ...askedAndRevertedCycle(2, 'sha2')];
    const state = fold(events);
    const implementer = runs(state, 'implementer');
    assert.equal(implementer.length, 2, 'one per cycle');
    const [first] = implementer;
    assert.equal(first!.status, 'passed');
    assert.equal((first!.params as { scope?: string }).scope, 'full');
    assert.equal(first!.durationMs, 225 + 154);
    assert.match(
      first!.resultSummary,
      /^The changed tests passed first \(2 passed: test\/fizzbuzz\.test\.js\), then the whole suite ran\./,
    );
    const full = events.findIndex((e) => e.type === 'test_run_finished' && e.role === 'implementer' && e.scope === 'full');
    const fullEvent = events[full] as Extract<SupervisorEvent, { type: 'test_run_finished' }>;
    assert.equal(first!.id, testRunId(fullEvent, 1000 + full), 'the host keeps the full output under this id');
    // A Tester's related red run stays as it is.
    assert.equal(runs(state, 'tester').length, 2);
  });
});
