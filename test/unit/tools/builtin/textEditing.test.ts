import { strict as assert } from 'node:assert';
import { planEdit } from '../../../../src/core/tools/builtin/editFile';
import { truncateText } from '../../../../src/core/tools/builtin/textLimits';
import { unifiedDiff } from '../../../../src/core/tools/builtin/unifiedDiff';
import { diffStats } from '../../../../src/core/tools/builtin/writeFile';

describe('builtin tools: unifiedDiff', () => {
  it('returns an empty string when nothing changes', () => {
    assert.equal(unifiedDiff('a\nb\n', 'a\nb\n', 'x.txt'), '');
  });

  it('shows a new file against /dev/null', () => {
    assert.equal(
      unifiedDiff(undefined, 'one\ntwo\n', 'src/new.ts'),
      '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+one\n+two\n',
    );
  });

  it('shows a deleted file against /dev/null', () => {
    assert.equal(unifiedDiff('gone\n', undefined, 'old.ts'), '--- a/old.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n');
  });

  it('keeps three lines of context and separate hunks for distant changes', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 2\n', 'line two\n').replace('line 18\n', 'line eighteen\n');
    const diff = unifiedDiff(before, after, 'f.txt');
    assert.equal(
      diff,
      [
        '--- a/f.txt',
        '+++ b/f.txt',
        '@@ -1,5 +1,5 @@',
        ' line 1',
        '-line 2',
        '+line two',
        ' line 3',
        ' line 4',
        ' line 5',
        '@@ -15,6 +15,6 @@',
        ' line 15',
        ' line 16',
        ' line 17',
        '-line 18',
        '+line eighteen',
        ' line 19',
        ' line 20',
        '',
      ].join('\n'),
    );
    assert.deepEqual(diffStats(diff), { added: 2, removed: 2 });
  });

  it('marks a missing final newline', () => {
    const diff = unifiedDiff('a\nb', 'a\nb\n', 'f');
    assert.match(diff, /-b\n\\ No newline at end of file\n\+b\n/);
  });

  it('stays bounded for a complete rewrite of a large file', () => {
    const before = Array.from({ length: 5000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 5000 }, (_, i) => `new ${i}`).join('\n');
    const stats = diffStats(unifiedDiff(before, after, 'big.txt'));
    assert.deepEqual(stats, { added: 5000, removed: 5000 });
  });
});

describe('builtin tools: planEdit (exact search/replace)', () => {
  it('replaces the single occurrence', () => {
    assert.deepEqual(planEdit('a = 1;\nb = 2;\n', 'b = 2', 'b = 3'), { ok: true, text: 'a = 1;\nb = 3;\n', replacements: 1 });
  });

  it('fails clearly when the search text is absent', () => {
    const plan = planEdit('hello', 'world', 'there');
    assert.equal(plan.ok, false);
    assert.match((plan as { reason: string }).reason, /search text was not found.*exact text/);
  });

  it('fails on an ambiguous search and says how many times it appears', () => {
    const plan = planEdit('x\nx\nx\n', 'x', 'y');
    assert.equal(plan.ok, false);
    assert.match((plan as { reason: string }).reason, /appears 3 times.*replace_all/);
  });

  it('replaces every occurrence with replace_all', () => {
    assert.deepEqual(planEdit('x x x', 'x', 'y', true), { ok: true, text: 'y y y', replacements: 3 });
  });

  it('treats $ patterns in the replacement literally', () => {
    assert.deepEqual(planEdit('price', 'price', '$& $1 $$'), { ok: true, text: '$& $1 $$', replacements: 1 });
    assert.deepEqual(planEdit('a a', 'a', '$&', true), { ok: true, text: '$& $&', replacements: 2 });
  });

  it('matches an LF search text in a CRLF file and keeps CRLF', () => {
    assert.deepEqual(planEdit('one\r\ntwo\r\n', 'one\ntwo', 'uno\ndos'), { ok: true, text: 'uno\r\ndos\r\n', replacements: 1 });
  });

  it('refuses a no-op edit', () => {
    assert.match((planEdit('a', 'a', 'a') as { reason: string }).reason, /identical/);
  });
});

describe('builtin tools: truncateText', () => {
  it('leaves short text alone and marks cut text', () => {
    assert.deepEqual(truncateText('abc', 5), { text: 'abc', truncated: false });
    const cut = truncateText('abcdefgh', 3, 'read less');
    assert.equal(cut.truncated, true);
    assert.equal(cut.text, 'abc\n…[truncated: 5 more characters not shown; read less]');
  });
});
