import { strict as assert } from 'node:assert';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parseKata } from '../../../../src/core/tdd/kata';
import { isEmptyWorkspace, scaffoldProject } from '../../../../src/core/tdd/scaffold';
import { detectTestRunner } from '../../../../src/core/testRunners/detectTestRunner';

const kata = (language: 'javascript' | 'typescript' | 'python') =>
  parseKata('# FizzBuzz\n\nSay Fizz.', { fileName: 'fizzbuzz.md', language });

describe('scaffolded projects run their (empty, then first) tests', function () {
  this.timeout(40_000);
  const dirs: string[] = [];
  const fresh = async (): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), 'tdd-scaffold-'));
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('JavaScript: node --test, ES modules, nothing to install', async () => {
    const dir = await fresh();
    const result = await scaffoldProject(dir, 'javascript', kata('javascript'));
    assert.deepEqual(result.created.sort(), ['.gitignore', 'package.json', 'src/.gitkeep', 'test/.gitkeep']);
    assert.equal(result.needsInstall, false);
    const runner = await detectTestRunner(dir);
    assert.equal(runner.command, 'node --test');
    const empty = await runner.run({ timeoutMs: 15_000 });
    assert.equal(empty.status, 'passed', empty.output);
    assert.equal(empty.total, 0);
    assert.equal(empty.errorKind, 'no_tests');

    await writeFile(join(dir, 'src', 'fizzbuzz.js'), 'export function fizzbuzz(n) { return String(n); }\n');
    await writeFile(
      join(dir, 'test', 'fizzbuzz.test.js'),
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { fizzbuzz } from '../src/fizzbuzz.js';\ntest('1 is \"1\"', () => assert.equal(fizzbuzz(1), '1'));\n",
    );
    const one = await runner.run({ timeoutMs: 15_000 });
    assert.equal(one.status, 'passed', one.output);
    assert.deepEqual([one.passed, one.total], [1, 1]);
  });

  it('Python: a kata that puts its module and test at the root is not contradicted (collected and importable), with -q as katas write it', async () => {
    const dir = await fresh();
    await scaffoldProject(dir, 'python', kata('python'));
    await writeFile(join(dir, 'leap.py'), 'def is_leap_year(y):\n    return y % 4 == 0\n');
    await writeFile(
      join(dir, 'test_leap.py'),
      'from leap import is_leap_year\n\ndef test_1996():\n    assert is_leap_year(1996)\n',
    );
    await writeFile(
      join(dir, 'tests', 'test_more.py'),
      'from leap import is_leap_year\n\ndef test_2017():\n    assert not is_leap_year(2017)\n',
    );
    const runner = await detectTestRunner(dir, {
      testCommand: 'python3 -m pytest -q',
      env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
    });
    const run = await runner.run({ timeoutMs: 20_000 });
    assert.equal(run.status, 'passed', run.output);
    assert.deepEqual([run.passed, run.total], [2, 2], 'the root test and the one under tests/ both ran');
  });

  it('Python: pytest with the root and the source folder on the import path', async () => {
    const dir = await fresh();
    const result = await scaffoldProject(dir, 'python', kata('python'));
    assert.ok(result.created.includes('pyproject.toml'));
    assert.match(await readFile(join(dir, 'pyproject.toml'), 'utf8'), /pythonpath = \["\.", "src"\]/);
    assert.doesNotMatch(await readFile(join(dir, 'pyproject.toml'), 'utf8'), /testpaths/);
    const runner = await detectTestRunner(dir, { env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' } }); // plugins only slow this down
    assert.equal(runner.kind, 'pytest');
    const empty = await runner.run({ timeoutMs: 20_000 });
    assert.equal(empty.status, 'passed', empty.output);
    assert.equal(empty.total, 0);

    await writeFile(join(dir, 'src', 'fizzbuzz.py'), 'def fizzbuzz(n):\n    return str(n)\n');
    await writeFile(
      join(dir, 'tests', 'test_fizzbuzz.py'),
      'from fizzbuzz import fizzbuzz\n\ndef test_one():\n    assert fizzbuzz(1) == "1"\n',
    );
    const one = await runner.run({ timeoutMs: 20_000 });
    assert.equal(one.status, 'passed', one.output);
    assert.deepEqual([one.passed, one.total], [1, 1]);
  });

  it('TypeScript: tsx --test once installed; a clear "not installed" before', async () => {
    const dir = await fresh();
    const result = await scaffoldProject(dir, 'typescript', kata('typescript'));
    assert.equal(result.needsInstall, true);
    assert.match(result.notes.join(' '), /npm install/);
    // This test process has the repository's node_modules/.bin on PATH (npx); a person's shell would not.
    const PATH = (process.env.PATH ?? '')
      .split(delimiter)
      .filter((p) => !p.includes('node_modules'))
      .join(delimiter);
    const runner = await detectTestRunner(dir, { env: { PATH } });
    assert.equal(runner.kind, 'node-test');
    const missing = await runner.run({ timeoutMs: 15_000 });
    assert.equal(missing.status, 'error', missing.output);
    assert.equal(missing.errorKind, 'runner_missing');

    // Stand-in for `npm install` (no network here): this repository's own node_modules has tsx and typescript.
    await symlink(join(__dirname, '..', '..', '..', '..', 'node_modules'), join(dir, 'node_modules'), 'dir');
    const empty = await runner.run({ timeoutMs: 15_000 });
    assert.equal(empty.status, 'passed', empty.output);
    assert.equal(empty.total, 0);

    await writeFile(join(dir, 'src', 'fizzbuzz.ts'), 'export function fizzbuzz(n: number): string { return String(n); }\n');
    await writeFile(
      join(dir, 'test', 'fizzbuzz.test.ts'),
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { fizzbuzz } from '../src/fizzbuzz';\ntest('1 is \"1\"', () => assert.equal(fizzbuzz(1), '1'));\n",
    );
    const one = await runner.run({ timeoutMs: 15_000 });
    assert.equal(one.status, 'passed', one.output);
    assert.deepEqual([one.passed, one.total], [1, 1]);
  });

  it('never overwrites existing files', async () => {
    const dir = await fresh();
    await writeFile(join(dir, 'package.json'), '{"name":"mine"}\n');
    const result = await scaffoldProject(dir, 'javascript', kata('javascript'));
    assert.deepEqual(result.skipped, ['package.json']);
    assert.equal(await readFile(join(dir, 'package.json'), 'utf8'), '{"name":"mine"}\n');
  });

  it('treats a folder with only .git and .tdd as empty', async () => {
    const dir = await fresh();
    assert.equal(await isEmptyWorkspace(dir), true);
    await mkdir(join(dir, '.git'));
    await mkdir(join(dir, '.tdd'));
    assert.equal(await isEmptyWorkspace(dir), true);
    await writeFile(join(dir, 'notes.txt'), 'x');
    assert.equal(await isEmptyWorkspace(dir), false);
    assert.equal(await isEmptyWorkspace(join(dir, 'missing')), true);
  });
});
