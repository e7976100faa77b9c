import { strict as assert } from 'node:assert';
import { access, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { isAgentError } from '../../../../src/core/errors/agentError';
import {
  inspectWorkspace,
  initRepository,
  readRepository,
  removeSessionWorktree,
  SessionWorktree,
  type SessionGitInfo,
} from '../../../../src/core/tdd/git';
import { dirtyMidMergeRepo, git, gitOrEmpty, personRepoState } from '../../../support/personRepo';

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

// Real git in temp folders: the session's worktree is where everything happens; the person's repository is only read.
describe('SessionWorktree (real git)', function () {
  this.timeout(30_000);
  let dir: string;
  let markers: string;
  let worktrees: string;
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'tdd-person-')));
    markers = await mkdtemp(join(tmpdir(), 'tdd-hook-markers-'));
    worktrees = await mkdtemp(join(tmpdir(), 'tdd-worktrees-'));
  });
  afterEach(async () => {
    for (const d of [dir, markers, worktrees]) await rm(d, { recursive: true, force: true });
  });

  async function create(options: { fromWorkingTree?: boolean } = {}) {
    const repo = await readRepository(dir);
    return SessionWorktree.create(repo, { slug: 'fizzbuzz', worktreesRoot: worktrees, ...options });
  }

  it('works in a dirty repository in the middle of a merge without changing anything of the person’s, and runs no hook', async () => {
    await dirtyMidMergeRepo(dir, markers);
    const before = await personRepoState(dir);
    const base = git(dir, 'rev-parse', 'HEAD');

    const { worktree } = await create();
    assert.ok(worktree.dir.startsWith((await realpath(worktrees)) + sep), 'the worktree is outside the person’s tree');
    assert.match(worktree.info.sessionBranch, /^tdd\/fizzbuzz-\d{8}-\d{6}$/);
    assert.equal(worktree.info.baseCommit, base);
    assert.equal(worktree.info.baseBranch, 'work');
    assert.equal(await readFile(join(worktree.dir, 'README.md'), 'utf8'), '# Mine\n', 'the session starts from the last commit');
    assert.equal(await exists(join(worktree.dir, 'data', 'db.txt')), false, 'ignored files are not in the worktree');

    await mkdir(join(worktree.dir, 'data'));
    await writeFile(join(worktree.dir, 'data', 'db.txt'), 'the session’s own');
    await writeFile(join(worktree.dir, 'src.js'), 'export const x = 1;\n');
    const sha = await worktree.commitAll('feat: x');
    assert.ok(sha);
    await writeFile(join(worktree.dir, 'src.js'), 'broken');
    await worktree.rollbackToHead();

    assert.deepEqual(
      await personRepoState(dir),
      before,
      'HEAD, branch, status, index, stash, MERGE_HEAD, hooks and every file (ignored too) unchanged',
    );
    assert.equal(git(dir, 'log', '-1', '--format=%s', worktree.info.sessionBranch), 'feat: x');
    assert.deepEqual(await readdir(markers), [], 'no hook of the person’s repository ran');

    assert.equal(await removeSessionWorktree(worktree.info), true);
    assert.equal(await exists(worktree.dir), false);
    assert.equal(git(dir, 'rev-parse', worktree.info.sessionBranch), sha, 'the branch keeps its commits');
    assert.deepEqual(await personRepoState(dir), before);
  });

  it('commits only on the session branch: on another branch or a detached HEAD it refuses, and with nothing to commit it returns null', async () => {
    await dirtyMidMergeRepo(dir, markers);
    const { worktree } = await create();
    assert.equal(await worktree.commitAll('feat: nothing'), null);
    await writeFile(join(worktree.dir, 'src.js'), 'export const x = 1;\n');
    git(worktree.dir, 'switch', '-q', '-c', 'elsewhere');
    await assert.rejects(worktree.commitAll('feat: x'), /Refusing to commit: the session worktree is on elsewhere, not on tdd\//);
    git(worktree.dir, 'switch', '-q', '--detach');
    await assert.rejects(worktree.commitAll('feat: x'), /on a detached HEAD, not on tdd\//);
    git(worktree.dir, 'switch', '-q', worktree.info.sessionBranch);
    const sha = await worktree.commitAll('feat: x');
    assert.equal(git(worktree.dir, 'rev-parse', 'HEAD'), sha);
  });

  it('--from-working-tree copies tracked changes and untracked files (not ignored ones) into the first commit, reading the person’s tree only', async () => {
    await dirtyMidMergeRepo(dir, markers);
    await rm(join(dir, 'notes.md')); // a tracked file the person deleted
    const before = await personRepoState(dir);

    const { worktree, snapshotCommit } = await create({ fromWorkingTree: true });
    assert.ok(snapshotCommit);
    const files = git(dir, 'ls-tree', '-r', '--name-only', snapshotCommit!).split('\n');
    assert.ok(files.includes('scratch.txt') && files.includes('staged.md') && files.includes('other.md'), files.join(','));
    assert.ok(!files.includes('notes.md'), 'a deleted tracked file is deleted in the snapshot');
    assert.ok(!files.some((f) => f.startsWith('data/')), 'ignored files stay out');
    assert.equal(git(dir, 'show', `${snapshotCommit}:README.md`), '# Mine\n\nhalf-written, not committed');
    assert.equal(await worktree.isDirty(), false);
    assert.deepEqual(await personRepoState(dir), before);
  });

  it('leaves a dirty submodule as it is, also with --from-working-tree (submodules are never copied)', async () => {
    const upstream = await mkdtemp(join(tmpdir(), 'tdd-submodule-'));
    try {
      git(upstream, 'init', '-q', '-b', 'main');
      await writeFile(join(upstream, 'lib.js'), 'v1\n');
      git(upstream, 'add', '-A');
      git(upstream, '-c', 'user.name=U', '-c', 'user.email=u@example.invalid', 'commit', '-q', '-m', 'lib');
      git(dir, 'init', '-q', '-b', 'main');
      git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'vendor/lib');
      git(dir, '-c', 'user.name=P', '-c', 'user.email=p@example.invalid', 'commit', '-q', '-m', 'with a submodule');
      await writeFile(join(dir, 'vendor', 'lib', 'lib.js'), 'my uncommitted change inside the submodule\n');
      const before = await personRepoState(dir);
      const { worktree } = await create({ fromWorkingTree: true });
      assert.deepEqual(await personRepoState(dir), before);
      assert.equal(
        await exists(join(worktree.dir, 'vendor', 'lib', 'lib.js')),
        false,
        'the submodule is not checked out or copied in the worktree',
      );
    } finally {
      await rm(upstream, { recursive: true, force: true });
    }
  });

  it('starts a repository without commits from an empty commit, leaving the unborn branch and the staged files alone', async () => {
    git(dir, 'init', '-q', '-b', 'trunk');
    await writeFile(join(dir, 'staged.txt'), 'staged, never committed\n');
    git(dir, 'add', 'staged.txt');
    const before = await personRepoState(dir);

    const { worktree } = await create();
    assert.equal(git(dir, 'ls-tree', '-r', '--name-only', worktree.info.sessionBranch), '', 'the session starts empty');
    assert.equal(worktree.info.baseBranch, null, 'an unborn branch is no base to compare with');
    assert.deepEqual(await personRepoState(dir), before, 'trunk still has no commit; staged.txt still staged');
  });

  it('a folder that is not a repository is only inspected; git init is a separate step', async () => {
    await writeFile(join(dir, 'notes.txt'), 'mine');
    assert.equal((await inspectWorkspace(dir)).kind, 'folder');
    assert.equal(gitOrEmpty(dir, 'rev-parse', '--git-dir'), '', 'inspecting created nothing');
    const missing = join(dir, 'missing');
    assert.deepEqual(await inspectWorkspace(missing), { kind: 'missing', path: missing });
    assert.equal(await exists(missing), false);
    const repo = await initRepository(dir);
    assert.equal(repo.head, null);
    const { worktree } = await create();
    assert.equal(
      await exists(join(worktree.dir, 'notes.txt')),
      false,
      'the person’s files are not taken without --from-working-tree',
    );
    assert.equal(await readFile(join(dir, 'notes.txt'), 'utf8'), 'mine');
  });

  it('refuses a folder inside another repository', async () => {
    git(dir, 'init', '-q');
    await mkdir(join(dir, 'sub'));
    await assert.rejects(
      inspectWorkspace(join(dir, 'sub')),
      (e: unknown) => isAgentError(e) && e.error_code === 'CONFIG' && /is not its root, and has no manifest/.test(e.message),
    );
  });

  it('takes a project folder inside a repository (a workspace package with its own manifest) as the session’s folder', async () => {
    git(dir, 'init', '-q');
    await mkdir(join(dir, 'packages', 'app'), { recursive: true });
    await writeFile(join(dir, 'packages', 'app', 'package.json'), '{"name":"app"}');
    const facts = await inspectWorkspace(join(dir, 'packages', 'app'));
    assert.equal(facts.kind, 'repository');
    assert.equal(facts.kind === 'repository' && facts.folder, 'packages/app');
    assert.equal(facts.kind === 'repository' && facts.repository.root, await realpath(dir));
  });

  describe('attach (resume) accepts only the session’s own worktree, and changes nothing when it refuses', () => {
    let info: SessionGitInfo;
    let before: Record<string, unknown>;
    beforeEach(async () => {
      await dirtyMidMergeRepo(dir, markers);
      info = (await create()).worktree.info;
      before = await personRepoState(dir);
    });
    const refused = async (tampered: SessionGitInfo, pattern: RegExp): Promise<void> => {
      await assert.rejects(
        SessionWorktree.attach(tampered),
        (e: unknown) =>
          isAgentError(e) &&
          e.error_code === 'SESSION_STATE_INVALID' &&
          pattern.test(e.message) &&
          /Nothing was changed/.test(e.message),
      );
      assert.deepEqual(await personRepoState(dir), before);
    };

    it('re-attaches to a genuine session', async () => {
      const worktree = await SessionWorktree.attach(info);
      await writeFile(join(worktree.dir, 'half-done.js'), 'x');
      assert.equal((await worktree.rollbackToHead()).length, 1);
      assert.deepEqual(await personRepoState(dir), before);
    });
    it('refuses a record naming the person’s branch', () => refused({ ...info, sessionBranch: 'work' }, /not a session branch/));
    it('refuses a record naming the person’s checkout as the worktree', () =>
      refused({ ...info, worktree: dir }, /not registered/));
    it('refuses a branch that no longer exists', async () => {
      git(dir, 'worktree', 'remove', '--force', info.worktree);
      git(dir, 'branch', '-D', info.sessionBranch);
      before = await personRepoState(dir);
      await refused(info, /does not exist/);
    });
    it('refuses a removed worktree', async () => {
      git(dir, 'worktree', 'remove', '--force', info.worktree);
      before = await personRepoState(dir);
      await refused(info, /not registered/);
    });
    it('refuses a worktree whose .git was rewritten to point at the person’s repository', async () => {
      await writeFile(join(info.worktree, '.git'), `gitdir: ${join(dir, '.git')}\n`);
      await refused(info, /does not point back/);
    });
  });

  it('names its git dir explicitly: a rewritten .git file cannot redirect a commit or a rollback to the person’s repository', async () => {
    await dirtyMidMergeRepo(dir, markers);
    const { worktree } = await create();
    const before = await personRepoState(dir);
    await writeFile(join(worktree.dir, '.git'), `gitdir: ${join(dir, '.git')}\n`); // what unsandboxed generated code could do
    await writeFile(join(worktree.dir, 'a.js'), 'a');
    const sha = await worktree.commitAll('feat: a');
    await worktree.rollbackToHead();
    assert.equal(git(dir, 'rev-parse', worktree.info.sessionBranch), sha);
    assert.deepEqual(await personRepoState(dir), before);
  });

  it('reverts only the given paths and refuses paths outside the worktree or inside .git', async () => {
    git(dir, 'init', '-q', '-b', 'main');
    const { worktree } = await create();
    await writeFile(join(worktree.dir, 'keep.js'), 'keep');
    await mkdir(join(worktree.dir, 'deep', 'er'), { recursive: true });
    await writeFile(join(worktree.dir, 'deep', 'er', 'drop.js'), 'drop');
    await worktree.revertPaths(['deep/er/drop.js']);
    assert.equal(await exists(join(worktree.dir, 'deep')), false, 'emptied folders are pruned');
    assert.equal(await readFile(join(worktree.dir, 'keep.js'), 'utf8'), 'keep');
    await assert.rejects(worktree.revertPaths(['../outside.js']), /outside the workspace/);
    await assert.rejects(worktree.revertPaths(['.git/config']), /inside \.git/);
    assert.equal((await worktree.recentCommits(5)).length, 1);
  });

  it('commits as the fallback identity when git has none, without changing any config', async () => {
    git(dir, 'init', '-q', '-b', 'main');
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
    delete env.GIT_AUTHOR_NAME;
    delete env.GIT_AUTHOR_EMAIL;
    delete env.GIT_COMMITTER_NAME;
    delete env.GIT_COMMITTER_EMAIL;
    const { worktree } = await SessionWorktree.create(await readRepository(dir, env), {
      slug: 'k',
      worktreesRoot: worktrees,
      env,
    });
    await writeFile(join(worktree.dir, 'a.js'), 'a');
    const sha = await worktree.commitAll('feat: a');
    assert.equal(git(dir, 'log', '-1', '--format=%an <%ae>', sha!), 'TDD Agent <tdd-agent@localhost>');
    assert.equal(gitOrEmpty(dir, 'config', '--local', '--get-regexp', 'user'), '');
  });
});
