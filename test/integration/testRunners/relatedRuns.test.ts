import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import type { DiagnosedTestRunResult } from '../../../src/core/testRunners/commandTestRunner';
import { detectTestRunner, type DetectTestRunnerOptions } from '../../../src/core/testRunners/detectTestRunner';
import type { TestSubset } from '../../../src/core/testRunners/types';
import { createWorktree, requireBubblewrap } from '../osSandbox/fixture';

const ROOT = join(__dirname, '..', '..', '..');
const MOCHA = join(ROOT, 'node_modules', '.bin', 'mocha');

/** Writes a small project into a fresh temp folder (or into `dir`). */
async function project(files: Record<string, string>, dir?: string): Promise<string> {
  const root = dir ?? (await mkdtemp(join(tmpdir(), 'tdd-related-run-')));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

const nodeFile = (name: string, pass: boolean): string =>
  `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('${name} works', () => assert.equal(1, 1));\ntest('${name} fails', () => assert.equal(1, ${pass ? 1 : 2}));\n`;

/** Three node:test files, 6 tests; b's second test fails. */
const NODE_SUITE = {
  'package.json': JSON.stringify({ type: 'module', scripts: { test: 'node --test', 'test:files': 'node --test test/' } }),
  'test/a.test.js': nodeFile('a', true),
  'test/b.test.js': nodeFile('b', false),
  'test/c.test.js': nodeFile('c', true),
};

const pyFile = (name: string, pass: boolean): string =>
  `def test_${name}_works():\n    assert True\n\n\ndef test_${name}_fails():\n    assert ${pass ? 'True' : 'False'}, "${name} is wrong"\n`;

/** Three pytest files, 6 tests; b's second test fails. */
const PY_SUITE = {
  'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
  'tests/test_a.py': pyFile('a', true),
  'tests/test_b.py': pyFile('b', false),
  'tests/test_c.py': pyFile('c', true),
};

const ids = (run: DiagnosedTestRunResult): string[] => (run.tests ?? []).map((t) => t.id).sort();

/**
 * Related runs of real runners: the person's command narrowed to the changed files for each command form (a direct
 * call, an `npm test` script, pytest), the same test ids as the whole suite gives, in the sandbox too; and a command
 * that cannot be narrowed runs the whole suite once and says why.
 */
describe('test runners: a related run of the changed files (real node:test, mocha and pytest)', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const make = async (files: Record<string, string>): Promise<string> => {
    const dir = await project(files);
    dirs.push(dir);
    return dir;
  };
  const runIn = async (
    dir: string,
    only: TestSubset | undefined,
    options: DetectTestRunnerOptions = {},
  ): Promise<DiagnosedTestRunResult> => {
    const result = await (await detectTestRunner(dir, options)).run({ timeoutMs: 30_000, ...(only ? { only } : {}) });
    assert.equal(existsSync(join(dir, '.tdd')), false, 'the report and its folders are removed after the run');
    return result;
  };
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  describe('node:test', () => {
    it('a direct call runs only the given test files, with the ids the whole suite gives them', async () => {
      const dir = await make(NODE_SUITE);
      const full = await runIn(dir, undefined);
      assert.deepEqual([full.scope, full.total, full.failed], ['full', 6, 1]);
      const related = await runIn(dir, { testFiles: ['test/b.test.js', 'test/c.test.js'], sourceFiles: ['src/b.js'] });
      assert.equal(related.scope, 'related');
      assert.equal(related.command, 'node --test test/b.test.js test/c.test.js');
      assert.deepEqual(related.relatedFiles, ['test/b.test.js', 'test/c.test.js'], 'node cannot relate a source file');
      assert.deepEqual([related.status, related.passed, related.failed, related.total], ['failed', 3, 1, 4]);
      assert.deepEqual(
        ids(related),
        ids(full).filter((id) => !id.startsWith('test/a.test.js::')),
      );
      assert.equal(related.fullRunReason, undefined);
    });

    it('`npm test` passes the files on to its script (after --)', async () => {
      const related = await runIn(await make(NODE_SUITE), { testFiles: ['test/a.test.js'] }, { testCommand: 'npm test' });
      assert.equal(related.scope, 'related');
      assert.equal(related.command, 'npm test -- test/a.test.js');
      assert.deepEqual(ids(related), ['test/a.test.js::a fails', 'test/a.test.js::a works']);
      assert.equal(related.status, 'passed');
    });

    it('runs in the bubblewrap sandbox, where only the worktree is writable', async function () {
      await requireBubblewrap(this);
      const fixture = createWorktree();
      try {
        await project(NODE_SUITE, fixture.worktree);
        const sandbox = await createProcessSandbox('auto', fixture.policy);
        const related = await runIn(fixture.worktree, { testFiles: ['test/b.test.js'] }, { sandbox });
        assert.equal(related.scope, 'related');
        assert.deepEqual(ids(related), ['test/b.test.js::b fails', 'test/b.test.js::b works']);
        assert.equal(related.failed, 1);
      } finally {
        fixture.cleanup();
      }
    });

    it('a script that names its own files, a chain, or no file left to run: the whole suite, once, and why', async () => {
      const dir = await make(NODE_SUITE);
      const script = await runIn(dir, { testFiles: ['test/a.test.js'] }, { testCommand: 'npm run test:files' });
      assert.deepEqual([script.scope, script.total, script.command], ['full', 6, 'npm run test:files']);
      assert.match(
        script.fullRunReason ?? '',
        /^`npm run test:files` cannot run only the changed tests \(its script \(`node --test test\/`\) names the tests it runs/,
      );
      assert.match(script.fullRunReason ?? '', /so the whole suite ran$/);

      const chain = await runIn(dir, { testFiles: ['test/a.test.js'] }, { testCommand: 'node --version && node --test' });
      assert.deepEqual([chain.scope, chain.total], ['full', 6]);
      assert.match(chain.fullRunReason ?? '', /not one direct call of a test runner/);
      assert.equal(chain.output.match(/# tests 6|ℹ tests 6/g)?.length, 1, 'the suite ran once');

      const gone = await runIn(dir, { testFiles: ['test/deleted.test.js'], sourceFiles: [] });
      assert.deepEqual([gone.scope, gone.total], ['full', 6]);
      assert.match(gone.fullRunReason ?? '', /no test file changed/);
    });
  });

  describe('mocha', () => {
    const mochaFile = (name: string): string => `const assert = require('node:assert');\nit('${name}', () => assert.ok(true));\n`;
    const MOCHA_SUITE = {
      'test/one.test.cjs': mochaFile('one'),
      'test/two.test.cjs': mochaFile('two'),
    };

    it("replaces the command's glob with the files", async () => {
      const dir = await make(MOCHA_SUITE);
      const related = await runIn(
        dir,
        { testFiles: ['test/two.test.cjs'] },
        { testCommand: `${MOCHA} --no-config 'test/**/*.test.cjs'` },
      );
      assert.equal(related.scope, 'related');
      assert.equal(related.command, `${MOCHA} --no-config test/two.test.cjs`);
      assert.deepEqual(ids(related), ['test/two.test.cjs::two']);
    });

    it('runs the whole suite when its config names spec files (mocha would add them to the given files)', async () => {
      const dir = await make({ ...MOCHA_SUITE, '.mocharc.json': JSON.stringify({ spec: 'test/**/*.test.cjs' }) });
      const run = await runIn(dir, { testFiles: ['test/two.test.cjs'] }, { testCommand: MOCHA });
      assert.deepEqual([run.scope, run.total], ['full', 2]);
      assert.match(run.fullRunReason ?? '', /mocha's configuration names spec files/);
    });
  });

  describe('pytest', () => {
    const env = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' };

    it('the detected `python3 -m pytest` runs only the given files, with the ids the whole suite gives them', async () => {
      const dir = await make(PY_SUITE);
      const full = await runIn(dir, undefined, { env });
      assert.deepEqual([full.scope, full.total, full.failed], ['full', 6, 1]);
      const related = await runIn(dir, { testFiles: ['tests/test_b.py'], sourceFiles: ['src/b.py'] }, { env });
      assert.equal(related.scope, 'related');
      assert.equal(related.command, 'python3 -m pytest tests/test_b.py');
      assert.deepEqual([related.status, related.passed, related.failed, related.total], ['failed', 1, 1, 2]);
      assert.deepEqual(
        ids(related),
        ids(full).filter((id) => id.startsWith('tests/test_b.py::')),
      );
      assert.match(related.tests!.find((t) => t.outcome === 'failed')!.message ?? '', /b is wrong/);
    });

    it('an explicit command with a folder and options: the folder replaced, the options kept; node ids too', async () => {
      const dir = await make(PY_SUITE);
      const related = await runIn(
        dir,
        { testFiles: ['tests/test_a.py', 'tests/test_c.py::test_c_works'] },
        { env, testCommand: 'python3 -m pytest -q -p no:cacheprovider tests/' },
      );
      assert.equal(related.command, 'python3 -m pytest -q -p no:cacheprovider tests/test_a.py tests/test_c.py::test_c_works');
      assert.deepEqual(ids(related), [
        'tests/test_a.py::test_a_fails',
        'tests/test_a.py::test_a_works',
        'tests/test_c.py::test_c_works',
      ]);
      assert.equal(related.status, 'passed');
    });

    it('runs in the bubblewrap sandbox', async function () {
      await requireBubblewrap(this);
      const fixture = createWorktree();
      try {
        await project(PY_SUITE, fixture.worktree);
        const sandbox = await createProcessSandbox('auto', fixture.policy);
        const related = await runIn(
          fixture.worktree,
          { testFiles: ['tests/test_b.py'] },
          { sandbox, env, testCommand: 'python3 -m pytest' },
        );
        assert.equal(related.scope, 'related');
        assert.deepEqual(ids(related), ['tests/test_b.py::test_b_fails', 'tests/test_b.py::test_b_works']);
      } finally {
        fixture.cleanup();
      }
    });
  });
});
