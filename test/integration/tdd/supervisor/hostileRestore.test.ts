import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import {
  link,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRepository, SessionWorktree } from '../../../../src/core/tdd/git';
import { PhaseCheckpoint } from '../../../../src/core/tdd/commits/phaseCheckpoint';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { git } from '../../../support/personRepo';
import { fileOnBranch, initPersonRepo, SessionHarness } from './sessionHarness';

const COMMITTED_CFG = '[tool]\nlevel = 1\n';
const RED_TEST = "import { test } from 'node:test';\ntest('red', () => { throw new Error('not yet'); });\n";

/** Resolves with the promise's value, or rejects when it takes longer than `ms` (a blocked FIFO open never ends). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lets a reader blocked on opening `fifo` go (a writer that opens and closes at once), so no thread stays stuck. */
async function releaseFifo(fifo: string): Promise<void> {
  const handle = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
  await handle?.close();
}

/** Every regular file below `dir`, with its content (links and special files left out). */
async function regularFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    if (full.includes('/.git/')) continue;
    files.set(full, await readFile(full, 'latin1'));
  }
  return files;
}

// A checkpoint restores a tree that generated tests wrote: real git worktrees, real links, FIFOs and hard links.
describe('PhaseCheckpoint in a hostile worktree (real git)', function () {
  this.timeout(30_000);
  let person: string;
  let worktrees: string;
  let outside: string;
  let worktree: SessionWorktree;
  let root: string;
  let configPath: string;
  let fifos: string[];
  /** The loop's git for the checkpoint (headContent too, which the checkpoint before this change read). */
  let checkpointGit: {
    changedFiles: SessionWorktree['changedFiles'];
    revertPaths: SessionWorktree['revertPaths'];
    headContent: SessionWorktree['headContent'];
  };

  beforeEach(async () => {
    person = await realpath(await mkdtemp(join(tmpdir(), 'tdd-restore-person-')));
    worktrees = await mkdtemp(join(tmpdir(), 'tdd-restore-worktrees-'));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'tdd-restore-outside-')));
    fifos = [];
    await initPersonRepo(person, { 'tools/cfg.ini': COMMITTED_CFG, 'src/app.js': 'export const app = 1;\n' });
    configPath = join(person, '.git', 'config');
    ({ worktree } = await SessionWorktree.create(await readRepository(person), { slug: 'fizzbuzz', worktreesRoot: worktrees }));
    root = worktree.dir;
    checkpointGit = {
      changedFiles: () => worktree.changedFiles(),
      revertPaths: (paths) => worktree.revertPaths(paths),
      headContent: (path) => worktree.headContent(path),
    };
  });
  afterEach(async () => {
    for (const fifo of fifos) await releaseFifo(fifo);
    for (const dir of [person, worktrees, outside]) await rm(dir, { recursive: true, force: true });
  });

  it('puts a committed file swapped for a link to the repository config back as a file, never writing the config', async () => {
    const config = await readFile(configPath);
    const checkpoint = await PhaseCheckpoint.take(root, checkpointGit, { clean: true });
    await unlink(join(root, 'tools/cfg.ini'));
    await symlink(configPath, join(root, 'tools/cfg.ini'));

    assert.deepEqual(await checkpoint.changesSince(), [{ path: 'tools/cfg.ini', change: 'modified' }]);
    await checkpoint.restore();

    assert.deepEqual(await readFile(configPath), config, "the person's .git/config is byte for byte the same");
    assert.ok((await lstat(join(root, 'tools/cfg.ini'))).isFile(), 'a regular file again, not a link');
    assert.equal(await readFile(join(root, 'tools/cfg.ini'), 'utf8'), COMMITTED_CFG);
    assert.deepEqual(await worktree.changedFiles(), []);
  });

  it('puts a file saved at the checkpoint back without writing through a link that replaced it', async () => {
    const config = await readFile(configPath);
    await mkdir(join(root, 'test'));
    await writeFile(join(root, 'test/red.test.js'), RED_TEST); // the uncommitted red test
    const checkpoint = await PhaseCheckpoint.take(root, checkpointGit);
    await unlink(join(root, 'test/red.test.js'));
    await symlink(configPath, join(root, 'test/red.test.js'));

    assert.deepEqual(await checkpoint.changesSince(), [{ path: 'test/red.test.js', change: 'modified' }]);
    await checkpoint.restore();

    assert.deepEqual(await readFile(configPath), config);
    assert.ok((await lstat(join(root, 'test/red.test.js'))).isFile());
    assert.equal(await readFile(join(root, 'test/red.test.js'), 'utf8'), RED_TEST);
  });

  it('replaces a folder on the path that became a link to an outside folder, and writes nothing there', async () => {
    await writeFile(join(outside, 'cfg.ini'), 'OUTSIDE cfg\n');
    await writeFile(join(outside, 'extra.ini'), 'OUTSIDE extra\n');
    await writeFile(join(root, 'tools/extra.ini'), 'saved at the checkpoint\n'); // differs from HEAD: saved
    const checkpoint = await PhaseCheckpoint.take(root, checkpointGit);
    await rm(join(root, 'tools'), { recursive: true });
    await symlink(outside, join(root, 'tools'));
    const outsideBefore = await regularFiles(outside);

    const changed = (await checkpoint.changesSince()).map((c) => c.path);
    assert.deepEqual(changed, ['tools', 'tools/cfg.ini', 'tools/extra.ini']);
    // Only the files, as after a violation (the loop restores the paths a role may not touch): the link itself is
    // not among them, and must not be followed on the way.
    await checkpoint.restore(['tools/cfg.ini', 'tools/extra.ini']);

    assert.deepEqual(await regularFiles(outside), outsideBefore, 'nothing outside the worktree was written');
    assert.ok((await lstat(join(root, 'tools'))).isDirectory(), 'a real folder again');
    assert.equal(await readFile(join(root, 'tools/cfg.ini'), 'utf8'), COMMITTED_CFG);
    assert.equal(await readFile(join(root, 'tools/extra.ini'), 'utf8'), 'saved at the checkpoint\n');
  });

  it('never writes through a hard link to an outside file: the entry is replaced, not truncated in place', async () => {
    const target = join(outside, 'keep.txt');
    await writeFile(target, 'OUTSIDE, must not change\n');
    await mkdir(join(root, 'test'));
    await writeFile(join(root, 'test/red.test.js'), RED_TEST);
    const checkpoint = await PhaseCheckpoint.take(root, checkpointGit);
    for (const path of ['test/red.test.js', 'tools/cfg.ini']) {
      await unlink(join(root, path));
      await link(target, join(root, path));
    }

    await checkpoint.restore();

    assert.equal(await readFile(target, 'utf8'), 'OUTSIDE, must not change\n');
    assert.equal((await lstat(target)).nlink, 1, 'the worktree no longer links to it');
    assert.equal(await readFile(join(root, 'test/red.test.js'), 'utf8'), RED_TEST);
    assert.equal(await readFile(join(root, 'tools/cfg.ini'), 'utf8'), COMMITTED_CFG);
  });

  it('does not block on a FIFO standing where a saved file was, or where a changed file stood at the checkpoint', async () => {
    await mkdir(join(root, 'test'));
    await writeFile(join(root, 'test/red.test.js'), RED_TEST);
    // A committed file already replaced by a FIFO when the phase starts (an earlier test run did it).
    await unlink(join(root, 'tools/cfg.ini'));
    execFileSync('mkfifo', [join(root, 'tools/cfg.ini')]);
    fifos.push(join(root, 'tools/cfg.ini'));
    const checkpoint = await within(10_000, 'taking the checkpoint', PhaseCheckpoint.take(root, checkpointGit));

    await unlink(join(root, 'test/red.test.js'));
    execFileSync('mkfifo', [join(root, 'test/red.test.js')]);
    fifos.push(join(root, 'test/red.test.js'));
    const changes = await within(10_000, 'changesSince', checkpoint.changesSince());
    assert.deepEqual(changes, [{ path: 'test/red.test.js', change: 'modified' }], 'the unchanged FIFO is no change');
    await within(10_000, 'restore', checkpoint.restore());
    assert.ok((await lstat(join(root, 'test/red.test.js'))).isFile());
    assert.equal(await readFile(join(root, 'test/red.test.js'), 'utf8'), RED_TEST);
  });

  it('keeps a link to /proc/self/environ as a link: the environment is never read into the worktree', async () => {
    const marker = 'tdd-restore-environ-marker-5e1f';
    process.env.TDD_RESTORE_MARKER = marker;
    try {
      await mkdir(join(root, 'test'));
      await symlink('/proc/self/environ', join(root, 'test/env.test.js'));
      const checkpoint = await PhaseCheckpoint.take(root, checkpointGit);
      await unlink(join(root, 'test/env.test.js'));
      await writeFile(join(root, 'test/env.test.js'), 'changed by the role\n');

      assert.deepEqual(await checkpoint.changesSince(), [{ path: 'test/env.test.js', change: 'modified' }]);
      await checkpoint.restore();

      assert.equal(await readlink(join(root, 'test/env.test.js')), '/proc/self/environ', 'put back as the same link');
      for (const [path, content] of await regularFiles(root)) {
        assert.ok(!content.includes(marker), `${path} holds the supervisor's environment`);
      }
    } finally {
      delete process.env.TDD_RESTORE_MARKER;
    }
  });

  it('refuses a path that leads out of the worktree with a VALIDATION error, reading and writing nothing', async () => {
    const checkpoint = await PhaseCheckpoint.take(root, {
      changedFiles: () => Promise.resolve([{ path: '../escape.txt', change: 'modified' as const }]),
      revertPaths: () => Promise.resolve(),
    }).catch((err: unknown) => err);
    assert.ok(checkpoint instanceof Error);
    assert.equal((checkpoint as { error_code?: string }).error_code, 'VALIDATION');
  });
});

// The same attack through a whole session: the Refactorer's test swaps a committed file for a link to the
// person's .git/config and fails on purpose, so that the red refactoring is undone.
describe('TDD supervisor: a red refactoring that swapped a file for a link to the repository config', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it("undoes the refactoring without touching the person's config, and the session goes on", async () => {
    await initPersonRepo(h.workspace, { 'tools/cfg.ini': COMMITTED_CFG });
    const configPath = join(h.workspace, '.git', 'config');
    const config = await readFile(configPath);
    const swap = `import { test } from 'node:test';
import fs from 'node:fs';
test('swaps the config', () => {
  fs.rmSync('tools/cfg.ini', { force: true });
  fs.symlinkSync(${JSON.stringify(configPath)}, 'tools/cfg.ini');
  throw new Error('red on purpose');
});
`;
    const { summary, events } = await h.run({
      cycles: fizzbuzzJs(1),
      overrides: {
        'refactorer:1:1': {
          writes: [{ path: 'test/swap.test.js', content: swap }],
          report: 'restructure the tests',
          runTests: true,
        },
      },
    });

    assert.deepEqual(await readFile(configPath), config, "the person's .git/config is byte for byte the same");
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'kata_complete'],
    );
    assert.ok(events.some((e) => e.type === 'reverted' && e.role === 'refactorer'));
    assert.equal(await fileOnBranch(h.workspace, summary.branch, 'tools/cfg.ini'), COMMITTED_CFG);
    assert.match(git(h.workspace, 'ls-tree', summary.branch, 'tools/cfg.ini'), /^100644 blob /, 'a regular file on the branch');
    assert.equal(await fileOnBranch(h.workspace, summary.branch, 'test/swap.test.js'), null);
  });
});
