import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KataError,
  kataWithProfile,
  listBundledKatas,
  loadKata,
  parseKata,
  resolveKata,
  taskKata,
} from '../../../../src/core/tdd/kata';
import type { ProjectProfile } from '../../../../src/core/project';

const expectKataError = (fn: () => unknown, pattern: RegExp): void => {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof KataError, String(e));
    assert.equal(e.error_code, 'VALIDATION');
    assert.match(e.message, pattern);
    return true;
  });
};

describe('katas', () => {
  it('ships five bundled katas that parse, defaulting to JavaScript', async () => {
    const bundled = listBundledKatas();
    assert.deepEqual(
      bundled.map((k) => k.slug),
      ['bowling', 'fizzbuzz', 'leap-year', 'roman-numerals', 'string-calculator'],
    );
    for (const entry of bundled) {
      const kata = await loadKata(entry.path);
      assert.equal(kata.language, 'javascript');
      assert.equal(kata.sourceDir, 'src');
      assert.equal(kata.testDir, 'test');
      assert.equal(kata.testCommand, undefined, 'per-language defaults live in code');
      assert.ok(kata.description.length > 200, `${entry.slug} has a real description`);
      assert.ok(kata.maxCycles && kata.maxCycles >= 3);
      const python = await loadKata(entry.path, { language: 'python' });
      assert.equal(python.language, 'python');
      assert.equal(python.testDir, 'tests');
    }
    const fizz = await resolveKata('fizzbuzz');
    assert.equal(fizz.title, 'FizzBuzz');
    assert.match(fizz.description, /"FizzBuzz"/);
  });

  it('finds katas/ from a bundle folder too (dist/ → ../katas)', () => {
    const root = mkdtempSync(join(tmpdir(), 'tdd-katas-'));
    try {
      mkdirSync(join(root, 'dist'));
      cpSync(join(__dirname, '..', '..', '..', '..', 'katas'), join(root, 'katas'), { recursive: true });
      assert.equal(listBundledKatas(join(root, 'dist')).length, 5);
      assert.ok(listBundledKatas(join(root, 'dist'))[0].path.startsWith(join(root, 'katas')));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads every front matter field', () => {
    const kata = parseKata(
      '---\ntitle: Word Wrap\nslug: word-wrap\nlanguage: python\ntest_command: python3 -m pytest -q\nsource_dir: ./lib/\ntest_dir: spec\nmax_cycles: 4\n---\nWrap words.\n',
      { fileName: 'ww.md' },
    );
    assert.deepEqual(
      { ...kata },
      {
        title: 'Word Wrap',
        slug: 'word-wrap',
        description: 'Wrap words.',
        language: 'python',
        testCommand: 'python3 -m pytest -q',
        sourceDir: 'lib',
        testDir: 'spec',
        maxCycles: 4,
        fileName: 'ww.md',
        declared: { language: 'python', testCommand: 'python3 -m pytest -q', sourceDir: 'lib', testDir: 'spec' },
      },
    );
  });

  it('works without front matter: title from the heading, slug from the file name', () => {
    const kata = parseKata('# Game of Life\n\nEvolve a grid.\n', { fileName: '/x/game-of-life.md' });
    assert.equal(kata.title, 'Game of Life');
    assert.equal(kata.slug, 'game-of-life');
    assert.equal(kata.language, 'javascript');
    const inline = parseKata('# Ünïcode Kata!\n\ntext');
    assert.equal(inline.slug, 'unicode-kata');
  });

  it('a --language override drops fields meant for the other language', () => {
    const kata = parseKata('---\nlanguage: python\ntest_command: pytest\ntest_dir: tests\n---\n# K\nbody', {
      language: 'javascript',
    });
    assert.equal(kata.language, 'javascript');
    assert.equal(kata.testCommand, undefined);
    assert.equal(kata.testDir, 'test');
    const same = parseKata('---\nlanguage: python\ntest_command: pytest\n---\n# K\nbody', { language: 'python' });
    assert.equal(same.testCommand, 'pytest');
  });

  it('names the field in validation errors', () => {
    expectKataError(
      () => parseKata('---\nmax_cycles: ten\n---\n# K\nbody', { fileName: 'k.md' }),
      /k\.md: field 'max_cycles'.*"ten"/,
    );
    expectKataError(() => parseKata('---\nmax_cycles: 0\n---\n# K\nbody'), /field 'max_cycles'/);
    expectKataError(() => parseKata('---\nlanguage: cobol\n---\n# K\nbody'), /field 'language'/);
    expectKataError(
      () => parseKata('---\ntest-command: x\n---\n# K\nbody'),
      /unknown field 'test-command' \(known: .*test_command/,
    );
    expectKataError(() => parseKata('---\nsource_dir: ../escape\n---\n# K\nbody'), /field 'source_dir': must not contain '\.\.'/);
    expectKataError(() => parseKata('---\ntest_dir: /abs\n---\n# K\nbody'), /field 'test_dir': must be relative/);
    expectKataError(() => parseKata('---\nslug: Not A Slug\n---\n# K\nbody'), /field 'slug'/);
  });

  it('reports malformed files clearly', () => {
    expectKataError(() => parseKata('---\ntitle: [unclosed\n---\n# K\nbody'), /not valid YAML/);
    // Issue 25: the whole reason, ended, with the place once (not cut after "column 1:").
    expectKataError(
      () => parseKata('---\ntitle: a\nlanguage: [js\n  x: y: z\n---\n# K\nbody'),
      /not valid YAML \(front matter line 2, column 12\): Implicit keys of flow sequence pairs need to be on a single line\.$/,
    );
    expectKataError(() => parseKata('---\ntitle: x\n# K\nbody'), /no closing '---'/);
    expectKataError(() => parseKata('---\n- a\n- b\n---\n# K\nbody'), /must be a YAML mapping/);
    expectKataError(() => parseKata('---\ntitle: Empty\n---\n\n'), /description .* is empty/);
  });

  it('reports a missing kata file or name', async () => {
    await assert.rejects(
      loadKata('/nonexistent/kata.md'),
      (e: unknown) => e instanceof KataError && /does not exist/.test(e.message),
    );
    await assert.rejects(
      resolveKata('no-such-kata'),
      (e: unknown) => e instanceof KataError && /Bundled katas: bowling, fizzbuzz/.test(e.message),
    );
  });

  it('a sentence given as a kata name says it reads like a task', async () => {
    await assert.rejects(resolveKata('Add a foreign_key helper'), (e: unknown) => {
      assert.ok(e instanceof KataError);
      assert.match(e.message, /No kata file 'Add a foreign_key helper'.* It reads like a task in plain words: run it as a task/);
      assert.equal(e.details.looksLikeTask, true);
      return true;
    });
    await assert.rejects(
      resolveKata('Parse a/b paths'),
      (e: unknown) => e instanceof KataError && e.details.looksLikeTask === true,
    );
    await assert.rejects(
      resolveKata('no-such-kata'),
      (e: unknown) => e instanceof KataError && e.details.looksLikeTask === undefined,
    );
  });

  it('a task is a kata without a file: the sentence as title and description, a slug from its first words', () => {
    const task = taskKata('Add a foreign_key helper that builds the SQL for a foreign key constraint');
    assert.equal(task.title, 'Add a foreign_key helper that builds the SQL for a foreign key constraint');
    assert.equal(task.slug, 'add-a-foreign-key-helper-that-builds', 'six words');
    assert.equal(task.description, task.title);
    assert.equal(task.task, true);
    assert.equal(task.fileName, undefined);
    assert.deepEqual(task.declared, {});
    const withContext = taskKata({ text: '  Make it handle ON DELETE\nand ON UPDATE  ', context: 'Selected code:\n```\nx\n```' });
    assert.equal(withContext.title, 'Make it handle ON DELETE');
    assert.equal(withContext.description, 'Make it handle ON DELETE\nand ON UPDATE\n\nSelected code:\n```\nx\n```');
    assert.equal(taskKata('!!!').slug, 'task');
    assert.equal(taskKata('x'.repeat(300)).title.length, 200);
    expectKataError(() => taskKata('   '), /The task is empty/);
    expectKataError(() => taskKata('x '.repeat(3000)), /keep it under 4000/);
  });

  it('a kata fitted to a project takes its folders, patterns and language; a detected command stays unnamed', () => {
    const kata = parseKata('# Slugs\n\nSlugify.');
    const profile: ProjectProfile = {
      root: '/r',
      language: 'typescript',
      languages: ['typescript'],
      packageManager: 'pnpm',
      testRunner: 'vitest',
      testCommand: 'vitest run',
      testFilePatterns: ['src/**/*.test.ts'],
      sourceRoots: ['src', 'lib'],
      testDir: 'src',
      testsBesideSource: true,
      manifests: ['package.json'],
      readFrom: ['package.json'],
      fields: {
        language: 'detected',
        packageManager: 'detected',
        testRunner: 'detected',
        testCommand: 'detected',
        testFilePatterns: 'detected',
        sourceRoots: 'detected',
        testDir: 'detected',
      },
      notes: [],
    };
    const fitted = kataWithProfile(kata, profile);
    assert.equal(fitted.language, 'typescript');
    assert.equal(fitted.sourceDir, 'src');
    assert.equal(fitted.testDir, 'src');
    assert.deepEqual(fitted.testFilePatterns, ['src/**/*.test.ts']);
    assert.equal(fitted.testCommand, undefined, 'the repository’s own script is found again by the runner');
    assert.equal(fitted.project, profile);
    const named = kataWithProfile(kata, { ...profile, fields: { ...profile.fields, testCommand: 'flag' } });
    assert.equal(named.testCommand, 'vitest run');
  });
});
