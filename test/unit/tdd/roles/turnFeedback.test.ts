import { strict as assert } from 'node:assert';
import { noChangeNotice, whatStands, withTurnFeedback, type TurnFileFacts } from '../../../../src/core/tdd/roles/turnFeedback';

const facts = (over: Partial<TurnFileFacts>): TurnFileFacts => ({
  attempt: 1,
  writes: [],
  changed: [],
  standing: [],
  report: '',
  ...over,
});

describe('turn feedback: what a turn left, told to the next attempt', () => {
  it('a turn that changed no file is told so, and why', () => {
    assert.match(
      noChangeNotice(facts({ report: 'Here it is:\n\n```js\nexport const f = 1;\n```' }))!,
      /^Attempt 1 changed no file: your reply held code in a Markdown block, and code in a message is not applied to any file\. Change files only with tool calls: write_file .* edit_file/,
    );
    assert.match(
      noChangeNotice(facts({ report: '  ' }))!,
      /^Attempt 1 changed no file: your reply was empty \(no words and no tool call\)\. Change files only/,
    );
    assert.match(
      noChangeNotice(facts({ report: 'Done.' }))!,
      /changed no file: it made no write_file or edit_file call\. Change files only/,
    );
    const refused = facts({
      attempt: 2,
      report: 'Done.',
      writes: [
        { tool: 'write_file', path: 'test/a.test.js', outcome: 'refused', reason: 'The Implementer may not change test files.' },
      ],
    });
    assert.equal(
      noChangeNotice(refused),
      'Attempt 2 changed no file: 1 write refused by the role rules changed nothing (listed below).',
    );
    assert.equal(noChangeNotice(facts({ changed: ['src/a.js'] })), undefined, 'a turn that changed a file');
  });

  it('says what stands of each write: kept, undone by the supervisor, no difference, refused, failed', () => {
    const text = whatStands(
      facts({
        writes: [
          { tool: 'write_file', path: 'src/a.js', outcome: 'applied' },
          { tool: 'write_file', path: 'src/a.js', outcome: 'applied' },
          { tool: 'edit_file', path: 'src/b.js', outcome: 'applied' },
          { tool: 'write_file', path: 'src/c.js', outcome: 'applied' },
          {
            tool: 'write_file',
            path: 'test/a.test.js',
            outcome: 'refused',
            reason: 'The Implementer may not change test files.',
          },
          {
            tool: 'edit_file',
            path: 'src/d.js',
            outcome: 'failed',
            reason: "Error: the search text was not found in 'src/d.js'.",
          },
        ],
        changed: ['src/a.js', 'src/b.js'],
        standing: ['src/a.js'],
      }),
    );
    assert.equal(
      text,
      [
        "What stands of attempt 1's writes:",
        '- write_file src/a.js: applied; it stands.',
        '- edit_file src/b.js: applied, then undone by the supervisor.',
        '- write_file src/c.js: applied, but the file is as it was before this attempt.',
        '- write_file test/a.test.js: refused by the role rules, it changed nothing: The Implementer may not change test files.',
        "- edit_file src/d.js: failed, it changed nothing: Error: the search text was not found in 'src/d.js'.",
      ].join('\n'),
    );
    assert.equal(whatStands(facts({})), undefined);
  });

  it('puts why nothing changed before the supervisor’s reason and what stands after it', () => {
    const text = withTurnFeedback('Attempt 1 did not make the tests pass (1 failing).', facts({ report: '' }));
    assert.match(
      text,
      /^Attempt 1 changed no file: your reply was empty.*\n\nAttempt 1 did not make the tests pass \(1 failing\)\.$/,
    );
    assert.equal(withTurnFeedback('reason', facts({ changed: ['a'] })), 'reason');
  });
});
