import assert from 'node:assert/strict';
import type { MergePreview } from '../../../src/core/tdd/session';
import { mergeConfirmation } from '../../../src/vscode/session/mergeConfirmation';

const preview = (over: Partial<MergePreview>): MergePreview => ({
  branch: 'tdd/fizzbuzz-1',
  into: 'main',
  unborn: false,
  commits: ['feat: one', 'refactor: tidy'],
  files: [
    { path: 'src/fizzbuzz.js', status: 'A' },
    { path: 'README.md', status: 'M' },
  ],
  fastForward: true,
  conflicts: [],
  inTheWay: [],
  ...over,
});

describe('the merge confirmation says what arrives and how', () => {
  it('lists the commits and the files with their status, and that the person’s other work is not changed', () => {
    const { message, detail } = mergeConfirmation(preview({}));
    assert.equal(message, 'Merge 2 commits of tdd/fizzbuzz-1 into main?');
    assert.match(detail, /Commits:\n {2}feat: one\n {2}refactor: tidy/);
    assert.match(detail, /Files \(2\):\n {2}A src\/fizzbuzz\.js\n {2}M README\.md/);
    assert.match(detail, /a fast-forward/);
    assert.match(detail, /untracked and ignored files, your stash and your other branches are not changed/);
  });

  it('an unborn branch takes the commits as its history; a diverged one gets a merge commit', () => {
    assert.match(
      mergeConfirmation(preview({ unborn: true })).detail,
      /^main has no commit yet: it takes these commits as its history/,
    );
    assert.match(mergeConfirmation(preview({ fastForward: false })).detail, /a merge commit joins the two/);
    assert.equal(mergeConfirmation(preview({ commits: ['feat: one'] })).message, 'Merge 1 commit of tdd/fizzbuzz-1 into main?');
  });

  it('long lists are cut with a count of the rest', () => {
    const files = Array.from({ length: 20 }, (_, i) => ({ path: `f${i}.js`, status: 'A' as const }));
    assert.match(mergeConfirmation(preview({ files })).detail, /f11\.js\n {2}… and 8 more/);
  });
});
