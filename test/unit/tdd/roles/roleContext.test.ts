import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildRoleContext, type RoleContextInput } from '../../../../src/core/tdd/roles/roleContext';

const KATA = '# FizzBuzz\n\nWrite `fizzbuzz(n)`:\n- "Fizz" for multiples of 3.';
const TEST = "import { fizzbuzz } from '../src/fizzbuzz.js';\ntest('1', () => assert.equal(fizzbuzz(1), \"1\"));\n";
const SOURCE = 'export function fizzbuzz(n) {\n  return String(n);\n}\n';

describe('role context: stable-to-volatile order, each thing once', () => {
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'role-context-'));
    const files: Array<[string, string, number]> = [
      ['package.json', '{ "type": "module" }\n', 1_000],
      ['.git', 'gitdir: /somewhere/.git/worktrees/x\n', 1_000],
      ['src/.gitkeep', '', 1_000],
      ['src/fizzbuzz.js', SOURCE, 3_000], // changed last
      ['test/fizzbuzz.test.js', TEST, 2_000],
    ];
    for (const [path, text, seconds] of files) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
      await utimes(join(root, path), seconds, seconds);
    }
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const input = (over: Partial<RoleContextInput> = {}): RoleContextInput => ({
    role: 'implementer',
    kataTitle: 'FizzBuzz',
    kataDescription: KATA,
    language: 'javascript',
    sourceDir: 'src',
    testDir: 'test',
    testCommand: 'node --test',
    workspaceRoot: root,
    cycle: 2,
    maxCycles: 6,
    attempt: 2,
    maxAttempts: 3,
    recentCommits: ['abc1234 feat: one'],
    focusFiles: ['test/fizzbuzz.test.js'],
    ...over,
  });

  it('orders kata, session, files (least recently changed first), commits, turn, test output, retry reason', async () => {
    const output = `not ok 1 - 3 is Fizz\n  at ${root}/test/fizzbuzz.test.js:2:1`;
    const context = await buildRoleContext(input({ lastTestOutput: output, lastError: 'The refactoring broke the tests.' }));
    const at = (needle: string) => {
      const i = context.indexOf(needle);
      assert.ok(i >= 0, `missing ${JSON.stringify(needle)} in\n${context}`);
      return i;
    };
    const order = [
      '# FizzBuzz',
      '# Session',
      '## test/fizzbuzz.test.js',
      '## src/fizzbuzz.js',
      '# Repository map',
      '- package.json (21 bytes)',
      '# Recent commits',
      '# This turn\n- cycle: 2 of 6\n- attempt: 2 of 3',
      '# Last test output',
      '# Your previous attempt was rejected',
    ];
    const positions = order.map(at);
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
      context,
    );
    assert.ok(
      context.includes(KATA) && context.includes(`\n${TEST}\n`) && context.includes(`\n${SOURCE}\n`),
      'kata, test file and source in full',
    );
    assert.ok(!context.includes('.gitkeep'), 'an empty placeholder is left out');
    assert.ok(context.includes('# Recent commits\n- feat: one'), 'commits without their hash');
    assert.ok(context.startsWith(KATA), 'a description with its own title heading gets no second one');
    assert.ok(!context.includes('"type": "module"'), 'files outside the test and production folders are listed, not shown');
    assert.ok(!context.includes('gitdir'), "a worktree's .git file is not shown");
    assert.ok(context.includes('at ./test/fizzbuzz.test.js:2:1') && !context.includes(root), 'the workspace path is written .');
  });

  it('shows test output once when the retry reason quotes it', async () => {
    const output = 'not ok 1 - returns Fizz\n  expected: Fizz\n  actual: 3';
    const context = await buildRoleContext(
      input({ lastTestOutput: output, lastError: `Attempt 1 did not make the tests pass (1 failing).\n${output}` }),
    );
    assert.equal(context.split('expected: Fizz').length, 2, context);
    assert.ok(!context.includes('# Last test output'));
    assert.match(context, /# Your previous attempt was rejected\nAttempt 1 did not make the tests pass/);
    assert.ok(context.endsWith('actual: 3'));
  });

  it('says in one line that the last run passed instead of repeating its output', async () => {
    const context = await buildRoleContext(
      input({ lastTestOutput: 'ok 1 - one\nok 2 - two', lastTestRun: { status: 'passed', passed: 2, failed: 0, total: 2 } }),
    );
    assert.ok(context.endsWith('# Last test run\nAll 2 test(s) passed.'), context);
    const red = await buildRoleContext(
      input({ lastTestOutput: 'not ok 1 - one', lastTestRun: { status: 'failed', passed: 0, failed: 1, total: 1 } }),
    );
    assert.ok(red.endsWith('# Last test output\n```\nnot ok 1 - one\n```'), red);
  });

  it("leaves the session's own set-up commits out of the recent commits", async () => {
    const context = await buildRoleContext(
      input({
        recentCommits: [
          'a1b2c3d feat: returns Fizz',
          'abc1234 chore: scaffold a javascript project for FizzBuzz',
          'def5678 chore: initial empty commit (tdd-agent)',
        ],
      }),
    );
    assert.ok(context.includes('# Recent commits\n- feat: returns Fizz\n\n'), context);
    const setupOnly = await buildRoleContext(input({ recentCommits: ['def5678 chore: initial empty commit (tdd-agent)'] }));
    assert.ok(setupOnly.includes('# Recent commits\n(none yet)'));
  });

  it('names the kata in a heading when its description has none', async () => {
    const context = await buildRoleContext(input({ kataDescription: 'Write `fizzbuzz(n)`.' }));
    assert.ok(context.startsWith('# Kata: FizzBuzz\n\nWrite `fizzbuzz(n)`.\n\n# Session\n'), context);
  });

  it('gives the test in focus and the code it imports the token budget; docs are listed after them, never shown', async () => {
    await writeFile(join(root, 'big-notes.md'), 'x'.repeat(5_000));
    await mkdir(join(root, 'docs'));
    await writeFile(join(root, 'docs/conf.py'), 'project = "fizzbuzz"\n'.repeat(50));
    const context = await buildRoleContext(input({ fileTokenBudget: 500 }));
    assert.ok(context.includes(`\n${TEST}\n`) && context.includes(`\n${SOURCE}\n`), context);
    assert.ok(context.includes('- big-notes.md (5000 bytes)'));
    assert.ok(context.includes('- docs/conf.py (1050 bytes)'));
    assert.ok(!context.includes('project = '), 'a docs file is never shown');
    assert.ok(context.indexOf('docs/conf.py') > context.indexOf(SOURCE), 'listed after the source');
  });

  it('maps the code not in focus with its exported symbols, and shows an example test on a first turn', async () => {
    await writeFile(
      join(root, 'src/other.js'),
      'export function parse(text) {}\nexport const VERSION = 1;\nfunction hidden() {}\n',
    );
    const context = await buildRoleContext(input());
    assert.ok(context.includes('- src/other.js: parse, VERSION'), context);
    assert.ok(!context.includes('function hidden'), 'code outside the focus is mapped, not shown');
    // No focus and nothing changed yet: the test file that shares most words with the task, and what it imports.
    const first = await buildRoleContext(input({ focusFiles: [], role: 'tester' }));
    assert.ok(first.includes(`\n${TEST}\n`) && first.includes(`\n${SOURCE}\n`), first);
  });

  it("shows the files changed since the role's last turn after the others, a grown test file before changed code", async () => {
    const shownBefore = new Map<string, string>();
    const first = await buildRoleContext(input({ shownBefore }));
    assert.ok(first.indexOf('## test/fizzbuzz.test.js') < first.indexOf('## src/fizzbuzz.js'), 'least recently changed first');
    assert.deepEqual([...shownBefore.keys()].sort(), ['src/fizzbuzz.js', 'test/fizzbuzz.test.js']);

    // Since then: the source changed in the middle (earlier), a test was added at the end of the test file (later),
    // and a helper appeared in the production folder before both.
    const grownTest = `${TEST}test('3', () => assert.equal(fizzbuzz(3), 'Fizz'));\n`;
    const changedSource = SOURCE.replace('return String(n);', "if (n % 3 === 0) return 'Fizz';\n  return String(n);");
    for (const [path, text, seconds] of [
      ['src/helper.js', 'export const three = 3;\n', 4_000],
      ['src/fizzbuzz.js', changedSource, 5_000],
      ['test/fizzbuzz.test.js', grownTest, 6_000],
    ] as const) {
      await writeFile(join(root, path), text);
      await utimes(join(root, path), seconds, seconds);
    }
    const second = await buildRoleContext(input({ shownBefore, sessionFiles: ['src/helper.js'] }));
    const at = (path: string) => second.indexOf(`## ${path}`);
    assert.ok(at('test/fizzbuzz.test.js') >= 0 && at('test/fizzbuzz.test.js') < at('src/fizzbuzz.js'), second);
    assert.ok(at('src/helper.js') < at('src/fizzbuzz.js'), 'changed files by their last change: ' + second);
    assert.ok(second.includes(`\n${grownTest}\n`) && second.includes(`\n${changedSource}\n`), 'both in full');
    // The start of the test file block, as the role saw it last turn, still follows the unchanged part.
    const seenTestBlock = first.slice(first.indexOf('## test/fizzbuzz.test.js'), first.indexOf(TEST) + TEST.length);
    assert.ok(second.includes(`# File contents\n${seenTestBlock}`), second);
    assert.equal(shownBefore.get('test/fizzbuzz.test.js'), `## test/fizzbuzz.test.js\n\`\`\`\n${grownTest}\n\`\`\``);
  });
});
