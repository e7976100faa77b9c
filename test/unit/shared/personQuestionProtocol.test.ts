import assert from 'node:assert/strict';
import {
  emptyPanelState,
  parsePanelMessage,
  parsePanelState,
  personQuestionAnswerMessage,
  personQuestionDeclineMessage,
} from '../../../src/shared/panelProtocol';
import { PERSON_ANSWER_LIMIT, pendingPersonQuestion } from '../../../src/shared/personQuestionProtocol';

describe('panel protocol: question cards and their answers', () => {
  it('accepts an answer (trimmed) and a decline by question id', () => {
    assert.deepEqual(parsePanelMessage({ type: 'personQuestionAnswer', questionId: 'q-1', text: '  start at 1 \n' }).message, {
      type: 'personQuestionAnswer',
      questionId: 'q-1',
      text: 'start at 1',
    });
    assert.deepEqual(parsePanelMessage(personQuestionDeclineMessage('q-1')).message, {
      type: 'personQuestionDecline',
      questionId: 'q-1',
    });
    assert.deepEqual(
      parsePanelMessage(personQuestionAnswerMessage('q-1', ' x ')).message,
      personQuestionAnswerMessage('q-1', 'x'),
    );
  });

  it('drops an empty or too long answer, a missing id, and unknown fields (the panel is untrusted)', () => {
    const invalid: unknown[] = [
      { type: 'personQuestionAnswer', questionId: 'q-1', text: '   ' },
      { type: 'personQuestionAnswer', questionId: 'q-1', text: 'x'.repeat(PERSON_ANSWER_LIMIT + 1) },
      { type: 'personQuestionAnswer', questionId: '', text: 'yes' },
      { type: 'personQuestionAnswer', questionId: 'q-1', text: 'yes', answeredBy: 'someone else' },
      { type: 'personQuestionDecline', questionId: 'q-1', declined: true },
      { type: 'personQuestionDecline' },
    ];
    for (const message of invalid) {
      const parsed = parsePanelMessage(message);
      assert.equal(parsed.message, undefined, JSON.stringify(message));
      assert.match(parsed.reason ?? '', /invalid panel→host message/);
    }
  });

  it('a control-protocol question becomes a card: who asks, the question, choices, and its deadline', () => {
    assert.deepEqual(
      pendingPersonQuestion(
        { id: 'q-1', text: 'The Tester asks: Start at 0\nor 1?', choices: ['0', ' ', '1'], timeoutMs: 5000 },
        1000,
      ),
      { id: 'q-1', asker: 'Tester', text: 'Start at 0\nor 1?', choices: ['0', '1'], expiresAt: 6000 },
    );
    assert.deepEqual(pendingPersonQuestion({ id: 'q-2', text: 'Anything else?' }, 1000), { id: 'q-2', text: 'Anything else?' });
  });

  it('a state with question cards round-trips; a state from before them still loads', () => {
    const state = { ...emptyPanelState({ instanceId: 'i', trusted: true }), personQuestions: [{ id: 'q-1', text: '<b>hi</b>' }] };
    assert.deepEqual(parsePanelState(state)?.personQuestions, [{ id: 'q-1', text: '<b>hi</b>' }]);
    assert.equal(parsePanelState(emptyPanelState({ instanceId: 'i', trusted: true }))?.personQuestions, undefined);
    assert.equal(parsePanelState({ ...state, personQuestions: [{ id: '', text: 'x' }] }), undefined);
  });
});
