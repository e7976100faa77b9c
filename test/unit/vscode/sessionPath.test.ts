import assert from 'node:assert/strict';
import { sessionRelativePath } from '../../../src/vscode/editor/sessionPath';

describe('session file paths from the panel (file links)', () => {
  const worktree = '/cache/tdd-agent/worktrees/fizzbuzz-1';

  it('takes worktree-relative paths and absolute ones inside the worktree (as runners print them)', () => {
    assert.equal(sessionRelativePath(worktree, 'src/fizzbuzz.js'), 'src/fizzbuzz.js');
    assert.equal(sessionRelativePath(worktree, './test/../src/fizzbuzz.js'), 'src/fizzbuzz.js');
    assert.equal(sessionRelativePath(worktree, `${worktree}/test/fizzbuzz.test.js`), 'test/fizzbuzz.test.js');
    assert.equal(
      sessionRelativePath(undefined, 'src/fizzbuzz.js'),
      'src/fizzbuzz.js',
      'a relative path needs no worktree (branch read)',
    );
  });

  it('refuses anything that leaves the worktree', () => {
    assert.equal(sessionRelativePath(worktree, '../other/secret.txt'), undefined);
    assert.equal(sessionRelativePath(worktree, 'src/../../x'), undefined);
    assert.equal(sessionRelativePath(worktree, '/etc/passwd'), undefined);
    assert.equal(sessionRelativePath(worktree, `${worktree}-evil/x.js`), undefined);
    assert.equal(sessionRelativePath(undefined, '/etc/passwd'), undefined, 'no absolute path without a worktree');
    assert.equal(sessionRelativePath(worktree, '.'), undefined);
  });
});
