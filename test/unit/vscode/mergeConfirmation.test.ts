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
  it('without the session’s set-up (issue 36): its empty first commit and placeholders are not listed, and said left out', () => {
    const { message, detail } = mergeConfirmation(
      preview({
        unborn: true,
        into: 'main',
        commits: ['chore: initial empty commit (tdd-agent)', 'chore: scaffold a javascript project for FizzBuzz', 'feat: one'],
        files: [
          { path: 'package.json', status: 'A' },
          { path: 'src/.gitkeep', status: 'A' },
          { path: 'src/fizzbuzz.js', status: 'A' },
          { path: 'test/.gitkeep', status: 'A' },
        ],
      }),
      { initialCommit: 'abc', placeholders: ['src/.gitkeep', 'test/.gitkeep'] },
    );
    assert.equal(message, 'Merge 2 commits of tdd/fizzbuzz-1 into main?');
    assert.doesNotMatch(detail, /initial empty commit|A src\/\.gitkeep/);
    assert.match(detail, /Files \(2\):\n {2}A package\.json\n {2}A src\/fizzbuzz\.js/);
    assert.match(
      detail,
      /Left out: the session's set-up — its empty first commit and the empty placeholder files src\/\.gitkeep, test\/\.gitkeep\. Merge with the set-up keeps it\./,
    );
  });
});
