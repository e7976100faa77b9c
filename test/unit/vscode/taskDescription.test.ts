import { strict as assert } from 'node:assert';
import { MAX_TASK_SELECTION_CHARS, taskDescription } from '../../../src/vscode/commands/taskDescription';

describe('Start TDD task…: the task sent with the selection', () => {
  it('without a selection the task is the sentence', () => {
    assert.deepEqual(taskDescription('  Add a slugify helper \n'), { text: 'Add a slugify helper' });
    assert.deepEqual(taskDescription('Add x', { file: 'a.ts', language: 'typescript', startLine: 1, endLine: 1, code: '  \n' }), {
      text: 'Add x',
    });
  });

  it('a selection is attached with its workspace-relative file, lines and language, fenced', () => {
    const task = taskDescription('Handle ON DELETE CASCADE', {
      file: 'src/sqlhelpers/keys.py',
      language: 'python',
      startLine: 10,
      endLine: 12,
      code: 'def foreign_key(table, column):\n    return f"REFERENCES {table}({column})"\n',
    });
    assert.equal(task.text, 'Handle ON DELETE CASCADE');
    assert.equal(
      task.context,
      'The task is about this code, selected in src/sqlhelpers/keys.py (lines 10-12, python):\n```python\ndef foreign_key(table, column):\n    return f"REFERENCES {table}({column})"\n```',
    );
    const one = taskDescription('x', { file: 'a.js', language: 'javascript', startLine: 3, endLine: 3, code: 'const a = 1;' });
    assert.match(one.context!, /\(line 3, javascript\)/);
  });

  it('code holding backticks cannot close the fence; a long selection is clipped and says so', () => {
    const ticks = taskDescription('x', { file: 'a.md', language: 'markdown', startLine: 1, endLine: 3, code: '```\ncode\n```' });
    assert.match(ticks.context!, /\n````markdown\n```\ncode\n```\n````$/);
    const long = taskDescription('x', {
      file: 'big.ts',
      language: 'typescript',
      startLine: 1,
      endLine: 900,
      code: 'a'.repeat(MAX_TASK_SELECTION_CHARS + 50),
    });
    assert.match(long.context!, new RegExp(`its first ${MAX_TASK_SELECTION_CHARS} characters`));
    assert.ok(long.context!.length < MAX_TASK_SELECTION_CHARS + 300);
  });
});
