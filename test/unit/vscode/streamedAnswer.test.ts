import assert from 'node:assert/strict';
import { streamedAnswerText, streamedField } from '../../../src/vscode/selection/streamedAnswer';

describe('a QA / CoT answer while it streams (issue 25)', () => {
  it('reads a string field as far as it has arrived, escapes decoded, an escape cut in two left for later', () => {
    assert.equal(streamedField('{"answer": "It ret', 'answer'), 'It ret');
    assert.equal(streamedField('{"answer": "a \\"b\\"\\nc\\u00e9", "confidence": 0.9}', 'answer'), 'a "b"\nc\u00e9');
    assert.equal(streamedField('{"answer": "line\\', 'answer'), 'line');
    assert.equal(streamedField('{"answer": "x\\u00', 'answer'), 'x');
    assert.equal(streamedField('{"confid', 'answer'), undefined);
  });

  it('QA shows its answer; CoT its steps as a list, then the final answer', () => {
    assert.equal(streamedAnswerText('qa', '{"answer": "Because 15 is'), 'Because 15 is');
    assert.equal(
      streamedAnswerText('cot', '{"step1": "30 / 3 = 10.", "step2": "30 / 5 = 6.", "final_answer": "Fizz'),
      '1. 30 / 3 = 10.\n2. 30 / 5 = 6.\n\n**Final answer:** Fizz',
    );
    assert.equal(streamedAnswerText('cot', '{"step1": "'), '');
  });
});
