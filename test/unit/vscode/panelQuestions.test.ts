import assert from 'node:assert/strict';
import { emptyPanelState, parsePanelState, type PanelState } from '../../../src/shared/panelProtocol';
import { reducePanel, type PanelAction } from '../../../src/vscode/panel/panelReducer';
import { restoreState } from '../../../src/vscode/panel/panelStore';
import { questionFailure } from '../../../src/vscode/selection/questionFailure';

const fresh = (): PanelState => emptyPanelState({ instanceId: 'host-1', trusted: true });
const fold = (state: PanelState, actions: PanelAction[]): PanelState => actions.reduce(reducePanel, state);
const asked: PanelAction = {
  type: 'questionAsked',
  question: { id: 'qa-1', kind: 'qa', question: 'Why?', source: 'a.js:2-4', at: 1, partial: '' },
};

describe('panel reducer: a question being answered (issue 25)', () => {
  it('shows the question at once, streams its answer, and gives way to the answer', () => {
    const pending = fold(fresh(), [asked, { type: 'questionStreamed', id: 'qa-1', partial: 'Because' }]);
    assert.ok(parsePanelState(pending));
    assert.deepEqual(
      pending.questions?.map((q) => [q.id, q.partial]),
      [['qa-1', 'Because']],
    );
    const answered = reducePanel(pending, {
      type: 'answer',
      answer: { kind: 'qa', id: 'qa-1', question: 'Why?', answer: 'Because.', confidence: 1, reasoning: '' },
    });
    assert.equal(answered.questions, undefined);
    assert.equal(answered.answers.length, 1);
  });

  it('a cancelled or failed question goes away; a delta for an unknown question changes nothing', () => {
    const state = reducePanel(fresh(), asked);
    assert.equal(reducePanel(state, { type: 'questionEnded', id: 'qa-1' }).questions, undefined);
    assert.equal(reducePanel(state, { type: 'questionStreamed', id: 'other', partial: 'x' }), state);
  });

  it('a failed question keeps its card, with why in plain words (issue 36); Dismiss takes it away', () => {
    const state = reducePanel(fresh(), asked);
    const failed = reducePanel(state, {
      type: 'questionFailed',
      id: 'qa-1',
      failed: questionFailure('qa', {
        error_code: 'CONNECTION',
        message: 'Could not reach the model server at http://127.0.0.1:9/v1. Is it running? (set OPENAI_BASE_URL)',
        details: { baseURL: 'http://127.0.0.1:9/v1', retries: 0 },
      }),
    });
    assert.ok(parsePanelState(failed));
    assert.deepEqual(failed.questions?.[0]?.failed, {
      error_code: 'CONNECTION',
      title: 'The question could not be answered',
      message: 'Nothing answered at http://127.0.0.1:9/v1.',
      action: 'Start the model server, or choose another provider or base URL.',
      fixes: ['chooseProvider'],
    });
    assert.equal(reducePanel(failed, { type: 'questionEnded', id: 'qa-1' }).questions, undefined);
    assert.equal(
      reducePanel(fresh(), { type: 'questionFailed', id: 'qa-1', failed: failed.questions![0]!.failed! }).questions,
      undefined,
    );
  });

  it('a reloaded window does not restore questions that nobody answers any more', () => {
    const state = reducePanel(fresh(), asked);
    assert.equal(restoreState(state, 'host-2', true, 10).questions, undefined);
  });
});
