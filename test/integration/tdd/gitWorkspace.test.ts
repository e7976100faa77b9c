import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setLogSink, type LogRecord, type LogSink } from '../../../src/core/logging/logger';
import { GitWorkspace, WorkspaceDirtyError } from '../../../src/core/tdd/git';

/** Runs git as the person would, outside the code under test. */
function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

async function write(dir: string, path: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), content);
}

/** A person's repository with one commit, its own identity, and an ignore rule. */
async function personRepo(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tdd-git-'));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Person');
  git(dir, 'config', 'user.email', 'person@example.com');
  await write(dir, 'README.md', '# kata\n');
  await write(dir, 'src/app.js', 'export const x = 1;\n');
  await write(dir, '.gitignore', '*.log\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

describe('GitWorkspace (real git)', function () {
  this.timeout(30_000);
  const dirs: string[] = [];
  const logs: LogRecord[] = [];
  let previousSink: LogSink;
  before(() => {
    previousSink = setLogSink((record) => logs.push(record));
  });
  const track = <T extends string>(dir: T): T => {
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    setLogSink(previousSink);
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('creates a repository with an empty initial commit in an empty folder, excluding .tdd/', async () => {
    const dir = track(await mkdtemp(join(tmpdir(), 'tdd-git-')));
    const ws = await GitWorkspace.open(dir);
    assert.equal(ws.info.createdRepository, true);
    assert.ok(ws.info.initialCommit);
    assert.equal(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD'), '', 'the initial commit is empty');
    assert.match(await readFile(join(dir, '.git', 'info', 'exclude'), 'utf8'), /^\/\.tdd\/$/m);
    await write(dir, '.tdd/session.json', '{}');
    assert.equal(await ws.isDirty(), false, '.tdd/ is not a change');
  });

  it('refuses a folder with files that is not a repository, creating nothing', async () => {
    const dir = track(await mkdtemp(join(tmpdir(), 'tdd-git-')));
    await write(dir, 'notes.txt', 'mine\n');
    await assert.rejects(GitWorkspace.open(dir), (e: unknown) => {
      assert.ok(e instanceof WorkspaceDirtyError);
      assert.equal(e.error_code, 'WORKSPACE_DIRTY');
      assert.match(e.message, /not a git repository/);
      assert.match(e.message, /notes\.txt/);
      return true;
    });
    assert.equal(existsSync(join(dir, '.git')), false);
  });

  it('commits existing files of a new repository only when asked', async () => {
    const dir = track(await mkdtemp(join(tmpdir(), 'tdd-git-')));
    await write(dir, 'notes.txt', 'mine\n');
    const ws = await GitWorkspace.open(dir, { commitExistingFiles: true });
    assert.equal(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD'), 'notes.txt');
    assert.equal(await ws.isDirty(), false);
  });

  it('refuses a dirty workspace, listing the files and the two ways out, losing nothing', async () => {
    const dir = track(await personRepo());
    await write(dir, 'src/app.js', 'export const x = 2; // unsaved idea\n');
    await write(dir, 'draft.md', 'draft\n');
    const headBefore = git(dir, 'rev-parse', 'HEAD');
    const excludeBefore = await readFile(join(dir, '.git', 'info', 'exclude'), 'utf8').catch(() => '');
    await assert.rejects(GitWorkspace.open(dir), (e: unknown) => {
      assert.ok(e instanceof WorkspaceDirtyError);
      assert.match(e.message, /src\/app\.js \(modified\)/);
      assert.match(e.message, /draft\.md \(added\)/);
      assert.match(e.message, /git stash/);
      assert.match(e.message, /--stash/);
      assert.deepEqual(
        e.files.map((f) => f.path).sort(),
        ['draft.md', 'src/app.js'],
      );
      return true;
    });
    assert.equal(await readFile(join(dir, 'src/app.js'), 'utf8'), 'export const x = 2; // unsaved idea\n');
    assert.equal(await readFile(join(dir, 'draft.md'), 'utf8'), 'draft\n');
    assert.equal(git(dir, 'rev-parse', 'HEAD'), headBefore);
    assert.equal(git(dir, 'stash', 'list'), '');
    assert.equal(git(dir, 'branch', '--list', 'tdd/*'), '');
    assert.equal(await readFile(join(dir, '.git', 'info', 'exclude'), 'utf8').catch(() => ''), excludeBefore, 'not even .git/info/exclude');
  });

  it('gives a repository without commits an empty first commit, keeping what the person staged', async () => {
    const dir = track(await mkdtemp(join(tmpdir(), 'tdd-git-')));
    git(dir, 'init', '-q', '-b', 'trunk');
    await assert.rejects(
      (async () => {
        await write(dir, 'staged.txt', 'staged\n');
        git(dir, 'add', 'staged.txt');
        await GitWorkspace.open(dir);
      })(),
      WorkspaceDirtyError,
    );
    assert.throws(() => git(dir, 'rev-parse', '--verify', 'HEAD'), 'no commit was made before refusing');
    const ws = await GitWorkspace.open(dir, { stash: true });
    assert.equal(ws.info.originalBranch, 'trunk');
    assert.equal(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD'), '', 'the staged file is not in the initial commit');
    await ws.startSessionBranch('kata');
    await ws.finish();
    assert.equal(await readFile(join(dir, 'staged.txt'), 'utf8'), 'staged\n');
    assert.equal(git(dir, 'diff', '--cached', '--name-only'), 'staged.txt');
  });

  it('stashes the person\'s work and restores it byte-identical at the end', async () => {
    const dir = track(await personRepo());
    const binary = Buffer.from([0, 1, 2, 255, 254, 10, 13, 10]);
    await write(dir, 'src/app.js', 'export const x = 2; // unsaved idea\r\n');
    await write(dir, 'draft.bin', binary);
    await write(dir, 'staged.md', 'staged\n');
    git(dir, 'add', 'staged.md');
    await write(dir, 'debug.log', 'ignored\n');

    const ws = await GitWorkspace.open(dir, { stash: true });
    assert.ok(ws.info.stashRef);
    assert.equal(await ws.isDirty(), false);
    assert.equal(await readFile(join(dir, 'src/app.js'), 'utf8'), 'export const x = 1;\n', 'the session starts from HEAD');

    const branch = await ws.startSessionBranch('fizzbuzz');
    await write(dir, 'src/app.js', 'export const x = 3;\n');
    await write(dir, 'test/app.test.js', 'test\n');
    const sha = await ws.commitAll('feat: three');
    assert.ok(sha);

    const result = await ws.finish();
    assert.equal(result.stashRestored, true);
    assert.equal(result.restored, 'main');
    assert.equal(git(dir, 'symbolic-ref', '--short', 'HEAD'), 'main');
    assert.equal(await readFile(join(dir, 'src/app.js'), 'utf8'), 'export const x = 2; // unsaved idea\r\n');
    assert.deepEqual(await readFile(join(dir, 'draft.bin')), binary);
    assert.equal(await readFile(join(dir, 'staged.md'), 'utf8'), 'staged\n');
    assert.equal(git(dir, 'diff', '--cached', '--name-only'), 'staged.md', 'staged work is staged again');
    assert.equal(await readFile(join(dir, 'debug.log'), 'utf8'), 'ignored\n');
    assert.equal(existsSync(join(dir, 'test/app.test.js')), false, 'session files live on the session branch only');
    assert.equal(git(dir, 'stash', 'list'), '');
    assert.equal(git(dir, 'log', '-1', '--format=%s', branch), 'feat: three', 'the session branch keeps its commits');
  });

  it('works on tdd/<slug>-<timestamp> and returns a person to their own (non-default) branch', async () => {
    const dir = track(await personRepo());
    git(dir, 'checkout', '-q', '-b', 'feature/kata');
    const featureHead = git(dir, 'rev-parse', 'HEAD');
    const ws = await GitWorkspace.open(dir);
    assert.equal(ws.info.originalBranch, 'feature/kata');
    const branch = await ws.startSessionBranch('Roman Numerals!', new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    assert.equal(branch, 'tdd/roman-numerals-20260102-030405');
    const again = await GitWorkspace.open(dir).then((w) => w.startSessionBranch('roman numerals', new Date(Date.UTC(2026, 0, 2, 3, 4, 5))));
    assert.equal(again, 'tdd/roman-numerals-20260102-030405-2', 'a taken name gets a suffix');
    git(dir, 'checkout', '-q', branch);

    await write(dir, 'src/roman.js', 'export const roman = () => "I";\n');
    const sha = await ws.commitAll('feat: one is I');
    assert.equal(git(dir, 'rev-parse', 'HEAD'), sha);
    assert.equal(await ws.commitAll('nothing'), null, 'nothing to commit');
    await ws.finish();
    assert.equal(git(dir, 'symbolic-ref', '--short', 'HEAD'), 'feature/kata');
    assert.equal(git(dir, 'rev-parse', 'HEAD'), featureHead, 'the person\'s branch did not move');
    assert.equal(git(dir, 'rev-parse', branch), sha);
  });

  it('reports changed files, rolls back only the session\'s changes, keeps ignored files and .tdd/', async () => {
    const dir = track(await personRepo());
    const ws = await GitWorkspace.open(dir);
    await ws.startSessionBranch('leap');
    await write(dir, 'src/app.js', 'broken(\n');
    await rm(join(dir, 'README.md'));
    await write(dir, 'src/deep/new.js', 'new\n');
    await write(dir, 'build.log', 'ignored\n');
    await write(dir, '.tdd/session.json', '{"keep":true}');

    const changed = await ws.changedFiles();
    assert.deepEqual(
      changed.sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: 'README.md', change: 'deleted' },
        { path: 'src/app.js', change: 'modified' },
        { path: 'src/deep/new.js', change: 'added' },
      ],
    );
    const discarded = await ws.rollbackToHead();
    assert.equal(discarded.length, 3);
    assert.equal(await readFile(join(dir, 'src/app.js'), 'utf8'), 'export const x = 1;\n');
    assert.equal(await readFile(join(dir, 'README.md'), 'utf8'), '# kata\n');
    assert.equal(existsSync(join(dir, 'src/deep')), false, 'the session\'s new folder is gone');
    assert.equal(await readFile(join(dir, 'build.log'), 'utf8'), 'ignored\n');
    assert.equal(await readFile(join(dir, '.tdd/session.json'), 'utf8'), '{"keep":true}');
    assert.equal(await ws.isDirty(), false);
  });

  it('reverts only the given paths and refuses paths outside the workspace', async () => {
    const dir = track(await personRepo());
    const ws = await GitWorkspace.open(dir);
    await ws.startSessionBranch('bowling');
    await write(dir, 'src/app.js', 'changed by implementer\n');
    await write(dir, 'test/app.test.js', 'new test\n');
    await write(dir, 'README.md', 'changed too\n');
    await ws.revertPaths(['src/app.js', './test/app.test.js']);
    assert.equal(await readFile(join(dir, 'src/app.js'), 'utf8'), 'export const x = 1;\n');
    assert.equal(existsSync(join(dir, 'test')), false);
    assert.equal(await readFile(join(dir, 'README.md'), 'utf8'), 'changed too\n', 'other paths untouched');
    await assert.rejects(ws.revertPaths(['../outside.txt']), (e: unknown) => (e as { error_code?: string }).error_code === 'VALIDATION');
    await assert.rejects(ws.revertPaths(['/etc/passwd']), (e: unknown) => (e as { error_code?: string }).error_code === 'VALIDATION');
  });

  it('lists recent commits newest first', async () => {
    const dir = track(await personRepo());
    const ws = await GitWorkspace.open(dir);
    await ws.startSessionBranch('fizzbuzz');
    for (const n of [1, 2, 3]) {
      await write(dir, `src/f${n}.js`, `${n}\n`);
      await ws.commitAll(`feat: step ${n}`);
    }
    const commits = await ws.recentCommits(2);
    assert.deepEqual(commits.map((c) => c.subject), ['feat: step 3', 'feat: step 2']);
    assert.match(commits[0].sha, /^[0-9a-f]{40}$/);
    assert.equal(commits[0].author, 'Person');
  });

  it('commits as the fallback identity when git has none configured', async () => {
    const home = track(await mkdtemp(join(tmpdir(), 'tdd-home-')));
    const dir = track(await mkdtemp(join(tmpdir(), 'tdd-git-')));
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
    const ws = await GitWorkspace.open(dir, { env });
    await ws.startSessionBranch('fizzbuzz');
    await write(dir, 'fizz.py', 'x = 1\n');
    const sha = await ws.commitAll('feat: fizz');
    assert.ok(sha);
    assert.equal(git(dir, 'log', '-1', '--format=%an <%ae>'), 'TDD Agent <tdd-agent@localhost>');
    assert.throws(() => git(dir, 'config', '--local', '--get-regexp', 'user'), 'the repository config was not changed');
  });

  it('finish() discards uncommitted session work; attach().finish() undoes a crashed session', async () => {
    const dir = track(await personRepo());
    await write(dir, 'mine.txt', 'precious\n');
    const ws = await GitWorkspace.open(dir, { stash: true });
    await ws.startSessionBranch('string-calculator');
    await write(dir, 'src/calc.js', 'half-written(\n');
    const saved = JSON.parse(JSON.stringify(ws.info)); // what the session state would hold
    // the process dies here; a new one re-attaches from the saved info
    const recovered = await GitWorkspace.attach(dir, saved);
    const result = await recovered.finish();
    assert.deepEqual(result.discarded, [{ path: 'src/calc.js', change: 'added' }]);
    assert.ok(logs.some((r) => r.level === 'warn' && /discarded uncommitted session changes/.test(r.message)), 'the discard is logged');
    assert.equal(result.stashRestored, true);
    assert.equal(git(dir, 'symbolic-ref', '--short', 'HEAD'), 'main');
    assert.equal(await readFile(join(dir, 'mine.txt'), 'utf8'), 'precious\n');
    assert.equal(existsSync(join(dir, 'src/calc.js')), false);
    const second = await recovered.finish();
    assert.equal(second.stashRestored, false, 'finishing twice is harmless');
    assert.equal(await readFile(join(dir, 'mine.txt'), 'utf8'), 'precious\n');
  });

  it('never commits or discards on the person\'s branch', async () => {
    const dir = track(await personRepo());
    const ws = await GitWorkspace.open(dir);
    await write(dir, 'theirs.txt', 'not the session\'s\n');
    await assert.rejects(ws.rollbackToHead(), /session branch is not checked out/);
    await assert.rejects(ws.commitAll('feat: x'), /session branch is not checked out/);
    assert.equal(await readFile(join(dir, 'theirs.txt'), 'utf8'), 'not the session\'s\n');
  });

  it('returns a detached HEAD to the same commit', async () => {
    const dir = track(await personRepo());
    const head = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', '--detach', head);
    const ws = await GitWorkspace.open(dir);
    assert.equal(ws.info.originalBranch, null);
    await ws.startSessionBranch('leap');
    await ws.finish();
    assert.equal(git(dir, 'rev-parse', 'HEAD'), head);
    assert.throws(() => git(dir, 'symbolic-ref', '-q', 'HEAD'));
  });

  it('refuses a folder inside another repository', async () => {
    const dir = track(await personRepo());
    await mkdir(join(dir, 'sub'));
    await assert.rejects(GitWorkspace.open(join(dir, 'sub')), /is inside the git repository/);
  });
});
