import { strict as assert } from 'node:assert';
import { extractJson, parseJsonText } from '../../../src/core/json/jsonText';

function problem(text: string) {
  const result = parseJsonText(text);
  assert.ok(!result.ok, 'expected a syntax error');
  return result.problem;
}

describe('JSON text', () => {
  it('parses valid JSON', () => {
    assert.deepEqual(parseJsonText('{"a": [1, true, null]}'), { ok: true, value: { a: [1, true, null] } });
  });

  it('gives line and column of an error the parser places', () => {
    assert.deepEqual(
      { line: problem('{\n  "a": 1\n  "b": 2\n}').line, column: problem('{\n  "a": 1\n  "b": 2\n}').column },
      { line: 3, column: 3 },
    );
  });

  it('locates an unexpected token the parser does not place, on the right line', () => {
    const p = problem('{\n  "ok": true,\n  "bad": nul }');
    assert.equal(p.line, 3);
    assert.doesNotMatch(p.reason, /\n/);
    assert.doesNotMatch(p.reason, /is not valid JSON/);
  });

  it('places a truncated text at its last non-blank character', () => {
    const p = problem('{\n  "a": [1,\n\n\n');
    assert.equal(p.line, 2);
  });

  describe('extracting the JSON of a model reply', () => {
    const cases: Array<[string, string]> = [
      ['plain JSON', '  {"answer": "x"}  '],
      ['a ```json fence', 'Here you go:\n```json\n{"answer": "x"}\n```\nHope it helps.'],
      ['an unlabelled fence', '```\n{"answer": "x"}\n```'],
      ['prose around one object', 'Sure! The result is {"answer": "x"} as requested.'],
    ];
    for (const [name, text] of cases) {
      it(`reads ${name}`, () => {
        assert.deepEqual(extractJson(text), { ok: true, value: { answer: 'x' } });
      });
    }

    it('reports the error inside a broken fence rather than at its backticks', () => {
      const result = extractJson('```json\n{\n  "answer": "x",\n  "n": 01\n}\n```');
      assert.ok(!result.ok);
      assert.equal(result.problem.line, 3);
    });

    it('reports text with no JSON at all', () => {
      const result = extractJson('I cannot answer that.');
      assert.ok(!result.ok);
      assert.equal(result.problem.line, 1);
    });
  });
});
