import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRoleBoundary } from '../../../src/core/tdd/boundaries';
import { GitWorkspace } from '../../../src/core/tdd/git';
import { resolveKata } from '../../../src/core/tdd/kata';
import { scaffoldProject } from '../../../src/core/tdd/scaffold';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';

// One hand-played red-green cycle through the whole infrastructure (no model): what the supervisor does.
describe('a red-green cycle on the infrastructure alone', function () {
  this.timeout(40_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tdd-flow-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('scaffolds, sees red from a missing module, goes green, commits, and finishes', async () => {
    const kata = await resolveKata('fizzbuzz');
    const git = await GitWorkspace.open(dir);
    const branch = await git.startSessionBranch(kata.slug);
    await scaffoldProject(dir, kata.language, kata);
    assert.ok(await git.commitAll(`chore: scaffold a ${kata.language} project`));
    const runner = await detectTestRunner(dir, { testCommand: kata.testCommand, timeoutMs: 15_000 });
    const before = await runner.run();
    assert.equal(before.status, 'passed');

    // Tester
    await mkdir(join(dir, kata.testDir), { recursive: true });
    await writeFile(
      join(dir, kata.testDir, 'fizzbuzz.test.js'),
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { fizzbuzz } from '../src/fizzbuzz.js';\ntest('3 is Fizz', () => assert.equal(fizzbuzz(3), 'Fizz'));\n",
    );
    const red = await runner.run();
    assert.equal(red.status, 'error');
    assert.equal(red.errorKind, 'missing_module', 'the production module does not exist yet');
    assert.deepEqual(checkRoleBoundary('tester', await git.changedFiles(), { testsBefore: before.total, testsAfter: red.total, kata }), []);

    // Implementer: starts from the Tester's changes; its own diff is what it adds on top
    const testerChanges = new Set((await git.changedFiles()).map((f) => f.path));
    await writeFile(join(dir, kata.sourceDir, 'fizzbuzz.js'), "export function fizzbuzz(n) { return n % 3 === 0 ? 'Fizz' : String(n); }\n");
    const green = await runner.run();
    assert.equal(green.status, 'passed', green.output);
    assert.equal(green.passed, 1);
    const implementerChanges = (await git.changedFiles()).filter((f) => !testerChanges.has(f.path));
    assert.deepEqual(checkRoleBoundary('implementer', implementerChanges, { testsBefore: 1, testsAfter: green.total, kata }), []);
    const sha = await git.commitAll('feat: 3 is Fizz');
    assert.ok(sha);

    const finish = await git.finish();
    assert.equal(finish.restored, 'main');
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', branch], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    assert.ok(files.includes('src/fizzbuzz.js') && files.includes('test/fizzbuzz.test.js'));
    assert.ok(!files.some((f) => f.startsWith('.tdd')));
  });

  it('a cancelled open() changes nothing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'tdd-flow-'));
    try {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(GitWorkspace.open(empty, { signal: controller.signal }), (e: unknown) => (e as { error_code?: string }).error_code === 'CANCELLED');
      assert.throws(() => execFileSync('git', ['rev-parse', '--git-dir'], { cwd: empty, stdio: 'pipe' }), 'no repository was created');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
