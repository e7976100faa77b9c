import { strict as assert } from 'node:assert';
import { lstat, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRealFolderBelow, removeGitEntry } from '../../../../src/core/tdd/git/worktreeFolders';
import { parseWorktreeList } from '../../../../src/core/tdd/git/worktreeList';

describe('parseWorktreeList (git worktree list --porcelain -z)', () => {
  it('reads each worktree’s path, branch and lock, paths taken as they are', () => {
    const output = [
      'worktree /repo',
      'HEAD 1111111111111111111111111111111111111111',
      'branch refs/heads/main',
      '',
      'worktree /cache/odd\nname',
      'HEAD 2222222222222222222222222222222222222222',
      'branch refs/heads/tdd/k-1',
      'locked I am looking at it',
      '',
      'worktree /cache/detached',
      'HEAD 3333333333333333333333333333333333333333',
      'detached',
      'locked',
      'prunable gitdir file points to non-existent location',
      '',
      '',
    ].join('\0');
    assert.deepEqual(parseWorktreeList(output), [
      { path: '/repo', branch: 'refs/heads/main', locked: null },
      { path: '/cache/odd\nname', branch: 'refs/heads/tdd/k-1', locked: 'I am looking at it' },
      { path: '/cache/detached', branch: null, locked: '' },
    ]);
    assert.deepEqual(parseWorktreeList(''), []);
  });
});

describe('worktree folders: nothing reached through a link', () => {
  let root: string;
  let outside: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'tdd-folders-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'tdd-folders-outside-')));
  });
  afterEach(async () => {
    for (const d of [root, outside]) await rm(d, { recursive: true, force: true });
  });

  it('isRealFolderBelow: real folders only, no link on the way, nothing outside the root', async () => {
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    await mkdir(join(outside, 'b'));
    await symlink(outside, join(root, 'link'));
    assert.equal(await isRealFolderBelow(root, root), true);
    assert.equal(await isRealFolderBelow(root, join(root, 'a', 'b')), true);
    assert.equal(await isRealFolderBelow(root, join(root, 'link', 'b')), false);
    assert.equal(await isRealFolderBelow(root, join(root, 'missing')), false);
    assert.equal(await isRealFolderBelow(root, outside), false);
  });

  it('removeGitEntry: unlinks a gitfile or a linked .git, removes a .git folder without following links in it', async () => {
    await writeFile(join(outside, 'keep.txt'), 'keep');
    await mkdir(join(root, 'folder', '.git', 'objects'), { recursive: true });
    await symlink(outside, join(root, 'folder', '.git', 'objects', 'escape'));
    await mkdir(join(root, 'file'));
    await writeFile(join(root, 'file', '.git'), `gitdir: ${outside}\n`);
    await mkdir(join(root, 'linked'));
    await symlink(outside, join(root, 'linked', '.git'));
    await symlink(outside, join(root, 'through'));
    await mkdir(join(outside, '.git'));

    assert.equal(await removeGitEntry(root, 'folder'), 'folder/.git');
    assert.equal(await removeGitEntry(root, 'file'), 'file/.git');
    assert.equal(await removeGitEntry(root, 'linked'), 'linked/.git');
    assert.equal(await removeGitEntry(root, 'through'), null, 'a folder reached through a link is left alone');
    assert.equal(await removeGitEntry(root, 'none'), null);
    for (const gone of ['folder/.git', 'file/.git', 'linked/.git'])
      assert.equal(await lstat(join(root, gone)).catch(() => null), null, gone);
    assert.equal(await readFile(join(outside, 'keep.txt'), 'utf8'), 'keep');
    assert.ok((await lstat(join(outside, '.git'))).isDirectory());
  });
});
