import { strict as assert } from 'node:assert';
import { parsePorcelainStatus, refSafeSlug, sessionBranchName } from '../../../../src/core/tdd/git';

describe('git status parsing and branch names', () => {
  it('maps porcelain -z entries to added / modified / deleted, leaving out .tdd/', () => {
    const out = [
      '?? new.js',
      ' M src/a.js',
      'M  src/b.js',
      ' D gone.js',
      'A  staged.js',
      'AD ghost.js',
      '?? .tdd/session.json',
      'MM both.js',
      '',
    ].join('\0');
    assert.deepEqual(parsePorcelainStatus(out), [
      { path: 'new.js', change: 'added' },
      { path: 'src/a.js', change: 'modified' },
      { path: 'src/b.js', change: 'modified' },
      { path: 'gone.js', change: 'deleted' },
      { path: 'staged.js', change: 'added' },
      { path: 'both.js', change: 'modified' },
    ]);
    assert.deepEqual(parsePorcelainStatus('?? name with spaces.js\0'), [{ path: 'name with spaces.js', change: 'added' }]);
  });

  it('builds tdd/<slug>-<YYYYMMDD-HHMMSS> in UTC from any slug', () => {
    assert.equal(sessionBranchName('fizzbuzz', new Date(Date.UTC(2026, 10, 22, 8, 5, 9))), 'tdd/fizzbuzz-20261122-080509');
    assert.equal(refSafeSlug('../Weird..Name~^:?*[ @{'), 'weird-name');
    assert.equal(refSafeSlug('***'), 'kata');
  });
});
