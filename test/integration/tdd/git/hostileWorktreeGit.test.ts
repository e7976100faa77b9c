import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { link, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isAgentError } from '../../../../src/core/errors/agentError';
import { readRepository, removeSessionWorktree, SessionWorktree, type PersonRepository } from '../../../../src/core/tdd/git';
import { MAX_COMMIT_DIFF_CHARS } from '../../../../src/core/tdd/git/sessionWorktree';
import { git, gitOrEmpty, personRepoState } from '../../../support/personRepo';

// Every byte of a session's worktree is written by generated code. The supervisor's own git calls there must
// never run, follow or trust any of it: nested repositories (and their config), .gitattributes selecting the
// repository's drivers, symlinks, hard links and FIFOs. Real git repositories in temp folders throughout.

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

async function put(root: string, path: string, content: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

/** A shell command for a git config value that leaves `markers/<name>` behind if git ever runs it. */
const leaves = (markers: string, name: string): string => `touch '${join(markers, name)}'; false`;

/** A nested repository with one commit, made as generated code could (its own `git init` and `git commit`). */
function nestedRepository(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'f.txt'), 'nested\n');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=N', '-c', 'user.email=n@example.invalid', 'commit', '-q', '-m', 'nested');
}

describe('session git in a worktree written by generated code (real git)', function () {
  this.timeout(60_000);
  let dir: string;
  let markers: string;
  let worktrees: string;
  let outside: string;
  let repo: PersonRepository;

  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'tdd-hostile-person-')));
    markers = await realpath(await mkdtemp(join(tmpdir(), 'tdd-hostile-markers-')));
    worktrees = await realpath(await mkdtemp(join(tmpdir(), 'tdd-hostile-worktrees-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'tdd-hostile-outside-')));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.name', 'Person');
    git(dir, 'config', 'user.email', 'person@example.invalid');
    await put(dir, '.gitignore', 'node_modules/\n');
    await put(dir, 'src/a.js', 'export const a = 1;\n');
    await put(dir, 'tools/run.js', 'run();\n');
    await put(dir, 'README.md', '# Mine\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'base');
    repo = await readRepository(dir);
  });
  afterEach(async () => {
    for (const d of [dir, markers, worktrees, outside]) await rm(d, { recursive: true, force: true });
  });

  const create = async (env?: NodeJS.ProcessEnv): Promise<SessionWorktree> =>
    (await SessionWorktree.create(repo, { slug: 'fizzbuzz', worktreesRoot: worktrees, env })).worktree;
  const ranNothing = async (): Promise<void> => assert.deepEqual(await readdir(markers), [], 'no program of the payload ran');

  describe('nested repositories', () => {
    it('removes every nested .git that git would stage as a gitlink, commits their files as plain files, and never runs their core.fsmonitor', async () => {
      const elsewhere = join(outside, 'elsewhere');
      nestedRepository(elsewhere);
      git(elsewhere, 'config', 'core.fsmonitor', leaves(markers, 'fsmonitor-elsewhere'));
      const worktree = await create();
      const before = await personRepoState(dir);
      const wt = worktree.dir;
      // Untracked, inside a tracked folder, deep inside an untracked folder, a gitfile pointing outside, one without commits.
      for (const nested of ['vendor', 'src/lib', 'new/a/b/repo']) {
        nestedRepository(join(wt, nested));
        git(join(wt, nested), 'config', 'core.fsmonitor', leaves(markers, `fsmonitor-${nested.replace(/\//g, '_')}`));
      }
      await put(wt, 'linked/.git', `gitdir: ${join(elsewhere, '.git')}\n`);
      await put(wt, 'linked/code.js', 'linked\n');
      git(wt, 'init', '-q', join(wt, 'empty'));
      await put(wt, 'empty/e.txt', 'e\n');
      // An ignored folder is not walked, and nothing in it is staged.
      nestedRepository(join(wt, 'node_modules', 'pkg'));

      const sha = await worktree.commitAll('feat: with nested repositories');
      assert.ok(sha);
      assert.deepEqual([...worktree.lastRemovedNestedRepositories].sort(), [
        'empty/.git',
        'linked/.git',
        'new/a/b/repo/.git',
        'src/lib/.git',
        'vendor/.git',
      ]);
      const tree = git(dir, 'ls-tree', '-r', sha!);
      assert.doesNotMatch(tree, /^160000/m, 'no gitlink was committed');
      for (const file of ['vendor/f.txt', 'src/lib/f.txt', 'new/a/b/repo/f.txt', 'linked/code.js', 'empty/e.txt'])
        assert.match(tree, new RegExp(`^100644 blob \\w+\\t${file}$`, 'm'), `${file} is committed as a plain file`);
      assert.doesNotMatch(tree, /node_modules/);
      assert.equal(await exists(join(wt, 'node_modules', 'pkg', '.git')), true, 'ignored folders are left alone');
      assert.equal(await exists(join(elsewhere, '.git', 'HEAD')), true, 'a gitfile is removed, not what it points to');

      // Generated code makes the payload again, and more session calls run over it, several times.
      for (let round = 0; round < 3; round++) {
        const again = `again${round}`;
        nestedRepository(join(wt, again));
        git(join(wt, again), 'config', 'core.fsmonitor', leaves(markers, `fsmonitor-${again}`));
        await put(wt, 'src/a.js', `round ${round}\n`);
        assert.ok((await worktree.changedFiles()).some((f) => f.path.startsWith(again)));
        assert.equal(await worktree.isDirty(), true);
        await worktree.headContent('vendor/f.txt');
        await worktree.recentCommits(3);
        await worktree.commitCount();
        if (round === 0) await worktree.revertPaths([again, 'src/a.js']);
        else if (round === 1) {
          assert.ok(await worktree.commitAll(`feat: round ${round}`));
          assert.deepEqual(worktree.lastRemovedNestedRepositories, [`${again}/.git`]);
        } else await worktree.rollbackToHead();
        if (round !== 1) assert.equal(await exists(join(wt, again)), false, 'a restore removes the nested repository');
        assert.equal(await worktree.isDirty(), false);
      }
      assert.deepEqual(await worktree.removeNestedRepositories(), []);
      await ranNothing();
      assert.doesNotMatch(git(dir, 'ls-tree', '-r', worktree.info.sessionBranch), /^160000/m);

      // Even a gitlink staged behind the session's back makes its calls run nothing of the nested repository ...
      const control = join(wt, 'control');
      nestedRepository(control);
      git(control, 'config', 'core.fsmonitor', leaves(markers, 'fsmonitor-control'));
      git(wt, '-c', 'core.fsmonitor=false', 'add', 'control');
      await worktree.changedFiles();
      await worktree.recentCommits(1);
      await worktree.revertPaths(['control']);
      assert.equal(await exists(control), false);
      await ranNothing();
      // ... while the payload is live: once it is a gitlink, a plain `git status` in the worktree runs it.
      nestedRepository(control);
      git(control, 'config', 'core.fsmonitor', leaves(markers, 'fsmonitor-control'));
      git(wt, '-c', 'core.fsmonitor=false', 'add', 'control');
      git(wt, 'status', '--porcelain');
      assert.deepEqual(await readdir(markers), ['fsmonitor-control'], 'plain git status ran the nested core.fsmonitor');
      assert.deepEqual(await personRepoState(dir), before);
    });

    it('a tracked gitlink populated by generated code keeps the commit HEAD records, and its repository is removed', async () => {
      const pinned = git(dir, 'rev-parse', 'HEAD');
      git(dir, 'update-index', '--add', '--cacheinfo', `160000,${pinned},libs/dep`);
      git(dir, 'commit', '-q', '-m', 'a submodule pointer');
      repo = await readRepository(dir);
      const worktree = await create();
      const before = await personRepoState(dir);
      nestedRepository(join(worktree.dir, 'libs', 'dep'));
      git(join(worktree.dir, 'libs', 'dep'), 'config', 'core.fsmonitor', leaves(markers, 'fsmonitor-dep'));
      await put(worktree.dir, 'src/b.js', 'b\n');

      const sha = await worktree.commitAll('feat: b');
      assert.ok(sha);
      assert.deepEqual(worktree.lastRemovedNestedRepositories, ['libs/dep/.git']);
      assert.equal(git(dir, 'rev-parse', `${sha}:libs/dep`), pinned, 'the gitlink still records the person’s commit');
      await worktree.changedFiles();
      await worktree.rollbackToHead();
      await ranNothing();
      assert.deepEqual(await personRepoState(dir), before);
    });

    it('removes a nested .git without following links: a symlinked .git, and symlinks inside a nested .git folder', async () => {
      const worktree = await create();
      await mkdir(join(outside, 'target', '.git'), { recursive: true });
      await writeFile(join(outside, 'keep.txt'), 'keep');
      nestedRepository(join(worktree.dir, 'vendor'));
      await symlink(outside, join(worktree.dir, 'vendor', '.git', 'escape'));
      await symlink(join(outside, 'keep.txt'), join(worktree.dir, 'vendor', '.git', 'keep-link'));
      const removed = await worktree.removeNestedRepositories();
      assert.deepEqual(removed, ['vendor/.git']);
      assert.equal(await exists(join(worktree.dir, 'vendor', '.git')), false);
      assert.equal(await readFile(join(outside, 'keep.txt'), 'utf8'), 'keep');
      assert.equal(await exists(join(outside, 'target', '.git')), true);
    });
  });

  describe('configuration the worktree can reach', () => {
    it('filter, diff and merge drivers that .gitattributes selects from the repository config never run', async () => {
      git(dir, 'config', 'filter.x.clean', leaves(markers, 'clean'));
      git(dir, 'config', 'filter.x.smudge', leaves(markers, 'smudge'));
      git(dir, 'config', 'filter.x.required', 'true');
      git(dir, 'config', 'filter.Proc.process', leaves(markers, 'process'));
      git(dir, 'config', 'filter.Proc.required', 'true');
      git(dir, 'config', 'diff.d.textconv', leaves(markers, 'textconv'));
      git(dir, 'config', 'diff.d.command', leaves(markers, 'diff-command'));
      git(dir, 'config', 'merge.m.driver', leaves(markers, 'merge-driver'));
      const worktree = await create();
      const before = await personRepoState(dir);
      await put(worktree.dir, '.gitattributes', '*.js filter=x diff=d merge=m\n*.txt filter=Proc diff=d\n');
      await put(worktree.dir, 'src/a.js', 'changed\n');
      await put(worktree.dir, 'notes.txt', 'new\n');

      const sha = await worktree.commitAll('feat: attributes');
      assert.ok(sha);
      // The diff a Reviewer phase reads of a commit: the committed text itself, through no diff driver or textconv.
      const diff = await worktree.commitDiff(sha);
      assert.match(diff, /^\+changed$/m);
      assert.match(diff, /^\+new$/m);
      // Its size is not trusted: a commit of a 300 KB file gives a diff cut at the limit, with a marker.
      await put(worktree.dir, 'big.txt', `${'x'.repeat(99)}\n`.repeat(3000));
      const big = await worktree.commitDiff((await worktree.commitAll('feat: a big file'))!);
      assert.ok(big.length < MAX_COMMIT_DIFF_CHARS + 100, `a diff of ${big.length} characters`);
      assert.match(big, /more characters of the diff cut\]$/);
      await put(worktree.dir, 'src/a.js', 'changed again\n');
      await put(worktree.dir, 'notes.txt', 'changed too\n');
      await worktree.changedFiles();
      await worktree.revertPaths(['src/a.js']);
      await worktree.rollbackToHead();
      await worktree.headContent('src/a.js');
      assert.equal(await readFile(join(worktree.dir, 'src', 'a.js'), 'utf8'), 'changed\n');
      await ranNothing();

      // The payload is live: plain git showing that commit runs a driver the attributes select, and git add the clean filter.
      gitOrEmpty(worktree.dir, 'show', sha);
      assert.notDeepEqual(await readdir(markers), [], 'plain git show ran a driver the attributes select');
      await put(worktree.dir, 'src/a.js', 'once more\n');
      gitOrEmpty(worktree.dir, 'add', 'src/a.js');
      assert.ok((await readdir(markers)).includes('clean'), 'plain git add ran the clean filter');
      assert.deepEqual(await personRepoState(dir), before);
    });

    it('a .gitmodules written by generated code (an update command, a nested repository at its path) runs nothing and stages no gitlink', async () => {
      const worktree = await create();
      const before = await personRepoState(dir);
      nestedRepository(join(worktree.dir, 'libs', 'x'));
      git(join(worktree.dir, 'libs', 'x'), 'config', 'core.fsmonitor', leaves(markers, 'fsmonitor-x'));
      await put(
        worktree.dir,
        '.gitmodules',
        `[submodule "x"]\n\tpath = libs/x\n\turl = ./libs/x\n\tupdate = !${leaves(markers, 'update')}\n\tfetchRecurseSubmodules = true\n`,
      );
      const sha = await worktree.commitAll('feat: a submodule, as generated code would declare it');
      await put(worktree.dir, 'libs/x/f.txt', 'changed\n');
      await worktree.changedFiles();
      await worktree.revertPaths(['libs/x/f.txt']);
      await worktree.rollbackToHead();
      await ranNothing();
      assert.doesNotMatch(git(dir, 'ls-tree', '-r', sha!), /^160000/m, 'no gitlink');
      assert.deepEqual(await personRepoState(dir), before);
    });

    it('reads no global or system config (fsmonitor, hooks, drivers, attributes there), but commits as the person’s global identity', async () => {
      const home = join(outside, 'home');
      await put(home, '.gitconfig', '[user]\n\tname = Global Person\n\temail = global@example.invalid\n');
      git(dir, 'config', '--unset', 'user.name');
      git(dir, 'config', '--unset', 'user.email');
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
      for (const name of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL']) delete env[name];
      // extensions.worktreeConfig: the session worktree's own config.worktree (outside what the sandbox can write) cannot turn fsmonitor on either.
      git(dir, 'config', 'extensions.worktreeConfig', 'true');
      repo = await readRepository(dir, env);
      const worktree = await create(env);
      // The person's global config (read for their identity when the session started) now names programs.
      await writeFile(
        join(home, '.gitconfig'),
        [
          '[user]',
          '\tname = Global Person',
          '\temail = global@example.invalid',
          '[core]',
          `\tfsmonitor = ${leaves(markers, 'global-fsmonitor')}`,
          `\tattributesFile = ${join(home, 'attributes')}`,
          '[filter "g"]',
          `\tclean = ${leaves(markers, 'global-clean')}`,
          `\tsmudge = ${leaves(markers, 'global-smudge')}`,
          '',
        ].join('\n'),
      );
      await put(home, 'attributes', '* filter=g\n');
      await writeFile(
        join(worktree.info.worktreeGitDir, 'config.worktree'),
        `[core]\n\tfsmonitor = ${leaves(markers, 'worktree-fsmonitor')}\n`,
      );
      const before = await personRepoState(dir);

      await put(worktree.dir, 'src/a.js', 'changed\n');
      const sha = await worktree.commitAll('feat: a');
      await put(worktree.dir, 'src/a.js', 'again\n');
      await worktree.changedFiles();
      await worktree.rollbackToHead();
      await ranNothing();
      assert.equal(
        git(dir, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', sha!),
        'Global Person <global@example.invalid>|Global Person <global@example.invalid>',
      );
      assert.deepEqual(await personRepoState(dir), before);
    });
  });

  describe('placement and concurrency', () => {
    it('sessions started in the same second on one repository all get their own branch and worktree', async () => {
      const now = new Date('2026-11-23T10:00:00Z');
      const before = await personRepoState(dir);
      const created = await Promise.all(
        [1, 2, 3, 4].map(() => SessionWorktree.create(repo, { slug: 'fizzbuzz', worktreesRoot: worktrees, now })),
      );
      const branches = created.map((c) => c.worktree.info.sessionBranch).sort();
      assert.deepEqual(branches, [
        'tdd/fizzbuzz-20261123-100000',
        'tdd/fizzbuzz-20261123-100000-2',
        'tdd/fizzbuzz-20261123-100000-3',
        'tdd/fizzbuzz-20261123-100000-4',
      ]);
      assert.equal(new Set(created.map((c) => c.worktree.dir)).size, 4);
      const listing = git(dir, 'worktree', 'list', '--porcelain');
      for (const c of created) {
        assert.ok(listing.includes(`worktree ${c.worktree.dir}\n`), c.worktree.dir);
        await put(c.worktree.dir, 'mine.txt', c.worktree.info.sessionBranch);
        assert.ok(await c.worktree.commitAll('feat: mine'));
      }
      assert.deepEqual(await personRepoState(dir), before);
    });

    for (const where of ['the working tree', '.git'] as const) {
      it(`refuses a worktrees folder inside the person’s ${where} (TDD_AGENT_CACHE_DIR or worktreesRoot), creating nothing`, async () => {
        const before = await personRepoState(dir);
        const branchesBefore = git(dir, 'branch', '--list');
        const inside = where === '.git' ? join(dir, '.git', 'cache') : join(dir, 'cache');
        const refusal = (e: unknown): boolean =>
          isAgentError(e) &&
          e.error_code === 'CONFIG' &&
          /TDD_AGENT_CACHE_DIR/.test(e.message) &&
          /Nothing was created/.test(e.message);
        await assert.rejects(
          SessionWorktree.create(repo, { slug: 'k', env: { ...process.env, TDD_AGENT_CACHE_DIR: inside } }),
          refusal,
        );
        await assert.rejects(SessionWorktree.create(repo, { slug: 'k', worktreesRoot: join(inside, 'worktrees') }), refusal);
        assert.equal(await exists(inside), false);
        assert.equal(git(dir, 'branch', '--list'), branchesBefore);
        assert.equal(git(dir, 'worktree', 'list', '--porcelain').split('\n\n').filter(Boolean).length, 1);
        assert.deepEqual(await personRepoState(dir), before);
      });
    }

    it('refuses to commit while the session branch is also checked out in the person’s checkout, staging nothing', async () => {
      const worktree = await create();
      await put(worktree.dir, 'src/b.js', 'b\n');
      const tip = git(dir, 'rev-parse', worktree.info.sessionBranch);
      git(dir, 'checkout', '-q', '--ignore-other-worktrees', worktree.info.sessionBranch);
      const before = await personRepoState(dir);
      await assert.rejects(
        worktree.commitAll('feat: b'),
        (e: unknown) =>
          isAgentError(e) &&
          e.error_code === 'GIT_FAILED' &&
          e.message.includes(`${worktree.info.sessionBranch} is also checked out in ${dir}`),
      );
      assert.equal(git(dir, 'rev-parse', worktree.info.sessionBranch), tip, 'the branch did not move');
      assert.equal(git(worktree.dir, 'diff', '--cached', '--name-only'), '', 'nothing was staged');
      assert.deepEqual(await personRepoState(dir), before);
      git(dir, 'checkout', '-q', 'main');
      assert.ok(await worktree.commitAll('feat: b'), 'once the person is back on their branch, the commit goes through');
    });

    it('never removes a worktree the person locked, and says why', async () => {
      const worktree = await create();
      await put(worktree.dir, 'half-done.js', 'x');
      git(dir, 'worktree', 'lock', '--reason', 'I am looking at it', worktree.dir);
      const reasons: string[] = [];
      assert.equal(await removeSessionWorktree(worktree.info, undefined, { onKept: (reason) => reasons.push(reason) }), false);
      assert.equal(await readFile(join(worktree.dir, 'half-done.js'), 'utf8'), 'x');
      assert.match(git(dir, 'worktree', 'list', '--porcelain'), /^locked I am looking at it$/m);
      assert.equal(reasons.length, 1);
      assert.match(reasons[0]!, /locked.*I am looking at it/);
      git(dir, 'worktree', 'unlock', worktree.dir);
      assert.equal(await removeSessionWorktree(worktree.info), true);
      assert.equal(await exists(worktree.dir), false);
    });
  });

  describe('restores through git touch nothing outside the worktree', () => {
    let worktree: SessionWorktree;
    let wt: string;
    const outsideBytes = async (): Promise<Record<string, string>> => {
      const files: Record<string, string> = {};
      for (const entry of await readdir(outside, { recursive: true, withFileTypes: true })) {
        const full = join(entry.parentPath, entry.name);
        files[full.slice(outside.length + 1)] = entry.isFile()
          ? (await readFile(full)).toString('base64')
          : entry.isDirectory()
            ? 'dir'
            : 'other';
      }
      return files;
    };
    beforeEach(async () => {
      worktree = await create();
      wt = worktree.dir;
      await put(outside, 'tools/run.js', 'the outside run.js\n');
      await mkdir(join(outside, 'tools', 'sub'));
      await put(outside, 'secret.txt', 'outside secret\n');
    });

    const scenarios: Array<[string, () => Promise<void>]> = [
      [
        'a tracked folder replaced by a symlink to a folder outside',
        async () => {
          await rm(join(wt, 'tools'), { recursive: true });
          await symlink(join(outside, 'tools'), join(wt, 'tools'));
        },
      ],
      [
        'a tracked file replaced by a symlink to the person’s .git/config',
        async () => {
          await rm(join(wt, 'src', 'a.js'));
          await symlink(join(repo.commonDir, 'config'), join(wt, 'src', 'a.js'));
        },
      ],
      [
        'a tracked file replaced by a hard link to a file outside',
        async () => {
          await rm(join(wt, 'src', 'a.js'));
          await link(join(outside, 'secret.txt'), join(wt, 'src', 'a.js'));
        },
      ],
      [
        'a tracked file replaced by a FIFO',
        async () => {
          await rm(join(wt, 'src', 'a.js'));
          execFileSync('mkfifo', [join(wt, 'src', 'a.js')]);
        },
      ],
    ];
    for (const [what, plant] of scenarios) {
      for (const restore of ['rollbackToHead', 'revertPaths'] as const) {
        it(`${restore}: ${what}`, async () => {
          const configBefore = await readFile(join(repo.commonDir, 'config'));
          const personBefore = await personRepoState(dir);
          const outsideBefore = await outsideBytes();
          await plant();
          if (restore === 'rollbackToHead') await worktree.rollbackToHead();
          else await worktree.revertPaths(['tools/run.js', 'tools/sub/new.js', 'src/a.js']);
          assert.equal(await readFile(join(wt, 'src', 'a.js'), 'utf8'), 'export const a = 1;\n');
          assert.equal(await readFile(join(wt, 'tools', 'run.js'), 'utf8'), 'run();\n');
          assert.equal((await lstat(join(wt, 'tools'))).isDirectory(), true);
          assert.deepEqual(await outsideBytes(), outsideBefore, 'every byte and folder outside is as it was');
          assert.deepEqual(await readFile(join(repo.commonDir, 'config')), configBefore);
          assert.deepEqual(await personRepoState(dir), personBefore);
          assert.equal(await worktree.isDirty(), false);
        });
      }
    }

    it('commitAll refuses a FIFO where a tracked file was with a GIT_FAILED error, staging nothing, and a rollback puts the file back', async () => {
      await rm(join(wt, 'src', 'a.js'));
      execFileSync('mkfifo', [join(wt, 'src', 'a.js')]);
      await put(wt, 'src/b.js', 'b\n');
      const head = await worktree.headSha();
      await assert.rejects(
        worktree.commitAll('feat: b'),
        (e: unknown) => isAgentError(e) && e.error_code === 'GIT_FAILED' && /can only add regular files/.test(e.message),
      );
      assert.equal(await worktree.headSha(), head);
      assert.equal(git(wt, 'diff', '--cached', '--name-only'), '');
      await worktree.rollbackToHead();
      assert.equal(await readFile(join(wt, 'src', 'a.js'), 'utf8'), 'export const a = 1;\n');
    });

    it('revertPaths under a symlinked folder that git leaves in place removes no folder outside (empty-folder pruning stops at links)', async () => {
      await put(wt, 'gen/keep.js', 'k\n');
      await worktree.commitAll('feat: gen');
      await symlink(join(outside, 'tools'), join(wt, 'linked'));
      const outsideBefore = await outsideBytes();
      await worktree.revertPaths(['linked/sub/new.js']);
      assert.deepEqual(await outsideBytes(), outsideBefore);
      assert.equal(await exists(join(outside, 'tools', 'sub')), true);
    });
  });
});
