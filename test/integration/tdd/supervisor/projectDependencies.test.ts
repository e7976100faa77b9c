import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAgentError } from '../../../../src/core/errors/agentError';
import {
  bubblewrapArgs,
  createProcessSandbox,
  modulesEntries,
  withPolicyEnvironment,
  worktreePolicy,
  type ProcessSandbox,
  type SandboxMode,
} from '../../../../src/core/osSandbox';
import { runProcess } from '../../../../src/core/process/runProcess';
import { readRepository, removeSessionWorktree, SessionWorktree } from '../../../../src/core/tdd/git';
import { installDependencies, sessionManifests } from '../../../../src/core/tdd/dependencies/installDependencies';
import {
  checkProjectDependencies,
  prepareProjectDependencies,
  previewProjectDependencies,
  type ProjectDependencies,
} from '../../../../src/core/tdd/dependencies/projectDependencies';
import { detectTestRunner } from '../../../../src/core/testRunners';
import {
  fixturePnpm,
  fixtureRepository,
  installFixture,
  PROJECT_FIXTURES,
  treeDigest,
  type ProjectFixture,
} from '../../../support/projectFixtures';
import { requireBubblewrap } from '../../osSandbox/fixture';

const APPROVE_MEDIUM = { autoApproveUpTo: 'MEDIUM' as const };
const KATA = { language: 'javascript' as const, slug: 'library', title: 'Library', sourceDir: 'src', testDir: 'test' };

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** A session on the person's repository as the supervisor makes one: its worktree, its dependencies, its sandbox. */
interface FixtureSession {
  worktree: SessionWorktree;
  dependencies: ProjectDependencies;
  sandbox: ProcessSandbox;
  /** Runs a command line in the worktree inside the session's sandbox, with the fixture's pnpm on PATH. */
  run(command: string, env?: NodeJS.ProcessEnv): Promise<{ exitCode: number | null; output: string }>;
  /** installDependencies as the supervisor calls it, with MEDIUM approved. */
  install(): Promise<boolean>;
}

// Real projects (test/fixtures/projects) in real git repositories, installed the way their READMEs say, each
// session's tests run by the project's own command in bubblewrap. The person's installs are bound read-only.
describe('Project dependencies: sessions on real projects use the person’s installs (real git, bubblewrap, pnpm, npm, pip)', function () {
  this.timeout(300_000); // first run on a machine installs each fixture once (then cached in os.tmpdir())
  const temps: string[] = [];
  let pnpm: { root: string; bin: string };

  before(async function () {
    await requireBubblewrap(this);
    pnpm = await fixturePnpm();
  });
  after(async () => {
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  async function temp(prefix: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    temps.push(dir);
    return dir;
  }

  async function person(fixture: ProjectFixture, install: boolean): Promise<string> {
    const repo = await fixtureRepository(fixture, await temp(`tdd-person-${fixture}-`));
    if (install) await installFixture(repo, fixture);
    return repo;
  }

  async function session(repo: string, mode: SandboxMode = 'auto'): Promise<FixtureSession> {
    const { worktree } = await SessionWorktree.create(await readRepository(repo), {
      slug: 'library',
      worktreesRoot: await temp('tdd-worktrees-'),
    });
    const dependencies = await prepareProjectDependencies(worktree.info, { sandbox: mode });
    const policy = worktreePolicy(worktree.dir, worktree.info.commonDir, undefined, dependencies.sandbox);
    policy.readableRoots!.push(pnpm.root); // the person's pnpm (here: the fixture's, in os.tmpdir())
    const sandbox = await createProcessSandbox(mode, policy);
    return {
      worktree,
      dependencies,
      sandbox,
      run: (command, env = {}) =>
        runProcess({
          cwd: worktree.dir,
          command,
          shell: true,
          env: { ...process.env, PATH: `${pnpm.bin}:${process.env.PATH ?? ''}`, CI: 'true', NO_COLOR: '1', ...env },
          sandbox,
          timeoutMs: 120_000,
        }),
      install: async () =>
        installDependencies(worktree.dir, {
          manifests: await sessionManifests(worktree.info, { resumed: false, kata: KATA }),
          dependencies,
          policy: APPROVE_MEDIUM,
          sandbox: mode,
        }),
    };
  }

  /** Nothing an install makes reaches the branch: no node_modules or .venv, the lockfile as the person committed it. */
  async function assertNothingCommitted(s: FixtureSession, repo: string, lockfile?: string): Promise<void> {
    assert.equal(await s.worktree.commitAll('chore: whatever the runs left'), null, 'the runs left nothing to commit');
    const files = git(repo, 'ls-tree', '-r', '--name-only', s.worktree.info.sessionBranch).split('\n');
    assert.ok(!files.some((f) => f.startsWith('node_modules/') || f.startsWith('.venv/')), files.join(', '));
    if (lockfile)
      assert.equal(
        git(repo, 'rev-parse', `${s.worktree.info.sessionBranch}:${lockfile}`),
        git(repo, 'rev-parse', `HEAD:${lockfile}`),
        'the lockfile is unchanged',
      );
  }

  for (const fixture of ['ts-vitest-pnpm', 'js-jest'] as const) {
    const spec = PROJECT_FIXTURES[fixture];

    describe(`${fixture} (${spec.manager})`, () => {
      let repo: string;
      let personModules: string;
      before(async () => {
        repo = await person(fixture, true);
        personModules = await treeDigest(join(repo, 'node_modules'));
      });

      it(`runs '${spec.test}' in the sandbox: the whole suite passes on the person’s node_modules, which is never written`, async () => {
        const s = await session(repo);
        assert.deepEqual(s.dependencies.missing, []);
        assert.equal(s.dependencies.node?.source, 'person');
        assert.equal(s.dependencies.node?.packageManager, spec.manager);
        assert.equal(await s.install(), false, 'nothing is installed: the person’s packages are used');

        const own = await s.run(spec.test);
        assert.equal(own.exitCode, 0, own.output);
        assert.match(own.output, new RegExp(`Tests:?\\s+${spec.tests} passed`));

        // The supervisor's own runner (package.json's test script, as detectTestRunner finds it).
        const result = await (await detectTestRunner(s.worktree.dir, { sandbox: s.sandbox })).run();
        assert.equal(result.status, 'passed', result.output);
        assert.equal(result.passed, spec.tests);

        // A test that writes into its packages fails inside, and the person's folder keeps every byte.
        const write = await s.run('echo x > node_modules/.bin/planted || echo refused');
        assert.match(write.output, /refused/);
        assert.equal(await treeDigest(join(repo, 'node_modules')), personModules, 'the person’s node_modules is unchanged');
        await assertNothingCommitted(s, repo, spec.lockfile);
        assert.ok(await removeSessionWorktree(s.worktree.info));
      });

      it('without the person’s install: installs the lockfile once, frozen, into the shared store; the next session reuses it', async () => {
        const bare = await person(fixture, false);
        const first = await session(bare);
        assert.equal(first.dependencies.node?.source, 'store');
        const store = first.dependencies.node!.path;
        assert.equal(await exists(store), false);
        const t0 = performance.now();
        assert.equal(await first.install(), true, 'installed into the store');
        const installMs = performance.now() - t0;
        assert.ok(await exists(join(store, '.bin')));
        const own = await first.run(spec.test);
        assert.equal(own.exitCode, 0, own.output);
        assert.match(own.output, new RegExp(`Tests:?\\s+${spec.tests} passed`));
        const stored = await treeDigest(store);

        const t1 = performance.now();
        const second = await session(bare);
        assert.equal(second.dependencies.node?.path, store, 'the same lockfile, the same store');
        assert.equal(await second.install(), false, 'reused: nothing installed');
        const reuseMs = performance.now() - t1;
        const again = await (await detectTestRunner(second.worktree.dir, { sandbox: second.sandbox })).run();
        assert.equal(again.passed, spec.tests, again.output);
        // A ratio for the record, not an assertion (timings: npm run bench:projects).
        process.stdout.write(`      second session's setup took ${(reuseMs / installMs).toFixed(3)} of the first's (install)\n`);

        assert.equal(await treeDigest(store), stored, 'the store is never written by a session');
        assert.equal(await exists(join(bare, 'node_modules')), false, 'nothing was installed in the person’s folder');
        await assertNothingCommitted(first, bare, spec.lockfile);
        await assertNothingCommitted(second, bare, spec.lockfile);
      });
    });
  }

  it('with the sandbox off, links the person’s packages into the worktree instead of mounting them, and the suite passes', async () => {
    const repo = await person('js-jest', true);
    const before = await treeDigest(join(repo, 'node_modules'));
    const s = await session(repo, 'off');
    assert.equal(s.dependencies.node?.how, 'linked');
    assert.equal(await s.install(), false);
    const result = await (await detectTestRunner(s.worktree.dir, { sandbox: s.sandbox })).run();
    assert.equal(result.passed, PROJECT_FIXTURES['js-jest'].tests, result.output);
    assert.equal(await treeDigest(join(repo, 'node_modules')), before);
    await assertNothingCommitted(s, repo, 'package-lock.json');
  });

  it('a frozen install that fails (package.json out of step with its lockfile) is a CONFIG error naming the install to run, and stores nothing', async () => {
    const bare = await person('js-jest', false);
    const pkg = JSON.parse(await readFile(join(bare, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    pkg.devDependencies['is-number'] = '7.0.0';
    await writeFile(join(bare, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    git(bare, 'commit', '-q', '-am', 'a dependency the lockfile does not have');
    const s = await session(bare);
    assert.equal(s.dependencies.node?.source, 'store');
    await assert.rejects(s.install(), (err: unknown) => {
      assert.ok(isAgentError(err) && err.error_code === 'CONFIG', String(err));
      assert.match(err.message, /'npm ci [^']*' failed \(exit code \d+\)/);
      assert.match(err.message, /Running 'npm install' in .* lets the session use your own install/);
      return true;
    });
    assert.equal(await exists(s.dependencies.node!.path), false, 'nothing is stored for that lockfile');
  });

  describe('py-src-pytest (pip, editable install)', () => {
    let repo: string;
    let personVenv: string;
    before(async () => {
      repo = await person('py-src-pytest', true);
      personVenv = await treeDigest(join(repo, '.venv'));
    });

    it('runs pytest with the person’s virtual environment, importing the worktree’s code, never the checkout the editable install names', async () => {
      const s = await session(repo);
      assert.deepEqual(s.dependencies.missing, []);
      assert.equal(s.dependencies.python?.venv, join(repo, '.venv'));
      assert.deepEqual(
        s.dependencies.python?.sourceRoots,
        [join(s.worktree.dir, 'src')],
        'the editable .pth, mapped into the worktree',
      );
      assert.equal(await s.install(), false);

      const own = await s.run('python -m pytest -q -p no:cacheprovider');
      assert.equal(own.exitCode, 0, own.output);
      assert.match(own.output, new RegExp(`${PROJECT_FIXTURES['py-src-pytest'].tests} passed`));
      const result = await (await detectTestRunner(s.worktree.dir, { sandbox: s.sandbox })).run();
      assert.equal(result.status, 'passed', result.output);
      assert.equal(result.passed, PROJECT_FIXTURES['py-src-pytest'].tests);

      // A repository under HOME (hidden inside): the environment is still shown, read-only, at its own path.
      const underHome = await s.run('python -m pytest -q -p no:cacheprovider; ls "$HOME"', { HOME: repo });
      assert.equal(underHome.exitCode, 0, underHome.output);
      assert.match(underHome.output, new RegExp(`${PROJECT_FIXTURES['py-src-pytest'].tests} passed`));
      assert.doesNotMatch(underHome.output, /pyproject\.toml/, 'the rest of the repository stays hidden with HOME');

      const where = await s.run('python -c "import sys, verbump, packaging; print(sys.prefix); print(verbump.__file__)"');
      assert.equal(where.exitCode, 0, where.output);
      assert.deepEqual(where.output.trim().split('\n'), [
        join(repo, '.venv'),
        join(s.worktree.dir, 'src', 'verbump', '__init__.py'),
      ]);

      // A change in the worktree is what the tests see...
      const init = join(s.worktree.dir, 'src', 'verbump', '__init__.py');
      await writeFile(init, (await readFile(init, 'utf8')).replace('__version__ = "0.6.2"', '__version__ = "0.7.0"'));
      const changed = await (await detectTestRunner(s.worktree.dir, { sandbox: s.sandbox })).run();
      assert.equal(changed.failed, 1, changed.output);
      assert.match(changed.output, /test_the_package_knows_its_version/);
      // ...and a module removed from the worktree is gone, though the person's checkout still has it.
      await unlink(join(s.worktree.dir, 'src', 'verbump', 'cli.py'));
      const gone = await s.run('python -c "import verbump.cli"');
      assert.notEqual(gone.exitCode, 0);
      assert.match(gone.output, /No module named 'verbump.cli'/);
      assert.ok(await exists(join(repo, 'src', 'verbump', 'cli.py')));

      await s.worktree.rollbackToHead();
      assert.equal(await treeDigest(join(repo, '.venv')), personVenv, 'the person’s virtual environment is unchanged');
      await assertNothingCommitted(s, repo);
    });

    it('without a virtual environment: nothing is missing (the test command’s interpreter runs the tests); the command that makes one is advice', async () => {
      const bare = await person('py-src-pytest', false);
      const plan = await previewProjectDependencies(await readRepository(bare), { env: { PATH: process.env.PATH } });
      // The person's python3 (PATH, pyenv, conda) is used as it is; the preflight probes it in the sandbox.
      assert.deepEqual(plan.missing, []);
      assert.equal(plan.python, undefined);
      assert.deepEqual(plan.pythonNeeds, {
        requirements: ['packaging'],
        venvCommand: 'python3 -m venv .venv && .venv/bin/pip install -e . pytest',
      });
      const unittest = await previewProjectDependencies(await readRepository(bare), {
        env: { PATH: process.env.PATH },
        testCommand: 'python3 -m unittest',
      });
      assert.equal(
        unittest.pythonNeeds?.venvCommand,
        'python3 -m venv .venv && .venv/bin/pip install -e .',
        'a test command without pytest does not need it',
      );
      const s = await session(bare);
      assert.deepEqual(s.dependencies.missing, []);
      assert.equal(await s.install(), false, 'nothing to install, nothing refused');
    });
  });

  it("a poetry, uv or pdm project without an environment is advised its own tool's command; poetry's dependencies count", async () => {
    const poetry =
      '[tool.poetry]\nname = "sl"\nversion = "0.1.0"\n\n[tool.poetry.dependencies]\npython = "^3.9"\nattrs = "^23"\n\n[tool.poetry.group.dev.dependencies]\npytest = "^8"\n';
    const pep621 =
      '[project]\nname = "sl"\nversion = "0.1.0"\ndependencies = ["attrs"]\n\n[dependency-groups]\ndev = ["pytest"]\n';
    const poetryCommand = 'poetry config virtualenvs.in-project true --local && poetry install';
    const cases: Array<[Record<string, string>, string, string[]]> = [
      // poetry 1's tables, not [project]: nothing was missing, and the baseline stopped at "No module named 'attrs'".
      [{ 'pyproject.toml': poetry, 'poetry.lock': '# lock\n' }, poetryCommand, ['attrs']],
      [{ 'pyproject.toml': poetry.replace('attrs = "^23"\n', '') }, poetryCommand, []],
      [{ 'pyproject.toml': pep621, 'uv.lock': 'version = 1\n' }, 'uv sync', ['attrs']],
      [{ 'pyproject.toml': pep621, 'pdm.lock': '# lock\n' }, 'pdm install', ['attrs']],
      // A lock whose project does not name pytest does not bring it: pip's command, with pytest.
      [
        { 'pyproject.toml': pep621.replace('dev = ["pytest"]', 'dev = []'), 'uv.lock': 'version = 1\n' },
        'python3 -m venv .venv && .venv/bin/pip install -e . pytest',
        ['attrs'],
      ],
    ];
    for (const [files, command, requirements] of cases) {
      const repo = await temp('tdd-person-lock-');
      for (const [name, text] of Object.entries(files)) await writeFile(join(repo, name), text);
      git(repo, 'init', '-q', '-b', 'main');
      git(repo, 'add', '-A');
      git(repo, '-c', 'user.name=p', '-c', 'user.email=p@example.com', 'commit', '-q', '-m', 'project');
      const plan = await previewProjectDependencies(await readRepository(repo), { env: { PATH: process.env.PATH } });
      assert.deepEqual(plan.missing, [], Object.keys(files).join(', '));
      assert.deepEqual(plan.pythonNeeds, { requirements, venvCommand: command }, Object.keys(files).join(', '));
    }
  });

  it('a workspace package the worktree holds as a link gets no mount point: nothing is made through the link', async () => {
    // A monorepo with per-package installs (as pnpm makes them): packages/a/node_modules is the person's, ignored.
    const repo = await temp('tdd-person-workspace-');
    git(repo, 'init', '-q', '-b', 'main');
    await writeFile(join(repo, '.gitignore'), 'node_modules/\n');
    await writeFile(join(repo, 'package.json'), JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }));
    for (const name of ['a', 'b']) {
      await mkdir(join(repo, 'packages', name, 'node_modules', 'dep'), { recursive: true });
      await writeFile(join(repo, 'packages', name, 'package.json'), JSON.stringify({ name }));
    }
    await mkdir(join(repo, 'node_modules'));
    git(repo, 'add', '-A');
    git(repo, '-c', 'user.name=p', '-c', 'user.email=p@example.com', 'commit', '-q', '-m', 'workspace');
    const { worktree } = await SessionWorktree.create(await readRepository(repo), {
      slug: 'library',
      worktreesRoot: await temp('tdd-worktrees-'),
    });
    // What generated code of an earlier turn may leave: packages/a replaced by a link to a folder outside the worktree.
    const outside = await temp('tdd-outside-');
    await rm(join(worktree.dir, 'packages', 'a'), { recursive: true, force: true });
    await symlink(outside, join(worktree.dir, 'packages', 'a'));

    const dependencies = await prepareProjectDependencies(worktree.info, { sandbox: 'auto' });
    assert.equal(await exists(join(outside, 'node_modules')), false, 'no folder was made through the link');
    assert.deepEqual(
      dependencies.sandbox.nodeModules?.packages?.map((p) => p.folder),
      ['packages/b'],
      'only the package that is a folder of its own is mounted',
    );
    assert.equal(await exists(join(worktree.dir, 'packages', 'b', 'node_modules')), true);
  });

  it('a pnpm project with neither node_modules nor a lockfile, or with node_modules not ignored, says what to run and mounts nothing', async () => {
    const noLock = await person('ts-vitest-pnpm', false);
    git(noLock, 'rm', '-q', 'pnpm-lock.yaml');
    git(noLock, 'commit', '-q', '-m', 'no lockfile');
    assert.deepEqual(
      (await checkProjectDependencies(await readRepository(noLock))).map((m) => m.command),
      ['pnpm install'],
    );

    const notIgnored = await person('js-jest', true);
    await writeFile(join(notIgnored, '.gitignore'), 'coverage/\n');
    git(notIgnored, 'commit', '-q', '-am', 'node_modules not ignored');
    const s = await session(notIgnored);
    assert.equal(s.dependencies.node, undefined);
    assert.match(s.dependencies.missing[0]!.command, /add 'node_modules\/' to \.gitignore/);
    assert.equal(await exists(join(s.worktree.dir, 'node_modules')), false, 'no mount point is made where git would see it');
    await assert.rejects(s.install(), /add 'node_modules\/' to \.gitignore/);
  });
});

describe('Project dependencies: what the sandbox is told', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tdd-modules-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('links every package, scope, .bin and .pnpm, copies the source’s own links as they are, and leaves tool caches out', async () => {
    for (const folder of ['jest', '@types', '.bin', '.pnpm', '.vite', '.vite-temp', '.cache']) await mkdir(join(dir, folder));
    await writeFile(join(dir, '.modules.yaml'), 'x');
    await symlink('.pnpm/vitest@4/node_modules/vitest', join(dir, 'vitest'));
    await symlink('../packages/mine', join(dir, 'mine'));
    assert.deepEqual(modulesEntries(dir), [
      { name: '.bin', link: '.tdd-agent/node_modules/.bin' },
      { name: '.modules.yaml', link: '.tdd-agent/node_modules/.modules.yaml' },
      { name: '.pnpm', link: '.tdd-agent/node_modules/.pnpm' },
      { name: '@types', link: '.tdd-agent/node_modules/@types' },
      { name: 'jest', link: '.tdd-agent/node_modules/jest' },
      { name: 'mine', link: '../packages/mine' },
      { name: 'vitest', link: '.pnpm/vitest@4/node_modules/vitest' },
    ]);
    assert.deepEqual(modulesEntries(join(dir, 'missing')), [], 'a source that cannot be read gives no entries');
  });

  it('mounts the packages over the writable worktree, and hides the person’s sources after the readable roots', async () => {
    await mkdir(join(dir, 'jest'));
    const policy = worktreePolicy('/w', '/r/.git', undefined, {
      nodeModules: { source: dir, how: 'mount' },
      python: { venv: '/r/.venv', interpreterRoots: ['/opt/py'], sourceRoots: ['/w/src'], hiddenSources: ['/r/src'] },
    });
    assert.deepEqual(policy.readableRoots, ['/r/.git', '/r/.venv', '/opt/py']);
    const args = bubblewrapArgs({
      policy: {
        writableRoots: policy.writableRoots,
        readOnlyPaths: policy.readOnlyPaths!,
        readableRoots: policy.readableRoots!,
        modules: policy.modules,
        hiddenPaths: policy.hiddenPaths,
      },
      cwd: '/w',
      tmpBytes: 4096,
    });
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
    assert.ok(at('--ro-bind-try', '/opt/py', '/opt/py') < at('--tmpfs', '/r/src', '--remount-ro', '/r/src'));
    assert.ok(at('--bind', '/w', '/w') < at('--size', '4096', '--tmpfs', '/w/node_modules'));
    assert.ok(at('--tmpfs', '/w/node_modules') < at('--ro-bind', dir, '/w/node_modules/.tdd-agent/node_modules'));
    assert.ok(at('--symlink', '.tdd-agent/node_modules/jest', '/w/node_modules/jest') > 0);
    assert.ok(at('--ro-bind-try', '/w/.git') > at('--symlink', '.tdd-agent/node_modules/jest', '/w/node_modules/jest'));
  });

  it('sets VIRTUAL_ENV and puts the environment’s bin and the worktree’s sources first, once', () => {
    const policy = worktreePolicy('/w', '/r/.git', undefined, {
      python: { venv: '/r/.venv', interpreterRoots: [], sourceRoots: ['/w/src'] },
    });
    const env = withPolicyEnvironment(
      { PATH: '/usr/bin:/r/.venv/bin:/bin', PYTHONPATH: '/elsewhere' },
      { readOnlyPaths: [], readableRoots: [], ...policy },
    );
    assert.equal(env.VIRTUAL_ENV, '/r/.venv');
    assert.equal(env.PATH, '/r/.venv/bin:/usr/bin:/bin');
    assert.equal(env.PYTHONPATH, '/w/src:/elsewhere');
  });
});
