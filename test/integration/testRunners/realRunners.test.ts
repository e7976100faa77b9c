import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';

/** Writes a small project into a fresh temp folder. */
async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tdd-runner-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const NODE_PKG = JSON.stringify({ type: 'module', scripts: { test: 'node --test' } });
const FIZZ_SRC = 'export function fizz(n) { return n % 3 === 0 ? "Fizz" : String(n); }\n';
const FIZZ_TEST = (expected: string): string =>
  `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { fizz } from '../src/fizz.js';\n` +
  `test('three is Fizz', () => assert.equal(fizz(3), ${JSON.stringify(expected)}));\ntest('one is 1', () => assert.equal(fizz(1), '1'));\n`;

describe('real test runners', function () {
  this.timeout(30_000);
  const dirs: string[] = [];
  const make = async (files: Record<string, string>): Promise<string> => {
    const dir = await project(files);
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  describe('node:test', () => {
    it('counts passing tests', async () => {
      const dir = await make({ 'package.json': NODE_PKG, 'src/fizz.js': FIZZ_SRC, 'test/fizz.test.js': FIZZ_TEST('Fizz') });
      const result = await (await detectTestRunner(dir)).run({ timeoutMs: 15_000 });
      assert.equal(result.status, 'passed', result.output);
      assert.deepEqual([result.passed, result.failed, result.total], [2, 0, 2]);
      assert.equal(result.command, 'node --test');
      assert.equal(result.exitCode, 0);
    });

    it('reports failing tests as failed, not error', async () => {
      const dir = await make({ 'package.json': NODE_PKG, 'src/fizz.js': FIZZ_SRC, 'test/fizz.test.js': FIZZ_TEST('Buzz') });
      const result = await (await detectTestRunner(dir)).run({ timeoutMs: 15_000 });
      assert.equal(result.status, 'failed', result.output);
      assert.deepEqual([result.passed, result.failed, result.total], [1, 1, 2]);
      assert.match(result.output, /three is Fizz/);
    });

    it('reports a syntax error as "could not run"', async () => {
      const dir = await make({
        'package.json': NODE_PKG,
        'src/fizz.js': 'export function fizz(n) { return ( }\n',
        'test/fizz.test.js': FIZZ_TEST('Fizz'),
      });
      const result = await (await detectTestRunner(dir)).run({ timeoutMs: 15_000 });
      assert.equal(result.status, 'error', result.output);
      assert.equal(result.errorKind, 'syntax');
      assert.match(result.reason ?? '', /syntax error/);
      assert.ok(!result.reason?.includes('\n'), 'reason is one line');
    });

    it('reports a missing module with its name', async () => {
      const dir = await make({ 'package.json': NODE_PKG, 'test/fizz.test.js': FIZZ_TEST('Fizz') });
      const result = await (await detectTestRunner(dir)).run({ timeoutMs: 15_000 });
      assert.equal(result.status, 'error', result.output);
      assert.equal(result.errorKind, 'missing_module');
      assert.match(result.missingName ?? '', /src\/fizz\.js$/);
    });

    it('reports a missing export distinctly', async () => {
      const dir = await make({
        'package.json': NODE_PKG,
        'src/fizz.js': 'export const other = 1;\n',
        'test/fizz.test.js': FIZZ_TEST('Fizz'),
      });
      const result = await (await detectTestRunner(dir)).run({ timeoutMs: 15_000 });
      assert.equal(result.status, 'error', result.output);
      assert.equal(result.errorKind, 'missing_export');
      assert.equal(result.missingName, 'fizz');
    });

    it('treats an empty project as "no tests yet" and an empty test file as an error', async () => {
      const dir = await make({ 'package.json': NODE_PKG, 'src/fizz.js': FIZZ_SRC });
      const empty = await (await detectTestRunner(dir)).run({ timeoutMs: 15_000 });
      assert.equal(empty.status, 'passed', empty.output);
      assert.equal(empty.total, 0);
      assert.equal(empty.errorKind, 'no_tests');
      await mkdir(join(dir, 'test'), { recursive: true });
      await writeFile(join(dir, 'test', 'fizz.test.js'), "import { test } from 'node:test';\n");
      const noTests = await (await detectTestRunner(dir)).run({ timeoutMs: 15_000 });
      assert.equal(noTests.status, 'error', noTests.output);
      assert.equal(noTests.errorKind, 'no_tests');
      assert.match(noTests.reason ?? '', /test\/fizz\.test\.js/);
    });

    it('kills an infinite loop and its whole process tree on timeout', async () => {
      const loop =
        "import { test } from 'node:test';\nimport { writeFileSync } from 'node:fs';\n" +
        "test('loops', () => { writeFileSync(new URL('../pid.txt', import.meta.url), String(process.pid)); for (;;) {} });\n";
      const dir = await make({ 'package.json': NODE_PKG, 'test/loop.test.js': loop });
      const result = await (await detectTestRunner(dir)).run({ timeoutMs: 2000 });
      assert.equal(result.status, 'timeout');
      assert.match(result.reason ?? '', /did not finish within 2 s/);
      const pid = Number(await readFile(join(dir, 'pid.txt'), 'utf8'));
      assert.ok(pid > 0);
      // SIGKILL is delivered asynchronously; give the kernel a moment to reap the grandchild.
      for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(isAlive(pid), false, 'the test process (a grandchild of the runner) was killed');
    });

    it('reports a runner that is not installed', async () => {
      const dir = await make({ 'package.json': NODE_PKG });
      const result = await (
        await detectTestRunner(dir, { testCommand: 'no-such-test-runner-xyz --run' })
      ).run({ timeoutMs: 15_000 });
      assert.equal(result.status, 'error', result.output);
      assert.equal(result.errorKind, 'runner_missing');
    });

    it('reports cancellation', async () => {
      const dir = await make({
        'package.json': NODE_PKG,
        'test/slow.test.js':
          "import { test } from 'node:test';\ntest('waits', () => new Promise((r) => setTimeout(r, 20000)));\n",
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const result = await (await detectTestRunner(dir)).run({ signal: controller.signal, timeoutMs: 15_000 });
      assert.equal(result.status, 'cancelled');
    });
  });

  describe("mocha (the project's own node_modules/.bin/mocha)", () => {
    const mocha = join(__dirname, '..', '..', '..', 'node_modules', '.bin', 'mocha');
    const pkg = JSON.stringify({ scripts: { test: `${mocha} --no-config 'test/**/*.test.cjs'` } });
    const src = 'exports.leap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
    const test = (expected: boolean): string =>
      `const assert = require('node:assert/strict');\nconst { leap } = require('../src/leap.cjs');\n` +
      `describe('leap', () => {\n  it('2000 is leap', () => assert.equal(leap(2000), true));\n  it('1900 is not', () => assert.equal(leap(1900), ${expected}));\n});\n`;

    it('counts passing and failing tests', async () => {
      const ok = await make({ 'package.json': pkg, 'src/leap.cjs': src, 'test/leap.test.cjs': test(false) });
      const passed = await (await detectTestRunner(ok)).run({ timeoutMs: 15_000 });
      assert.equal(passed.runner, 'mocha');
      assert.equal(passed.status, 'passed', passed.output);
      assert.deepEqual([passed.passed, passed.failed, passed.total], [2, 0, 2]);

      const bad = await make({ 'package.json': pkg, 'src/leap.cjs': src, 'test/leap.test.cjs': test(true) });
      const failed = await (await detectTestRunner(bad)).run({ timeoutMs: 15_000 });
      assert.equal(failed.status, 'failed', failed.output);
      assert.deepEqual([failed.passed, failed.failed, failed.total], [1, 1, 2]);
    });

    it('reports a missing module as "could not run"', async () => {
      const dir = await make({ 'package.json': pkg, 'test/leap.test.cjs': test(false) });
      const result = await (await detectTestRunner(dir)).run({ timeoutMs: 15_000 });
      assert.equal(result.status, 'error', result.output);
      assert.equal(result.errorKind, 'missing_module');
    });
  });

  describe('python -m unittest', () => {
    it('counts the tests from its summary (tomli runs its tests with `python -m unittest`)', async () => {
      const t =
        'import unittest\n\nclass T(unittest.TestCase):\n    def test_ok(self):\n        pass\n\n' +
        '    def test_new(self):\n        self.assertEqual(int("7"), 8)\n\n' +
        '    @unittest.skip("later")\n    def test_skip(self):\n        pass\n';
      const dir = await make({ 'tests/__init__.py': '', 'tests/test_t.py': t });
      const red = await (await detectTestRunner(dir, { testCommand: 'python3 -m unittest' })).run({ timeoutMs: 20_000 });
      assert.equal(red.status, 'failed', red.output);
      assert.deepEqual([red.passed, red.failed, red.total], [1, 1, 3], red.output);
      await writeFile(join(dir, 'tests/test_t.py'), t.replace('8)', '7)'));
      const green = await (await detectTestRunner(dir, { testCommand: 'python3 -m unittest' })).run({ timeoutMs: 20_000 });
      assert.equal(green.status, 'passed', green.output);
      assert.deepEqual([green.passed, green.failed, green.total], [2, 0, 3], green.output);
    });

    it('judges a test module that cannot be imported as pytest does a collection error, not as one failed test', async () => {
      const ok = 'import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n';
      const cases: Array<[string, string, string | undefined, RegExp]> = [
        ['from sl.core import first, last\n', 'missing_export', 'last', /cannot import name 'last' from 'sl.core'/],
        ['import nosuchmod\n', 'missing_module', 'nosuchmod', /No module named 'nosuchmod'/],
        ['def f(:\n', 'syntax', undefined, /SyntaxError: invalid syntax/],
        ['raise RuntimeError("no config")\n', 'import', undefined, /RuntimeError: no config/],
      ];
      for (const [head, kind, name, reason] of cases) {
        const dir = await make({
          'sl/__init__.py': '',
          'sl/core.py': 'def first(xs):\n    return xs[0]\n',
          'tests/__init__.py': '',
          'tests/test_core.py': `import unittest\n${head}\nclass C(unittest.TestCase):\n    def test_b(self):\n        pass\n\n    def test_c(self):\n        pass\n`,
          'tests/test_ok.py': ok,
        });
        const result = await (await detectTestRunner(dir, { testCommand: 'python3 -m unittest' })).run({ timeoutMs: 20_000 });
        assert.equal(result.status, 'error', result.output);
        assert.equal(result.errorKind, kind, head);
        assert.equal(result.missingName, name, head);
        assert.match(result.reason!, reason);
      }
    });
  });

  describe('pytest', () => {
    // Plugin auto-loading (pytest-benchmark etc. installed on this machine) costs seconds per run and is
    // irrelevant to what is tested here.
    const env = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' };
    const src = 'def leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n';
    const test = (expected: string): string =>
      `from leap import leap\n\ndef test_2000():\n    assert leap(2000)\n\ndef test_1900():\n    assert leap(1900) is ${expected}\n`;

    it('counts passing and failing tests', async () => {
      const ok = await make({ 'leap.py': src, 'test_leap.py': test('False') });
      const passed = await (await detectTestRunner(ok, { env })).run({ timeoutMs: 20_000 });
      assert.equal(passed.status, 'passed', passed.output);
      assert.deepEqual([passed.passed, passed.failed, passed.total], [2, 0, 2]);

      const bad = await make({ 'leap.py': src, 'test_leap.py': test('True') });
      const failed = await (await detectTestRunner(bad, { env })).run({ timeoutMs: 20_000 });
      assert.equal(failed.status, 'failed', failed.output);
      assert.deepEqual([failed.passed, failed.failed], [1, 1]);
    });

    it('counts a test with failing subtests once, by its identity (pytest 9: unittest subTest and the subtests fixture)', async () => {
      const subtests =
        'import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        for x in [1, 2, 3]:\n' +
        '            with self.subTest(x=x):\n                self.assertEqual(x, 5)\n\n    def test_b(self):\n' +
        '        for x in [1, 2]:\n            with self.subTest(x=x):\n                self.assertEqual(x, x)\n\n' +
        'def test_c(subtests):\n    for x in [1, 2]:\n        with subtests.test(x=x):\n            assert x == 1\n';
      const dir = await make({ 'test_subtests.py': subtests });
      for (const testCommand of ['python3 -m pytest', 'python3 -m pytest -q']) {
        const result = await (await detectTestRunner(dir, { env, testCommand })).run({ timeoutMs: 20_000 });
        assert.equal(result.status, 'failed', result.output);
        assert.deepEqual([result.passed, result.failed, result.total], [1, 2, 3], `${testCommand}\n${result.output}`);
        assert.deepEqual(
          result.tests?.map((t) => [t.name, t.outcome]),
          [
            ['T > test_a', 'failed'],
            ['T > test_b', 'passed'],
            ['test_c', 'failed'],
          ],
          'the report is read: it agrees with the console',
        );
      }
    });

    it('reports an import error as "could not run" and writes no __pycache__', async () => {
      const dir = await make({ 'test_leap.py': test('False') });
      const result = await (await detectTestRunner(dir, { env })).run({ timeoutMs: 20_000 });
      assert.equal(result.status, 'error', result.output);
      assert.equal(result.errorKind, 'missing_module');
      assert.equal(result.missingName, 'leap');
      assert.equal(existsSync(join(dir, '__pycache__')), false, 'no bytecode cache in the workspace');
    });

    it("names the plugin an addopts option needs when it is not installed (pytest-cov's --cov, pytest-xdist's -n, -p randomly)", async () => {
      const cases: Array<[string, RegExp, string | undefined]> = [
        ['--cov=leap --cov-report=term', /error: unrecognized arguments: --cov=leap --cov-report=term/, 'pytest-cov'],
        ['-n auto --timeout=5', /error: unrecognized arguments: -n --timeout=5/, 'pytest-xdist, pytest-timeout'],
        ['-p randomly', /Error importing plugin "randomly"/, 'pytest-randomly'],
        ['--no-such-option', /error: unrecognized arguments: --no-such-option/, undefined],
      ];
      for (const [addopts, line, plugins] of cases) {
        const dir = await make({
          'leap.py': src,
          'test_leap.py': test('False'),
          'pytest.ini': `[pytest]\naddopts = ${addopts}\n`,
        });
        const result = await (await detectTestRunner(dir, { env })).run({ timeoutMs: 20_000 });
        assert.equal(result.status, 'error', result.output);
        assert.equal(result.errorKind, 'plugin_missing', addopts);
        assert.equal(result.missingName, plugins, addopts);
        assert.match(result.reason!, line);
        if (plugins) assert.match(result.reason!, new RegExp(`the pytest plugins? ${plugins} (is|are) not installed`));
      }
    });
  });
});
