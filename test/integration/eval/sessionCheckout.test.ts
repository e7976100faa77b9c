import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { simpleGit } from 'simple-git';
import { loadEvalSet, SessionCheckout } from '../../../src/core/eval';

const FIXTURE = resolve(__dirname, '..', '..', 'fixtures', 'eval-set');
const LEAP = 'export function isLeap(year) {\n  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;\n}\n';
const LEAP_TEST =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { isLeap } from '../src/leap.js';\n\ntest('2000', () => assert.equal(isLeap(2000), true));\n";

describe('eval: a checkout of a session’s commits, in the sandbox', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eval-checkout-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Commits `files` on top of the repository's history and returns the commit. */
  async function commit(repo: string, files: Record<string, string>, message: string): Promise<string> {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(repo, path)), { recursive: true });
      await writeFile(join(repo, path), content);
    }
    const git = simpleGit(repo);
    await git.add('.');
    await git.commit(message);
    return (await git.revparse(['HEAD'])).trim();
  }

  async function repository(): Promise<string> {
    const repo = join(dir, 'repository');
    await mkdir(repo);
    const git = simpleGit(repo);
    await git.raw(['init', '-q', '-b', 'main']);
    await git.addConfig('user.name', 'Test').addConfig('user.email', 'test@example.invalid');
    return repo;
  }

  it('finds the red commit among green ones, and runs the held-back JavaScript tests on a commit (9/9, then a missing module)', async () => {
    const repo = await repository();
    const pkg = JSON.stringify({ type: 'module', scripts: { test: 'node --test' } });
    const scaffold = await commit(repo, { 'package.json': pkg, 'src/.gitkeep': '' }, 'scaffold');
    const green = await commit(repo, { 'src/leap.js': LEAP, 'test/leap.test.js': LEAP_TEST }, 'green');
    const red = await commit(repo, { 'src/leap.js': 'export function isLeap() {\n  return false;\n}\n' }, 'red');
    const moved = await commit(repo, { 'src/leap.js': '', 'src/calendar.js': LEAP }, 'moved');

    const set = await loadEvalSet(FIXTURE);
    const leap = set.exercises.find((e) => e.slug === 'leap')!;
    const checkout = await SessionCheckout.open(repo, join(dir, 'checkout'), green);
    try {
      const replay = await checkout.replayCommits([scaffold, green, red], 'node --test');
      assert.deepEqual(
        replay.red.map((r) => [r.sha, r.status]),
        [[red, 'failed']],
        'the scaffold without tests is not red',
      );
      assert.equal(replay.checked, 3);

      const passed = await checkout.runAcceptance(green, set.dir, 'javascript', leap.languages.javascript!);
      assert.deepEqual([passed.passed, passed.total, passed.status], [9, 9, 'passed']);
      const failed = await checkout.runAcceptance(red, set.dir, 'javascript', leap.languages.javascript!);
      assert.deepEqual([failed.passed, failed.total, failed.status], [5, 9, 'failed']);
      const missing = await checkout.runAcceptance(moved, set.dir, 'javascript', leap.languages.javascript!);
      assert.deepEqual([missing.passed, missing.total], [0, 9]);
      assert.notEqual(missing.status, 'passed');
    } finally {
      await checkout.close();
    }
    assert.equal((await simpleGit(repo).raw(['worktree', 'list'])).trim().split('\n').length, 1, 'the checkout is gone');
  });

  it('a hostile commit: a package.json linked to a host file is not read, an acceptance folder linked outside is not written through', async () => {
    const repo = await repository();
    const outside = join(dir, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'keep.txt'), 'the person’s file\n');
    await writeFile(join(outside, 'package.json'), JSON.stringify({ dependencies: { 'left-pad': '1.3.0' } }));
    // What generated code can commit: links to files and folders on the host.
    await symlink(join(outside, 'package.json'), join(repo, 'package.json'));
    await symlink(outside, join(repo, 'acceptance'));
    const hostile = await commit(repo, { 'src/leap.js': LEAP }, 'hostile');

    const set = await loadEvalSet(FIXTURE);
    const leap = set.exercises.find((e) => e.slug === 'leap')!;
    // Whether the commit declares packages is read without following the link: a link is no package.json, so nothing
    // is installed from what the host file says.
    const checkout = await SessionCheckout.open(repo, join(dir, 'checkout'), hostile);
    try {
      assert.deepEqual(await readdir(checkout.dir).then((names) => names.includes('node_modules')), false, 'nothing installed');
      const result = await checkout.runAcceptance(hostile, set.dir, 'javascript', leap.languages.javascript!);
      assert.notEqual(result.status, 'not_run', 'the acceptance file ran, from a folder of its own');
    } finally {
      await checkout.close();
    }
    assert.deepEqual((await readdir(outside)).sort(), ['keep.txt', 'package.json'], 'nothing written through the committed link');
    assert.equal(await readFile(join(outside, 'keep.txt'), 'utf8'), 'the person’s file\n');
  });

  it('runs the held-back Python tests with pytest, the module imported from src/', async () => {
    const repo = await repository();
    const python = await commit(
      repo,
      {
        'pyproject.toml':
          '[project]\nname = "leap-kata"\nversion = "0.0.0"\n\n[tool.pytest.ini_options]\npythonpath = [".", "src"]\n',
        'src/leap.py': 'def leap_year(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n',
        'src/raindrops.py': 'def convert(number):\n    return str(number)\n',
      },
      'python',
    );
    const set = await loadEvalSet(FIXTURE);
    const [leap, raindrops] = set.exercises;
    const checkout = await SessionCheckout.open(repo, join(dir, 'checkout'), python);
    try {
      const passed = await checkout.runAcceptance(python, set.dir, 'python', leap!.languages.python!);
      assert.deepEqual([passed.passed, passed.total, passed.status], [9, 9, 'passed']);
      const partly = await checkout.runAcceptance(python, set.dir, 'python', raindrops!.languages.python!);
      assert.deepEqual([partly.passed, partly.total, partly.status], [2, 10, 'failed']);
      assert.ok(
        partly.failing?.every((name) => /\[[0-9a-f-]{36}\]$/.test(name)),
        partly.failing?.join('\n'),
      );
    } finally {
      await checkout.close();
    }
  });

  it('TypeScript: installs the commit’s packages (tsx) once, keeps them across commits, runs the JavaScript acceptance tests through tsx', async function () {
    this.timeout(300_000);
    const repo = await repository();
    const pkg = JSON.stringify({
      type: 'module',
      scripts: { test: 'tsx --test test/leap.test.ts' },
      devDependencies: { tsx: '^4.19.0' },
    });
    const leapTs =
      'export function isLeap(year: number): boolean {\n  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;\n}\n';
    const test = LEAP_TEST.replace('../src/leap.js', '../src/leap.ts');
    const first = await commit(
      repo,
      { '.gitignore': 'node_modules/\n', 'package.json': pkg, 'src/leap.ts': leapTs, 'test/leap.test.ts': test },
      'green',
    );
    const second = await commit(
      repo,
      { 'src/leap.ts': 'export function isLeap(year: number): boolean {\n  return year === 2000;\n}\n' },
      'still green',
    );
    const set = await loadEvalSet(FIXTURE);
    const leap = set.exercises.find((e) => e.slug === 'leap')!;
    const checkout = await SessionCheckout.open(repo, join(dir, 'checkout'), second);
    try {
      const replay = await checkout.replayCommits([first, second], 'tsx --test test/leap.test.ts');
      assert.deepEqual(replay.red, []);
      const passed = await checkout.runAcceptance(first, set.dir, 'typescript', leap.languages.javascript!);
      assert.deepEqual([passed.passed, passed.total, passed.status], [9, 9, 'passed'], passed.reason);
      const hardcoded = await checkout.runAcceptance(second, set.dir, 'typescript', leap.languages.javascript!);
      assert.deepEqual([hardcoded.passed, hardcoded.total], [6, 9]);
    } finally {
      await checkout.close();
    }
  });
});
