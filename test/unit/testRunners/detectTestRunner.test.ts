import { strict as assert } from 'node:assert';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import { TestConfigError, TestRunnerNotFoundError } from '../../../src/core/testRunners/errors';
import { identifyRunner } from '../../../src/core/testRunners/runnerKinds';
import { looksLikeTestFile } from '../../../src/core/testRunners/testFiles';
import { truncateHeadTail } from '../../../src/core/testRunners/truncateOutput';

describe('detectTestRunner', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tdd-detect-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const pkg = (json: unknown): Promise<void> => writeFile(join(dir, 'package.json'), JSON.stringify(json));

  it('prefers the explicit command', async () => {
    await pkg({ scripts: { test: 'mocha' } });
    const runner = await detectTestRunner(dir, { testCommand: 'python3 -m pytest -q' });
    assert.equal(runner.kind, 'pytest');
    assert.equal(runner.command, 'python3 -m pytest -q');
  });

  it('identifies the runner of package.json scripts.test', async () => {
    for (const [script, kind] of [
      ['node --test', 'node-test'],
      ['mocha --recursive', 'mocha'],
      ['jest --ci', 'jest'],
      ['vitest run', 'vitest'],
    ] as const) {
      await pkg({ scripts: { test: script } });
      const runner = await detectTestRunner(dir);
      assert.equal(runner.kind, kind, script);
      assert.equal(runner.command, script);
    }
    await pkg({ scripts: { test: 'npm run unit' }, devDependencies: { jest: '^29' } });
    assert.equal((await detectTestRunner(dir)).kind, 'jest');
  });

  it('falls back to pytest for Python projects', async () => {
    await mkdir(join(dir, 'tests'));
    await writeFile(join(dir, 'tests', 'test_leap.py'), 'def test_x(): pass\n');
    const runner = await detectTestRunner(dir);
    assert.equal(runner.kind, 'pytest');
    assert.equal(runner.command, 'python3 -m pytest');
  });

  it("recognises setup.cfg [tool:pytest] and skips npm's placeholder script", async () => {
    await pkg({ scripts: { test: 'echo "Error: no test specified" && exit 1' } });
    await writeFile(join(dir, 'setup.cfg'), '[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = tests\n');
    assert.equal((await detectTestRunner(dir)).kind, 'pytest');
  });

  it('says what to add when nothing is found', async () => {
    await assert.rejects(detectTestRunner(dir), (e: unknown) => {
      assert.ok(e instanceof TestRunnerNotFoundError);
      assert.equal(e.error_code, 'CONFIG');
      assert.match(e.message, /"test" script to package\.json/);
      assert.match(e.message, /test_command/);
      return true;
    });
  });

  it('reports a broken package.json clearly', async () => {
    await writeFile(join(dir, 'package.json'), '{ "scripts": ');
    await assert.rejects(detectTestRunner(dir), (e: unknown) => e instanceof TestConfigError && /not valid JSON/.test(e.message));
  });
  it('in a worktree generated code wrote: a package.json, pytest config or test folder that is a link is not followed', async () => {
    const host = await mkdtemp(join(tmpdir(), 'tdd-detect-host-'));
    try {
      await writeFile(join(host, 'package.json'), JSON.stringify({ scripts: { test: 'cat ~/.ssh/id_rsa' } }));
      await writeFile(join(host, 'pytest.ini'), '[pytest]\n');
      await mkdir(join(host, 'tests'));
      await writeFile(join(host, 'tests', 'test_host.py'), '');
      await symlink(join(host, 'package.json'), join(dir, 'package.json'));
      await symlink(join(host, 'pytest.ini'), join(dir, 'pytest.ini'));
      await symlink(join(host, 'tests'), join(dir, 'tests'));
      await assert.rejects(detectTestRunner(dir), TestRunnerNotFoundError, 'no link read as a manifest, config or test folder');
      // A link to a device that never ends is not read either (it would fill the memory).
      await rm(join(dir, 'package.json'));
      await symlink('/dev/zero', join(dir, 'package.json'));
      await assert.rejects(detectTestRunner(dir), TestRunnerNotFoundError);
      // The same files, real, are read.
      await rm(join(dir, 'package.json'));
      await pkg({ scripts: { test: 'node --test' } });
      assert.equal((await detectTestRunner(dir)).kind, 'node-test');
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });
});

describe('test runner helpers', () => {
  it('identifies runners from command text', () => {
    assert.equal(identifyRunner('tsx --test'), 'node-test');
    assert.equal(identifyRunner('node --experimental-strip-types --test test/'), 'node-test');
    assert.equal(identifyRunner('./run-tests.sh'), 'custom');
  });

  it('recognises test files by convention', () => {
    for (const p of [
      'test/fizz.test.js',
      'src/a.spec.ts',
      'tests/test_leap.py',
      'leap_test.py',
      '__tests__/x.js',
      'test/helpers.js',
      'test.js',
      'test.mjs',
    ]) {
      assert.ok(looksLikeTestFile(p), p);
    }
    for (const p of ['src/fizz.js', 'leap.py', 'tests/conftest.py', 'src/testing.js', 'README.md', 'test.json', 'contest.js'])
      assert.ok(!looksLikeTestFile(p), p);
  });

  it('keeps head and tail of long output with a marker', () => {
    const text = `HEAD${'x'.repeat(20_000)}TAIL`;
    const cut = truncateHeadTail(text, 1000);
    assert.ok(cut.length < 1100);
    assert.ok(cut.startsWith('HEAD') && cut.endsWith('TAIL'));
    assert.match(cut, /characters of test output omitted/);
    assert.equal(truncateHeadTail('short', 1000), 'short');
  });
});
