import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { setLogSink, type LogRecord } from '../../../src/core/logging/logger';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { detectTestRunner, type DetectTestRunnerOptions } from '../../../src/core/testRunners/detectTestRunner';
import type { DiagnosedTestRunResult } from '../../../src/core/testRunners/commandTestRunner';
import type { TestCaseResult } from '../../../src/core/testRunners/types';
import { fixturePnpm } from '../../support/projectFixtures';
import { createWorktree, requireBubblewrap } from '../osSandbox/fixture';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');

/** Writes a small project into a fresh temp folder (or into `dir`). */
async function project(files: Record<string, string>, dir?: string): Promise<string> {
  const root = dir ?? (await mkdtemp(join(tmpdir(), 'tdd-report-run-')));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

/**
 * jest or vitest from the npm registry, installed once into os.tmpdir() per package and major version (an install
 * into a staging folder renamed into place, so two test runs never share a half-written folder). Undefined, with
 * the reason on stderr, when the registry cannot be reached — except on CI, which has the registry: there it fails.
 */
async function installedRunner(name: 'jest' | 'vitest', major: number): Promise<string | undefined> {
  const dir = join(tmpdir(), 'tdd-agent-runner-cache', `${name}-${major}`);
  const modules = join(dir, 'node_modules');
  if (existsSync(join(modules, '.bin', name))) return modules;
  await mkdir(dirname(dir), { recursive: true });
  const staging = await mkdtemp(join(dirname(dir), `${name}-install-`));
  try {
    await writeFile(join(staging, 'package.json'), '{"private":true}\n');
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${major}`], {
      cwd: staging,
      timeout: 240_000,
    });
    await rename(staging, dir).catch(async () => rm(staging, { recursive: true, force: true })); // another run won
    return modules;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    if (process.env.CI)
      throw new Error(`installing ${name}@${major} from the npm registry failed on CI: ${reason}`, { cause: error });
    process.stderr.write(`  skipping the ${name} report tests: npm install ${name}@${major} failed (${reason})\n`);
    return undefined;
  }
}

const byId = (result: DiagnosedTestRunResult): Map<string, TestCaseResult> => new Map((result.tests ?? []).map((t) => [t.id, t]));

/** What every runner's report must give for the same little suite: passing, failing, skipped, nested, a subfolder. */
function assertSuite(
  result: DiagnosedTestRunResult,
  ids: { pass: string; fail: string; skip: string; nested: string; sub: string },
  failure: { message: RegExp; line: number },
): void {
  assert.equal(result.status, 'failed', result.output);
  assert.ok(result.tests, `the report was read (${result.output.slice(-500)})`);
  const tests = byId(result);
  assert.deepEqual([...tests.keys()].sort(), Object.values(ids).sort());
  assert.equal(tests.get(ids.pass)!.outcome, 'passed');
  assert.equal(tests.get(ids.skip)!.outcome, 'skipped');
  assert.equal(tests.get(ids.nested)!.outcome, 'passed');
  assert.equal(tests.get(ids.sub)!.outcome, 'passed');
  const failed = tests.get(ids.fail)!;
  assert.equal(failed.outcome, 'failed');
  assert.match(failed.message ?? '', failure.message);
  assert.equal(failed.line, failure.line);
  assert.equal(failed.file, ids.fail.split('::')[0]);
  assert.equal(tests.get(ids.sub)!.file, ids.sub.split('::')[0]);
  assert.deepEqual([result.passed, result.failed, result.total], [3, 1, 5], 'the counts agree with the console');
  assert.doesNotMatch(result.output, /\.tdd\/reports/, 'no line about the report file');
}

describe('test runners: each test by identity, from the runner’s own report', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const make = async (files: Record<string, string>): Promise<string> => {
    const dir = await project(files);
    dirs.push(dir);
    return dir;
  };
  const runIn = async (dir: string, options: DetectTestRunnerOptions = {}): Promise<DiagnosedTestRunResult> => {
    const result = await (await detectTestRunner(dir, options)).run({ timeoutMs: 30_000 });
    assert.equal(existsSync(join(dir, '.tdd')), false, 'the report and its folders are removed after the run');
    return result;
  };
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  describe('node:test', () => {
    const NODE_SUITE = {
      'package.json': JSON.stringify({ type: 'module', scripts: { test: 'node --test' } }),
      'test/math.test.js': [
        "import { describe, it, test } from 'node:test';",
        "import assert from 'node:assert/strict';",
        "test('adds', () => assert.equal(1 + 1, 2));",
        "test('subtracts', () => {",
        "  assert.equal(3 - 1, 1, 'three minus one');",
        '});',
        "test('divides', { skip: 'not yet' }, () => {});",
        "describe('outer', () => {",
        "  describe('inner', () => {",
        "    it('multiplies', () => assert.equal(2 * 3, 6));",
        '  });',
        '});',
        '',
      ].join('\n'),
      'test/sub/more.test.js': "import { test } from 'node:test';\ntest('in a subfolder', () => {});\n",
    };
    const NODE_IDS = {
      pass: 'test/math.test.js::adds',
      fail: 'test/math.test.js::subtracts',
      skip: 'test/math.test.js::divides',
      nested: 'test/math.test.js::outer > inner > multiplies',
      sub: 'test/sub/more.test.js::in a subfolder',
    };

    it('reads ids, outcomes, messages, lines and files, and keeps the console output node prints', async () => {
      const result = await runIn(await make(NODE_SUITE));
      assertSuite(result, NODE_IDS, { message: /three minus one/, line: 4 });
      assert.equal(result.command, 'node --test', 'the command is the person’s');
      assert.match(result.output, /^TAP version 13|▶|✔/m);
      assert.match(result.output, /# tests 5|ℹ tests 5/);
    });

    it('sees through `npm test` to the script’s runner (flags after --)', async () => {
      const result = await runIn(await make(NODE_SUITE), { testCommand: 'npm test' });
      assert.equal(result.runner, 'node-test');
      assert.equal(result.command, 'npm test');
      assertSuite(result, NODE_IDS, { message: /three minus one/, line: 4 });
    });

    it('leaves tests undefined for a command it cannot see through, counting from the console as before', async () => {
      const dir = await make({
        ...NODE_SUITE,
        'package.json': JSON.stringify({ type: 'module', scripts: { test: 'true && node --test' } }),
      });
      const result = await runIn(dir);
      assert.equal(result.tests, undefined);
      assert.deepEqual([result.status, result.passed, result.failed, result.total], ['failed', 3, 1, 5]);
    });

    it('works inside the bubblewrap sandbox, where only the worktree is writable', async function () {
      await requireBubblewrap(this);
      const fixture = createWorktree();
      try {
        await project(NODE_SUITE, fixture.worktree);
        const sandbox = await createProcessSandbox('auto', fixture.policy);
        const result = await runIn(fixture.worktree, { sandbox });
        assertSuite(result, NODE_IDS, { message: /three minus one/, line: 4 });
      } finally {
        fixture.cleanup();
      }
    });
  });

  describe('a hostile test that tampers with its report', () => {
    /** A passing test that, while the run goes on, puts `plant(path)` in place of the report node is writing. */
    const tamper = (plant: string): Record<string, string> => ({
      'package.json': JSON.stringify({ type: 'module', scripts: { test: 'node --test' } }),
      'test/tamper.test.js': [
        "import { test } from 'node:test';",
        "import { closeSync, ftruncateSync, openSync, readdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';",
        "test('tampers', () => {",
        "  for (const name of readdirSync('.tdd/reports')) {",
        "    const path = '.tdd/reports/' + name;",
        '    unlinkSync(path);',
        `    ${plant}`,
        '  }',
        '});',
        "test('another', () => {});",
        '',
      ].join('\n'),
    });
    let logged: LogRecord[] = [];
    let previousSink: ReturnType<typeof setLogSink>;
    beforeEach(() => {
      logged = [];
      previousSink = setLogSink((record) => logged.push(record));
    });
    afterEach(() => {
      setLogSink(previousSink);
    });
    const assertIgnored = (result: DiagnosedTestRunResult, why: RegExp): void => {
      assert.equal(result.tests, undefined, 'the report is not used');
      assert.deepEqual(
        [result.status, result.passed, result.failed, result.total],
        ['passed', 2, 0, 2],
        'counts from the console',
      );
      const line = logged.find((r) => r.scope === 'testRunners' && r.level === 'warn');
      assert.ok(line, 'a log line says why');
      assert.match(`${line.message} ${JSON.stringify(line.fields)}`, why);
      logged = [];
    };

    it('a link to a file outside the worktree is never followed (nor is its target removed)', async () => {
      const outside = await mkdtemp(join(tmpdir(), 'tdd-report-outside-'));
      dirs.push(outside);
      const forged = join(outside, 'forged.jsonl');
      const forgedText = `${JSON.stringify({ name: 'forged', suites: [], nesting: 0, passed: false, file: '/x' })}\n{"end":true}\n`;
      await writeFile(forged, forgedText);
      const result = await runIn(await make(tamper(`symlinkSync(${JSON.stringify(forged)}, path);`)));
      assertIgnored(result, /symbolic link; it was not followed/);
      assert.equal(readFileSync(forged, 'utf8'), forgedText);
      const passwd = await runIn(await make(tamper("symlinkSync('/etc/passwd', path);")));
      assertIgnored(passwd, /symbolic link/);
      assert.doesNotMatch(JSON.stringify(logged), /root:/, 'nothing of the target is logged');
    });

    it('a 100 MB report is not read', async () => {
      assertIgnored(
        await runIn(await make(tamper("const fd = openSync(path, 'w'); ftruncateSync(fd, 100 * 1024 * 1024); closeSync(fd);"))),
        /larger than 16 MiB/,
      );
    });

    it('a report that is not JSON, or that says otherwise than the console, is not used', async () => {
      assertIgnored(await runIn(await make(tamper("writeFileSync(path, '{not json');"))), /not JSON/);
      const lie = `${JSON.stringify({ name: 'ghost', suites: [], nesting: 0, passed: true, file: '/x' })}\\n{"end":true}\\n`;
      assertIgnored(await runIn(await make(tamper(`writeFileSync(path, '${lie}');`))), /disagrees with the console/);
    });
  });

  describe("mocha (the project's own node_modules/.bin/mocha)", () => {
    it('reads the report and keeps mocha’s spec output on the console', async () => {
      const dir = await make({
        'package.json': JSON.stringify({ scripts: { test: `${join(BIN, 'mocha')} --no-config 'test/**/*.test.cjs'` } }),
        'test/math.test.cjs': [
          "const assert = require('node:assert/strict');",
          "it('adds', () => assert.equal(1 + 1, 2));",
          "it('subtracts', () => {",
          "  assert.equal(3 - 1, 1, 'three minus one');",
          '});',
          "it.skip('divides', () => {});",
          "describe('outer', () => {",
          "  describe('inner', () => {",
          "    it('multiplies', () => assert.equal(2 * 3, 6));",
          '  });',
          '});',
          '',
        ].join('\n'),
        'test/sub/more.test.cjs': "it('in a subfolder', () => {});\n",
      });
      const result = await runIn(dir);
      assertSuite(
        result,
        {
          pass: 'test/math.test.cjs::adds',
          fail: 'test/math.test.cjs::subtracts',
          skip: 'test/math.test.cjs::divides',
          nested: 'test/math.test.cjs::outer > inner > multiplies',
          sub: 'test/sub/more.test.cjs::in a subfolder',
        },
        { message: /three minus one/, line: 4 },
      );
      assert.match(result.output, /3 passing/);
      assert.match(result.output, /1 failing/);
    });
  });

  describe('pytest', () => {
    const env = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' };
    const PY_SUITE = {
      'pyproject.toml': '[tool.pytest.ini_options]\npythonpath = ["."]\n',
      'tests/test_math.py': [
        'import pytest',
        '',
        'def test_adds():',
        '    assert 1 + 1 == 2',
        '',
        'def test_subtracts():',
        '    assert 3 - 1 == 1, "three minus one"',
        '',
        '@pytest.mark.skip(reason="not yet")',
        'def test_divides():',
        '    pass',
        '',
        'class TestOuter:',
        '    class TestInner:',
        '        def test_multiplies(self):',
        '            assert 2 * 3 == 6',
        '',
      ].join('\n'),
      'tests/sub/test_more.py': 'def test_in_a_subfolder():\n    pass\n',
    };
    const PY_IDS = {
      pass: 'tests/test_math.py::test_adds',
      fail: 'tests/test_math.py::test_subtracts',
      skip: 'tests/test_math.py::test_divides',
      nested: 'tests/test_math.py::TestOuter > TestInner > test_multiplies',
      sub: 'tests/sub/test_more.py::test_in_a_subfolder',
    };

    it('reads the JUnit XML: classes as describe blocks, files from the rootdir, the def line', async () => {
      const result = await runIn(await make(PY_SUITE), { env });
      assertSuite(result, PY_IDS, { message: /three minus one/, line: 6 });
      assert.match(result.output, /1 failed, 3 passed, 1 skipped/);
      assert.doesNotMatch(result.output, /generated xml file/);
    });

    it('works inside the bubblewrap sandbox, with an explicit -q command', async function () {
      await requireBubblewrap(this);
      const fixture = createWorktree();
      try {
        await project(PY_SUITE, fixture.worktree);
        const sandbox = await createProcessSandbox('auto', fixture.policy);
        const result = await runIn(fixture.worktree, { sandbox, env, testCommand: 'python3 -m pytest -q' });
        assertSuite(result, PY_IDS, { message: /three minus one/, line: 6 });
      } finally {
        fixture.cleanup();
      }
    });
  });

  const JS_SUITE = (importLine: string): Record<string, string> => ({
    'test/math.test.js': [
      importLine,
      "test('adds', () => expect(1 + 1).toBe(2));",
      "test('subtracts', () => {",
      '  expect(3 - 1).toBe(1);',
      '});',
      "test.skip('divides', () => {});",
      "describe('outer', () => {",
      "  describe('inner', () => {",
      "    it('multiplies', () => expect(2 * 3).toBe(6));",
      '  });',
      '});',
      '',
    ].join('\n'),
    'test/sub/more.test.js': `${importLine}\ntest('in a subfolder', () => {});\n`,
  });
  const JS_IDS = {
    pass: 'test/math.test.js::adds',
    fail: 'test/math.test.js::subtracts',
    skip: 'test/math.test.js::divides',
    nested: 'test/math.test.js::outer > inner > multiplies',
    sub: 'test/sub/more.test.js::in a subfolder',
  };

  describe('jest (installed from the npm registry once)', function () {
    this.timeout(300_000);
    let modules: string | undefined;
    before(async function () {
      modules = await installedRunner('jest', 30);
      if (!modules) this.skip();
    });
    const jestProject = async (scripts: Record<string, string>): Promise<string> => {
      const dir = await make({ ...JS_SUITE('// jest globals'), 'package.json': JSON.stringify({ private: true, scripts }) });
      await symlink(modules!, join(dir, 'node_modules'));
      return dir;
    };

    it('reads --json --outputFile: ancestorTitles, the test’s own line, the assertion message', async () => {
      const result = await runIn(await jestProject({ test: 'jest' }));
      assertSuite(result, JS_IDS, { message: /Expected: 1\s+Received: 2/, line: 3 });
      assert.match(result.output, /Tests:\s+1 failed, 1 skipped, 3 passed, 5 total/);
    });

    it('`yarn jest` runs as `jest`: no package manager starts (a corepack yarn would try to download itself)', async () => {
      const dir = await jestProject({ test: 'yarn jest' });
      const bin = await mkdtemp(join(tmpdir(), 'tdd-corepack-yarn-'));
      dirs.push(bin);
      await writeFile(join(bin, 'yarn'), '#!/bin/sh\necho "Error: Corepack cannot download yarn" >&2\nexit 1\n', { mode: 0o755 });
      const result = await runIn(dir, { env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
      assert.equal(result.command, 'jest');
      assertSuite(result, JS_IDS, { message: /Expected: 1/, line: 3 });
    });

    it('through `npm run <script>`', async () => {
      const result = await runIn(await jestProject({ 'test:unit': 'jest --ci' }), { testCommand: 'npm run test:unit' });
      assert.equal(result.runner, 'jest');
      assertSuite(result, JS_IDS, { message: /Expected: 1/, line: 3 });
    });

    it('a suite that failed to run is diagnosed by the error jest indents under it: a syntax error, a missing module', async () => {
      const dir = await jestProject({ test: 'jest' });
      await writeFile(join(dir, 'test', 'bad.test.js'), "test('x', () => {\n  expect(1).toBe(1;\n});\n");
      const syntax = await runIn(dir);
      assert.equal(syntax.status, 'error', syntax.output);
      assert.equal(syntax.errorKind, 'syntax', syntax.reason);
      assert.match(syntax.reason ?? '', /SyntaxError: .*bad\.test\.js: /);
      await writeFile(join(dir, 'test', 'bad.test.js'), "const { snake } = require('../src/snake');\ntest('x', () => {});\n");
      const missing = await runIn(dir);
      assert.equal(missing.errorKind, 'missing_module', missing.reason);
      assert.equal(missing.missingName, '../src/snake');
    });
  });

  describe('vitest (installed from the npm registry once)', function () {
    this.timeout(300_000);
    let modules: string | undefined;
    before(async function () {
      modules = await installedRunner('vitest', 4);
      if (!modules) this.skip();
    });
    const vitestProject = async (scripts: Record<string, string>): Promise<string> => {
      const dir = await make({
        ...JS_SUITE("import { describe, expect, it, test } from 'vitest';"),
        'package.json': JSON.stringify({ private: true, type: 'module', scripts }),
      });
      await symlink(modules!, join(dir, 'node_modules'));
      return dir;
    };

    it('reads the JSON reporter next to the default one: the failure’s line, the message', async () => {
      const result = await runIn(await vitestProject({ test: 'vitest run' }));
      assertSuite(result, JS_IDS, { message: /expected 2 to be 1/, line: 4 });
      assert.match(result.output, /Tests\s+1 failed \| 3 passed \| 1 skipped \(5\)/);
    });

    it('`pnpm vitest run` (the package’s own vitest through pnpm, as unjs libraries call it): each test by identity', async () => {
      const pnpm = await fixturePnpm();
      const dir = await vitestProject({ test: 'pnpm vitest run' });
      const env = { PATH: `${pnpm.bin}:${process.env.PATH ?? ''}` };
      const result = await runIn(dir, { env, testCommand: 'pnpm vitest run' }); // a command given: run as written
      assert.equal(result.runner, 'vitest');
      assertSuite(result, JS_IDS, { message: /expected 2 to be 1/, line: 4 });
      const viaScript = await runIn(dir, { env, testCommand: 'pnpm test' });
      assertSuite(viaScript, JS_IDS, { message: /expected 2 to be 1/, line: 4 });
    });

    it('a chained script (`tsc --version && vitest run`) runs as written: counts from the console, tests undefined', async () => {
      const result = await runIn(await vitestProject({ test: `${join(BIN, 'tsc')} --version && vitest run` }));
      assert.equal(result.runner, 'vitest');
      assert.equal(result.tests, undefined);
      assert.deepEqual([result.status, result.passed, result.failed, result.total], ['failed', 3, 1, 5]);
    });
  });

  it('resolves the workspace through a link (the sandbox runs in the real path)', async () => {
    const dir = await make({
      'package.json': JSON.stringify({ type: 'module', scripts: { test: 'node --test' } }),
      'test/a.test.js': "import { test } from 'node:test';\ntest('a', () => {});\n",
    });
    const link = `${dir}-link`;
    await symlink(await realpath(dir), link);
    dirs.push(link);
    const result = await runIn(link);
    assert.deepEqual(
      result.tests?.map((t) => t.id),
      ['test/a.test.js::a'],
    );
  });
});
