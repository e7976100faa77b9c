import assert from 'node:assert/strict';
import { selectionLineRange } from '../../../src/vscode/selection/selectionRange';

describe('selection line range (the label of an Ask / Explain answer)', () => {
  it('lines 1–3 selected with the cursor at column 1 of line 4 is 1-3', () => {
    assert.equal(selectionLineRange({ line: 0, character: 0 }, { line: 3, character: 0 }), '1-3');
  });

  it('a selection ending inside a line includes it; one line is one number', () => {
    assert.equal(selectionLineRange({ line: 0, character: 2 }, { line: 3, character: 1 }), '1-4');
    assert.equal(selectionLineRange({ line: 4, character: 2 }, { line: 4, character: 9 }), '5');
    assert.equal(selectionLineRange({ line: 4, character: 0 }, { line: 5, character: 0 }), '5');
  });
});
