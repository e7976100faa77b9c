import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRoleBoundary } from '../../../src/core/tdd/boundaries';
import { initRepository, removeSessionWorktree, SessionWorktree } from '../../../src/core/tdd/git';
import { resolveKata } from '../../../src/core/tdd/kata';
import { scaffoldProject } from '../../../src/core/tdd/scaffold';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';

// One hand-played red-green cycle through the whole infrastructure (no model): what the supervisor does.
describe('a red-green cycle on the infrastructure alone', function () {
  this.timeout(40_000);
  let repoDir: string;
  before(async () => {
    repoDir = await mkdtemp(join(tmpdir(), 'tdd-flow-'));
  });
  after(async () => {
    await rm(repoDir, { recursive: true, force: true });
  });

  it('scaffolds, sees red from a missing module, goes green, commits, and finishes', async () => {
    const kata = await resolveKata('fizzbuzz');
    const { worktree: git } = await SessionWorktree.create(await initRepository(repoDir), { slug: kata.slug });
    const dir = git.dir;
    const branch = git.info.sessionBranch;
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
    assert.deepEqual(
      checkRoleBoundary('tester', await git.changedFiles(), { testsBefore: before.total, testsAfter: red.total, kata }),
      [],
    );

    // Implementer: starts from the Tester's changes; its own diff is what it adds on top
    const testerChanges = new Set((await git.changedFiles()).map((f) => f.path));
    await writeFile(
      join(dir, kata.sourceDir, 'fizzbuzz.js'),
      "export function fizzbuzz(n) { return n % 3 === 0 ? 'Fizz' : String(n); }\n",
    );
    const green = await runner.run();
    assert.equal(green.status, 'passed', green.output);
    assert.equal(green.passed, 1);
    const implementerChanges = (await git.changedFiles()).filter((f) => !testerChanges.has(f.path));
    assert.deepEqual(checkRoleBoundary('implementer', implementerChanges, { testsBefore: 1, testsAfter: green.total, kata }), []);
    const sha = await git.commitAll('feat: 3 is Fizz');
    assert.ok(sha);

    assert.equal(await removeSessionWorktree(git.info), true);
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', branch], { cwd: repoDir, encoding: 'utf8' })
      .trim()
      .split('\n');
    assert.ok(files.includes('src/fizzbuzz.js') && files.includes('test/fizzbuzz.test.js'));
    assert.ok(!files.some((f) => f.startsWith('.tdd')));
  });
});
