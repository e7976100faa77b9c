import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createProcessSandbox,
  openProjectView,
  projectViewLayer,
  removeProjectViewLayer,
  type ProjectView,
} from '../../../src/core/osSandbox';
import { ignoredEntries } from '../../../src/core/tdd/git';
import { runProcess } from '../../../src/core/process/runProcess';
import { createWorktree, requireBubblewrap, type WorktreeFixture } from './fixture';

/** Every file, folder and link under `dir` with its content's hash: what "byte-identical" is checked against. */
function treeState(dir: string, skip = new Set(['.git'])): string[] {
  const out: string[] = [];
  const walk = (at: string, rel: string) => {
    for (const name of readdirSync(at).sort()) {
      if (!rel && skip.has(name)) continue;
      const path = join(at, name);
      const key = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) out.push(`${key} -> ${readlinkSync(path)}`);
      else if (stat.isDirectory()) {
        out.push(`${key}/ ${stat.mode.toString(8)}`);
        walk(path, key);
      } else out.push(`${key} ${stat.mode.toString(8)} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    }
  };
  walk(dir, '');
  return out;
}

/**
 * The project view (real git, real bubblewrap, real overlayfs in a user namespace): what git ignores in the person's
 * checkout is seen in the session's worktree at the same paths, writes to it land in the session's own layer, and the
 * person's files, the host's view of the worktree and git never change.
 */
describe('OS sandbox (real bubblewrap): the person’s project as they have it, copy-on-write', function () {
  this.timeout(60_000);
  let fx: WorktreeFixture;
  let view: ProjectView | undefined;

  before(async function () {
    await requireBubblewrap(this);
    fx = createWorktree();
    const { repo } = fx;
    writeFileSync(join(repo, '.gitignore'), 'node_modules/\n.venv/\n_version.py\n.env\nbuild/\n__pycache__/\n');
    mkdirSync(join(repo, 'node_modules/dep'), { recursive: true });
    writeFileSync(join(repo, 'node_modules/dep/index.js'), 'module.exports = "the person’s dep";\n');
    mkdirSync(join(repo, 'node_modules/.bin'), { recursive: true });
    symlinkSync('../dep/index.js', join(repo, 'node_modules/.bin/dep'));
    mkdirSync(join(repo, 'packages/app/node_modules/own'), { recursive: true });
    writeFileSync(join(repo, 'packages/app/node_modules/own/index.js'), 'module.exports = "the package’s own dep";\n');
    writeFileSync(join(repo, 'packages/app/index.js'), '');
    mkdirSync(join(repo, 'src/pkg/__pycache__'), { recursive: true });
    writeFileSync(join(repo, 'src/pkg/__init__.py'), 'from ._version import version\n');
    writeFileSync(join(repo, 'src/pkg/_version.py'), "version = '1.2.3'\n");
    writeFileSync(join(repo, 'src/pkg/__pycache__/stale.pyc'), 'stale');
    writeFileSync(join(repo, '.env'), 'OPENAI_API_KEY=sk-person-secret\n');
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repo,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
    git('add', '.');
    git('commit', '-q', '-m', 'project');
    execFileSync('git', ['checkout', '-q', '-B', 'tdd/session', 'main'], { cwd: fx.worktree });
  });
  after(() => {
    view?.close();
    if (fx) removeProjectViewLayer(fx.worktree);
    fx?.cleanup();
  });

  it('lists what git ignores, a folder once', async () => {
    const entries = await ignoredEntries(fx.repo);
    assert.deepEqual(
      entries.sort(),
      ['.env', 'node_modules/', 'packages/app/node_modules/', 'src/pkg/__pycache__/', 'src/pkg/_version.py'].sort(),
    );
  });

  it('shows them in the worktree; writes go to the session’s layer; secrets and caches stay out; the person’s files never change', async () => {
    const before = treeState(fx.repo);
    view = await openProjectView({ checkout: fx.repo, worktree: fx.worktree, entries: await ignoredEntries(fx.repo) });
    assert.ok(view && view.pid > 0, 'the view opened');
    assert.deepEqual(
      [...view.mounted].sort(),
      ['node_modules', 'packages/app/node_modules', 'src/pkg/_version.py'].map((p) => join(fx.worktree, p)).sort(),
    );
    assert.deepEqual(
      view.skipped.map((s) => s.path).sort(),
      ['.env', 'src/pkg/__pycache__'],
      'the secret and the cache are not shown',
    );
    const sandbox = await createProcessSandbox('auto', { ...fx.policy, view });
    const run = (command: string) =>
      runProcess({ cwd: fx.worktree, command, shell: true, sandbox, env: { ...process.env, HOME: fx.home } });

    const first = await run(
      [
        'cat node_modules/dep/index.js packages/app/node_modules/own/index.js src/pkg/_version.py',
        'readlink node_modules/.bin/dep',
        'test -e .env && echo "SAW .env" || echo "no .env"',
        'echo changed > node_modules/dep/index.js && echo cache > node_modules/dep/tsconfig.tmp.tsbuildinfo',
        'echo "version = \'9\'" > src/pkg/_version.py',
        'id -u',
        'ls -A /run | wc -l',
      ].join(' && '),
    );
    assert.equal(first.exitCode, 0, first.output);
    assert.match(first.output, /the person’s dep/);
    assert.match(first.output, /the package’s own dep/);
    assert.match(first.output, /version = '1\.2\.3'/);
    assert.match(first.output, /\.\.\/dep\/index\.js/);
    assert.match(first.output, /no \.env/);
    assert.match(first.output, new RegExp(`^${process.getuid!()}$`, 'm'), 'the run has the person’s own user id');
    assert.match(first.output, /^0$/m, '/run is still the empty one');

    const second = await run('cat node_modules/dep/index.js node_modules/dep/tsconfig.tmp.tsbuildinfo src/pkg/_version.py');
    assert.equal(second.output, "changed\ncache\nversion = '9'\n", 'the session sees its own writes at the next run');

    assert.deepEqual(treeState(fx.repo), before, 'the person’s checkout, ignored files included, is byte-identical');
    assert.deepEqual(
      readdirSync(join(fx.worktree, 'node_modules')),
      [],
      'on the host, the worktree has only the empty mount point',
    );
    assert.equal(readFileSync(join(fx.worktree, 'src/pkg/_version.py'), 'utf8'), '', 'and an empty file for the ignored file');
    assert.equal(
      execFileSync('git', ['status', '--porcelain'], { cwd: fx.worktree, encoding: 'utf8' }),
      '',
      'git sees nothing new',
    );
    assert.ok(existsSync(join(projectViewLayer(fx.worktree), 'upper')), 'the writes are in the session’s layer');
  });

  it('a mount point replaced by a link on the way is not followed; closing the view ends its mounts', async () => {
    view?.close();
    const other = join(fx.root, 'elsewhere');
    mkdirSync(other);
    const wt2 = join(fx.root, 'worktree2');
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'tdd/second', wt2], { cwd: fx.repo });
    symlinkSync(other, join(wt2, 'packages-link'));
    mkdirSync(join(fx.repo, 'packages-link/node_modules/x'), { recursive: true });
    const second = await openProjectView({
      checkout: fx.repo,
      worktree: wt2,
      entries: ['packages-link/node_modules/', 'node_modules/'],
    });
    try {
      assert.deepEqual(
        second?.skipped.map((s) => s.why),
        ['a link on the way'],
      );
      assert.deepEqual(readdirSync(other), [], 'nothing was made through the link');
    } finally {
      second?.close();
      removeProjectViewLayer(wt2);
    }
  });
});
