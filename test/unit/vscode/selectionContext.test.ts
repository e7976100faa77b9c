import assert from 'node:assert/strict';
import { followUpContextText, selectionContextText } from '../../../src/vscode/selection/selectionContext';
import { selectedLines, selectionLineRange } from '../../../src/vscode/selection/selectionRange';

describe('Ask / Explain context: file, language, surrounding lines, follow-ups', () => {
  it('names the file and language and marks the lines around the selection as context, apart from the selected code', () => {
    const text = selectionContextText({
      file: 'src/fizzbuzz.js',
      language: 'javascript',
      selection: 'if (n % 15 === 0) return "FizzBuzz";\nif (n % 3 === 0) return "Fizz";',
      startLine: 3,
      endLine: 4,
      before: ['export function fizzbuzz(n) {', '  // rules'],
      after: ['  return String(n);', '}'],
    });
    assert.match(text, /^File: src\/fizzbuzz\.js \(language: javascript\); the selection is lines 3-4\./);
    const before = text.indexOf('Context before the selection (lines 1-2; not part of the selection)');
    const selected = text.indexOf('Selected code:\n```javascript\nif (n % 15');
    const after = text.indexOf('Context after the selection (lines 5-6; not part of the selection)');
    assert.ok(before > 0 && selected > before && after > selected, text);
    assert.ok(!text.slice(selected, after).includes('export function'), 'context lines are not in the selected block');
  });

  it('leaves out empty context and keeps backticks in the code from closing its fence', () => {
    const text = selectionContextText({
      file: 'a.md',
      language: 'markdown',
      selection: '```js\nx\n```',
      startLine: 1,
      endLine: 3,
      before: [],
      after: [],
    });
    assert.ok(!text.includes('Context before') && !text.includes('Context after'));
    assert.match(text, /Selected code:\n````markdown\n```js\nx\n```\n````$/);
  });

  it('lines 2–4 selected with Shift+Down (the cursor at column 1 of line 5) are lines 2-4 in the prompt, as in the label', () => {
    const start = { line: 1, character: 0 };
    const end = { line: 4, character: 0 };
    const lines = selectedLines(start, end);
    const text = selectionContextText({
      file: 'src/a.js',
      language: 'javascript',
      selection: 'two\nthree\nfour\n',
      startLine: lines.first,
      endLine: lines.last,
      before: ['one'],
      after: ['five'],
    });
    assert.equal(selectionLineRange(start, end), '2-4');
    assert.match(text, /the selection is lines 2-4\./);
    assert.match(text, /Selected code:\n```javascript\ntwo\nthree\nfour\n```/);
    assert.match(text, /Context after the selection \(line 5; not part of the selection\):\n```javascript\nfive\n```/);
  });

  it('a follow-up carries the previous question and answer after the original context', () => {
    const text = followUpContextText('File: a.js', 'What does it do?', 'It adds.');
    assert.match(text, /^File: a\.js\n\nPrevious question: What does it do\?\n\nPrevious answer:\nIt adds\./);
  });
});
