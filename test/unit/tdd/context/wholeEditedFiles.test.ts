import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  selectContextFiles,
  WHOLE_FILE_BYTES,
  type ContextFilesInput,
} from '../../../../src/core/tdd/context/selectContextFiles';

const json = (value: unknown) => JSON.stringify(value, null, 2);
const isTestFile = (path: string) => /(^|\/)(test_[^/]*\.py|[^/]*\.test\.[jt]s)$/.test(path);

/** A Python module of `lines` lines: public functions with docstrings. */
function longModule(lines: number, name = 'helper'): string {
  const out = ['"""Text helpers."""', ''];
  for (let i = 0; out.length < lines; i++)
    out.push(`def ${name}_${i}(text):`, `    """Helper ${i} of a long module."""`, `    return text * ${i}`, '');
  return `${out.slice(0, lines).join('\n')}\n`;
}

/** A CommonJS root index.js of `lines` lines. */
function rootIndex(lines: number): string {
  const out = ["'use strict';", ''];
  for (let i = 0; out.length < lines - 1; i++) out.push(`function part${i}(n) {`, `  return n + ${i};`, '}', '');
  out.push('module.exports = { part0, part1, parse: part2 };');
  return `${out.join('\n')}\n`;
}

// Issue 35: the file a role edits next is in its context whole, up to 64 KiB a file, whatever the token budget, ahead of
// the map of the rest: the Tester's test file; the code that test reaches for the Implementer and the Refactorer.
describe('role context: what the role edits next is whole', () => {
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'whole-files-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  async function write(files: Record<string, string>): Promise<void> {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
  }

  const select = async (over: Partial<ContextFilesInput>) => {
    const chosen = await selectContextFiles({ workspaceRoot: root, isTestFile, task: 'a task', budgetTokens: 800, ...over });
    const whole = (path: string, text: string) => chosen.shown.some((s) => s.block === `## ${path}\n\`\`\`\n${text}\n\`\`\``);
    return { ...chosen, whole, shownPaths: chosen.shown.map((s) => s.path).sort() };
  };

  it("the Implementer sees a 143-line root index.js that the test reaches through require('..'), over its budget", async () => {
    const index = rootIndex(143);
    await write({
      'package.json': json({ name: 'duration-lite', main: 'index.js' }),
      'index.js': index,
      'test/parse.test.js': "const { parse } = require('..');\ntest('x', () => parse(1));\n",
    });
    const implementer = await select({ focusFiles: ['test/parse.test.js'], editsNext: 'code', budgetTokens: 500 });
    assert.ok(implementer.whole('index.js', index), implementer.shownPaths.join());
    const before = await select({ focusFiles: ['test/parse.test.js'], budgetTokens: 500 });
    assert.ok(!before.shownPaths.includes('index.js'), 'without editsNext it competes for the budget (and loses)');
    assert.ok(
      before.map.some((line) => line.startsWith('- index.js: ')),
      before.map.join('\n'),
    );
  });

  it('follows the names the test imports through __init__.py to the long module that defines them, not the package’s other modules', async () => {
    const core = longModule(580);
    await write({
      'pyproject.toml': '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
      'src/textkit/__init__.py': 'from .core import helper_1, helper_2\nfrom .markup import escape_html\n',
      'src/textkit/core.py': core,
      'src/textkit/markup.py': longModule(40, 'escape'),
      'tests/test_text.py':
        'from textkit import helper_1, initials\n\n\ndef test_initials():\n    assert initials("Ada Lovelace") == "AL"\n',
    });
    const implementer = await select({ focusFiles: ['tests/test_text.py'], editsNext: 'code' });
    assert.ok(implementer.whole('src/textkit/core.py', core), implementer.shownPaths.join());
    assert.ok(implementer.shownPaths.includes('src/textkit/__init__.py'));
    assert.ok(!implementer.shownPaths.includes('src/textkit/markup.py'), 'a re-export the test does not take is mapped');
    assert.ok(
      implementer.map.some((line) => line.startsWith('- src/textkit/markup.py: escape_0')),
      implementer.map.join('\n'),
    );
    // The Refactorer changes the same code; the Tester changes its test file only: the long module is not whole for it.
    const refactorer = await select({ focusFiles: ['tests/test_text.py'], editsNext: 'code' });
    assert.ok(refactorer.whole('src/textkit/core.py', core));
    const tester = await select({ focusFiles: ['tests/test_text.py'], editsNext: 'test' });
    assert.ok(!tester.shownPaths.includes('src/textkit/core.py'), tester.shownPaths.join());
  });

  it("the Tester's test file is whole over its budget; with nothing in focus, the tests the session wrote", async () => {
    const test = `import { parse } from '../src/parse.js';\n${"test('parses', () => parse('x'));\n".repeat(300)}`;
    await write({ 'src/parse.js': 'export const parse = (t) => t;\n', 'test/parse.test.js': test });
    const focused = await select({ focusFiles: ['test/parse.test.js'], editsNext: 'test', budgetTokens: 600 });
    assert.ok(focused.whole('test/parse.test.js', test), 'not cut to the budget');
    const nextCycle = await select({
      sessionFiles: ['src/parse.js', 'test/parse.test.js'],
      editsNext: 'test',
      budgetTokens: 600,
    });
    assert.ok(nextCycle.whole('test/parse.test.js', test), nextCycle.shownPaths.join());
    const cut = await select({ focusFiles: ['test/parse.test.js'], budgetTokens: 600 });
    assert.ok(!cut.whole('test/parse.test.js', test) && cut.shown[0]?.block.includes('characters cut to fit the context budget'));
  });

  it('a file over 64 KiB is not whole; the files a role edits next take 128 KiB together at most, in order', async () => {
    const big = (name: string, kb: number) => {
      const lines = [`export const ${name} = [];`];
      for (let i = 0; lines.join('\n').length < kb * 1024 - 40; i++) lines.push(`${name}.push('line ${i} of ${name}');`);
      return `${lines.join('\n')}\n`;
    };
    await write({
      'src/huge.js': big('huge', 65),
      'src/a.js': big('a', 60),
      'src/b.js': big('b', 60),
      'src/c.js': big('c', 20),
      'test/x.test.js':
        "import { huge } from '../src/huge.js';\nimport { a } from '../src/a.js';\nimport { b } from '../src/b.js';\nimport { c } from '../src/c.js';\n",
    });
    assert.ok(Buffer.byteLength(big('huge', 65)) > WHOLE_FILE_BYTES);
    const chosen = await select({ focusFiles: ['test/x.test.js'], editsNext: 'code', budgetTokens: 2000 });
    assert.deepEqual(chosen.shownPaths, ['src/a.js', 'src/b.js', 'test/x.test.js']);
    assert.ok(
      chosen.map.some((line) => line.startsWith('- src/huge.js')) && chosen.map.some((line) => line.startsWith('- src/c.js')),
    );
  });

  it('on a first turn, the example test is the one whose text and code share the task’s words, and the other tests follow if they fit', async () => {
    await write({
      'src/reqpin/__init__.py': 'from .pins import pinned_version\nfrom .requirements import parse\n',
      'src/reqpin/pins.py':
        'def pinned_version(requirement):\n    """The version a requirement pins, if it pins one exact version."""\n    return None\n',
      'src/reqpin/requirements.py': 'def parse(text):\n    """Reads a requirement string."""\n    return text\n',
      'tests/test_pins.py':
        'from reqpin import pinned_version\n\n\ndef test_pinned_version_is_none_for_a_range():\n    assert pinned_version("attrs>=23") is None\n',
      'tests/test_requirements.py': 'from reqpin import parse\n\n\ndef test_parse():\n    assert parse("attrs")\n',
    });
    const chosen = await select({
      task: 'Add upper_bound(requirement): the version a requirement stays below, if any',
      editsNext: 'test',
      budgetTokens: 2000,
    });
    const order = chosen.shown.map((s) => s.path);
    assert.ok(order.indexOf('tests/test_pins.py') >= 0, order.join());
    assert.ok(order.indexOf('tests/test_pins.py') < order.indexOf('src/reqpin/pins.py'), order.join());
    assert.ok(order.indexOf('src/reqpin/pins.py') < order.indexOf('tests/test_requirements.py'), order.join());
  });
});
