import { strict as assert } from 'node:assert';
import { parseJsoncText, parseJsonText } from '../../../src/core/json/jsonText';

describe('parseJsoncText: JSON with comments and trailing commas (agent configs)', () => {
  it('reads line and block comments, and trailing commas in objects and arrays', () => {
    const text = '{\n  // a line comment\n  "a": 1, /* a block\n comment */ "b": [1, 2,],\n}\n';
    assert.deepEqual(parseJsoncText(text), { ok: true, value: { a: 1, b: [1, 2] } });
  });

  it('never touches strings: comment markers, escaped quotes and backslashes inside them stay', () => {
    const text = String.raw`{"url": "http://x//y", "q": "say \"/* hi */\"", "b": "C:\\", "c": "/*"}`;
    assert.deepEqual(parseJsoncText(text), {
      ok: true,
      value: { url: 'http://x//y', q: 'say "/* hi */"', b: 'C:\\', c: '/*' },
    });
  });

  it('plain JSON parses as before', () => {
    const text = '{"a": [1, {"b": null}], "c": "d"}';
    assert.deepEqual(parseJsoncText(text), parseJsonText(text));
  });

  it('keeps the line and column of a syntax error after comments (CRLF line ends too)', () => {
    const result = parseJsoncText('{\r\n  /* one\r\n two */ "a": 1,\r\n  "b" 2\r\n}');
    assert.equal(result.ok, false);
    if (!result.ok) assert.deepEqual([result.problem.line, result.problem.column], [4, 7]);
  });

  it('a comma that follows no value is still an error ([,] and doubled commas)', () => {
    for (const text of ['[,]', '{,}', '{"a": 1,,}', '[1,,]']) assert.equal(parseJsoncText(text).ok, false, text);
  });

  it('an unterminated block comment is an error at its start', () => {
    const result = parseJsoncText('{\n  "a": 1 /* open\n}');
    assert.deepEqual(result, { ok: false, problem: { line: 2, column: 10, reason: 'unterminated comment (/* without */)' } });
  });

  it('a leading byte order mark is ignored', () => {
    assert.deepEqual(parseJsoncText('\uFEFF{"a": 1}'), { ok: true, value: { a: 1 } });
  });

  it('a comment at the very end, without a line break, is fine', () => {
    assert.deepEqual(parseJsoncText('{"a": 1} // done'), { ok: true, value: { a: 1 } });
  });
});
