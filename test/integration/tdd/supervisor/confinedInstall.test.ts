import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlProtocol } from '../../../../src/core/control/controlProtocol';
import { InMemoryTransport } from '../../../../src/core/control/inMemoryTransport';
import type { ApprovalRequestMessage } from '../../../../src/core/control/messages';
import type { SessionGitInfo } from '../../../../src/core/tdd/git/sessionWorktree';
import {
  installDependencies,
  isNonRegistrySpec,
  nonRegistrySpecs,
  sessionManifests,
  type ManifestSource,
} from '../../../../src/core/tdd/dependencies/installDependencies';
import { requireBubblewrap } from '../../osSandbox/fixture';

const KATA = { language: 'javascript' as const, slug: 'fizzbuzz', title: 'FizzBuzz', sourceDir: 'src', testDir: 'test' };
/** A registry package without dependencies of its own: the smallest real install. */
const BENIGN = { name: 'kata', version: '1.0.0', private: true, devDependencies: { 'is-number': '7.0.0' } };
const APPROVE_MEDIUM = { autoApproveUpTo: 'MEDIUM' as const };

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  }).trim();

/** A repository whose base commit has a benign package.json, and a session worktree on a branch of it. */
interface InstallFixture {
  root: string;
  worktree: string;
  info: SessionGitInfo;
  /** Where the attacker's program would leave its mark: outside the worktree. */
  marker: string;
}

function createFixture(basePackage: object | undefined): InstallFixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'confined-install-')));
  const repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
  if (basePackage) writeFileSync(join(repo, 'package.json'), JSON.stringify(basePackage, null, 2));
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'base');
  const baseCommit = git(repo, 'rev-parse', 'HEAD');
  const worktree = join(root, 'worktree');
  git(repo, 'worktree', 'add', '-q', '-b', 'tdd/fizzbuzz-1', worktree);
  const info: SessionGitInfo = {
    repository: repo,
    commonDir: join(repo, '.git'),
    worktree,
    worktreeGitDir: realpathSync(join(repo, '.git', 'worktrees', 'worktree')),
    sessionBranch: 'tdd/fizzbuzz-1',
    baseCommit,
    baseBranch: 'main',
    createdRepository: false,
    fromWorkingTree: false,
  };
  return { root, worktree, info, marker: join(root, 'pwned') };
}

/**
 * What an agent leaves in the worktree, committed on the session branch and in the working tree: a package.json with
 * a `git+file:` dependency and a project `.npmrc` whose `git=` names the agent's own program. npm run in that folder
 * would start that program to "clone" the dependency, on the host.
 */
function plantHostileProject(fx: InstallFixture): void {
  const tool = join(fx.worktree, 'tools', 'git.sh');
  mkdirSync(join(fx.worktree, 'tools'));
  writeFileSync(tool, `#!/bin/sh\necho "ran as git: $*" > "${fx.marker}"\nexit 1\n`);
  chmodSync(tool, 0o755);
  writeFileSync(join(fx.worktree, '.npmrc'), `git=${tool}\n`);
  writeFileSync(
    join(fx.worktree, 'package.json'),
    JSON.stringify({ ...BENIGN, dependencies: { helper: `git+file://${join(fx.root, 'helper.git')}` } }),
  );
  git(fx.worktree, 'add', '.');
  git(fx.worktree, 'commit', '-q', '-m', 'green: the agent adds a helper');
}

/**
 * `npm install` for a session: only the manifests of a commit the agents cannot have changed, in a private staging
 * folder with a clean npm configuration, inside the OS sandbox with the network; non-registry dependencies refused
 * unless approved by name. Real git, real npm, a real registry package (is-number, no dependencies of its own).
 */
describe('TDD supervisor: the dependency install uses the base commit only and runs confined', function () {
  this.timeout(180_000);
  let cacheDir: string;
  const fixtures: InstallFixture[] = [];
  const fixture = (basePackage: object | undefined) => {
    const fx = createFixture(basePackage);
    fixtures.push(fx);
    return fx;
  };

  before(async function () {
    await requireBubblewrap(this);
    cacheDir = realpathSync(mkdtempSync(join(tmpdir(), 'confined-install-cache-'))); // shared: the package is fetched once
  });
  after(() => {
    for (const fx of fixtures) rmSync(fx.root, { recursive: true, force: true });
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  });

  it("a hostile package.json and .npmrc in the worktree never count: the base commit's packages install, the agent's program never runs", async () => {
    const fx = fixture(BENIGN);
    plantHostileProject(fx);
    const manifests = await sessionManifests(fx.info, { resumed: true, kata: KATA });
    assert.match(manifests.description, /^commit [0-9a-f]{10}$/);
    const installed = await installDependencies(fx.worktree, { manifests, policy: APPROVE_MEDIUM, cacheDir });
    assert.equal(installed, true);
    assert.equal(
      existsSync(fx.marker),
      false,
      `the agent's git.sh ran: ${existsSync(fx.marker) ? readFileSync(fx.marker, 'utf8') : ''}`,
    );
    const pkg = JSON.parse(readFileSync(join(fx.worktree, 'node_modules', 'is-number', 'package.json'), 'utf8')) as {
      version: string;
    };
    assert.equal(pkg.version, '7.0.0');
    assert.equal(existsSync(join(fx.worktree, 'node_modules', 'helper')), false);
    assert.equal(
      readFileSync(join(fx.worktree, '.npmrc'), 'utf8'),
      `git=${join(fx.worktree, 'tools', 'git.sh')}\n`,
      'the worktree is only read by git',
    );
  });

  it("with the sandbox off, still the base commit's manifests and a clean configuration", async () => {
    const fx = fixture(BENIGN);
    plantHostileProject(fx);
    const manifests = await sessionManifests(fx.info, { resumed: true, kata: KATA });
    assert.equal(await installDependencies(fx.worktree, { manifests, policy: APPROVE_MEDIUM, cacheDir, sandbox: 'off' }), true);
    assert.equal(existsSync(fx.marker), false);
    assert.ok(existsSync(join(fx.worktree, 'node_modules', 'is-number', 'package.json')));
  });

  it('replaces a node_modules link in the worktree without following it', async () => {
    const fx = fixture(BENIGN);
    const outside = join(fx.root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'the person’s file\n');
    symlinkSync(outside, join(fx.worktree, 'node_modules')); // planted: a link is no installed folder
    const manifests = await sessionManifests(fx.info, { resumed: false, kata: KATA });
    assert.equal(await installDependencies(fx.worktree, { manifests, policy: APPROVE_MEDIUM, cacheDir }), true);
    assert.ok(lstatSync(join(fx.worktree, 'node_modules')).isDirectory(), 'a real folder now');
    assert.ok(existsSync(join(fx.worktree, 'node_modules', 'is-number', 'index.js')));
    assert.deepEqual(readdirSync(outside), ['keep.txt'], 'nothing was written or removed where the link pointed');
    assert.equal(readFileSync(join(outside, 'keep.txt'), 'utf8'), 'the person’s file\n');
  });

  it('a git+file: dependency in the base commit is refused with a CONFIG error naming it, and npm never runs', async () => {
    const spec = 'git+file:///srv/helper.git';
    const fx = fixture({ ...BENIGN, dependencies: { helper: spec, tool: 'ada/tool#main' } });
    const manifests = await sessionManifests(fx.info, { resumed: false, kata: KATA });
    await assert.rejects(installDependencies(fx.worktree, { manifests, policy: APPROVE_MEDIUM, cacheDir }), (e: unknown) => {
      const err = e as { error_code?: string; message: string; details?: { specs?: string[] } };
      assert.equal(err.error_code, 'CONFIG');
      assert.match(err.message, /outside the registry, which was not approved/);
      assert.match(err.message, /helper: git\+file:\/\/\/srv\/helper\.git/);
      assert.match(err.message, /tool: ada\/tool#main/);
      assert.deepEqual(err.details?.specs, [`helper: ${spec}`, 'tool: ada/tool#main']);
      return true;
    });
    assert.equal(existsSync(join(fx.worktree, 'node_modules')), false);
  });

  it('asks a person at HIGH naming each non-registry spec and saying what runs; a denial is a CONFIG error', async () => {
    const fx = fixture({ ...BENIGN, dependencies: { helper: 'github:ada/helper' } });
    const transport = new InMemoryTransport();
    const requests: ApprovalRequestMessage[] = [];
    transport.onAgentMessage((m) => {
      if (m.type !== 'approval_request') return;
      requests.push(m);
      transport.deny(m.id, 'not from GitHub');
    });
    const manifests = await sessionManifests(fx.info, { resumed: false, kata: KATA });
    await assert.rejects(
      installDependencies(fx.worktree, { manifests, policy: APPROVE_MEDIUM, cacheDir, control: new ControlProtocol(transport) }),
      /not approved \(denied by test: not from GitHub\)/,
    );
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.dangerLevel, 'HIGH', '--yes=MEDIUM does not cover it');
    assert.deepEqual((requests[0]!.params as { specs?: string[] }).specs, ['helper: github:ada/helper']);
    const preview = JSON.stringify(requests[0]!.preview);
    assert.match(preview, /cloned with git/);
    assert.match(preview, /inside the OS sandbox with network access/);
  });

  it('an install that tries to write outside its staging folder fails, and nothing outside changes', async () => {
    const fx = fixture(BENIGN);
    const tools = realpathSync(mkdtempSync(join(tmpdir(), 'confined-install-npm-')));
    fixtures.push({ ...fx, root: tools });
    // Stands in for what npm would run (a git dependency's build): writes the staging folder, then tries outside.
    const fakeNpm = join(tools, 'cache', 'npm');
    mkdirSync(join(tools, 'cache'));
    const targets = [
      join(fx.worktree, 'escaped.txt'),
      join(fx.info.commonDir, 'hooks', 'pre-commit'),
      join(fx.root, 'escaped.txt'),
    ];
    // `../escaped.txt` is in the staging folder's parent, shown read-only; the others are not even visible inside.
    writeFileSync(
      fakeNpm,
      `#!/bin/sh\nmkdir -p node_modules/made-here && echo ok > node_modules/made-here/index.js || exit 9\n${['../escaped.txt', ...targets].map((t) => `echo pwned > "${t}" || failed=1`).join('\n')}\nexit \${failed:-0}\n`,
    );
    chmodSync(fakeNpm, 0o755);
    const manifests = await sessionManifests(fx.info, { resumed: false, kata: KATA });
    await assert.rejects(
      installDependencies(fx.worktree, { manifests, policy: APPROVE_MEDIUM, cacheDir: join(tools, 'cache'), npm: fakeNpm }),
      (e: unknown) => {
        assert.equal((e as { error_code?: string }).error_code, 'CONFIG');
        assert.match((e as Error).message, /failed \(exit code \d+\)/);
        assert.match((e as Error).message, /Read-only file system/);
        return true;
      },
    );
    for (const target of targets) assert.equal(existsSync(target), false, `${target} was written`);
    assert.equal(existsSync(join(fx.worktree, 'node_modules')), false, 'a failed install moves nothing');
  });

  it('on resume, a base commit without package.json means the scaffold’s, never the one the agents committed', async () => {
    const fx = fixture(undefined);
    plantHostileProject(fx);
    const manifests: ManifestSource = await sessionManifests(fx.info, { resumed: true, kata: KATA });
    assert.equal(manifests.description, "the kata's scaffold");
    const pkg = JSON.parse((await manifests.read('package.json'))!) as { name: string; dependencies?: object };
    assert.equal(pkg.name, 'fizzbuzz-kata');
    assert.equal(pkg.dependencies, undefined);
    assert.equal(
      await installDependencies(fx.worktree, { manifests, policy: APPROVE_MEDIUM, cacheDir }),
      false,
      'nothing to install',
    );
    assert.equal(existsSync(fx.marker), false);
  });

  it('tells registry specs from those npm fetches elsewhere', () => {
    const elsewhere = [
      'git+ssh://git@github.com/a/b.git',
      'git://h/r',
      'github:a/b',
      'gitlab:a/b',
      'a/b',
      'a/b#v1',
      'file:../x',
      'link:../x',
      './x',
      '../x',
      '/abs/x',
      '~/x',
      'https://h/x.tgz',
      'http://h/x.tgz',
      'git@github.com:a/b.git',
      'npm:other@github:a/b',
    ];
    const registry = ['^1.2.3', '7.0.0', 'latest', '*', '', '>=1 <2', 'npm:other@^1', '1.x || 2.x', 'workspace:*'];
    assert.deepEqual(
      elsewhere.filter((s) => !isNonRegistrySpec(s)),
      [],
    );
    assert.deepEqual(
      registry.filter((s) => isNonRegistrySpec(s)),
      [],
    );
    const lock = JSON.stringify({
      packages: {
        '': {},
        'node_modules/x': { resolved: 'git+ssh://git@h/x.git#abc' },
        'node_modules/y': { link: true, resolved: '../y' },
      },
    });
    assert.deepEqual(nonRegistrySpecs(JSON.stringify({ overrides: { z: 'file:../z' } }), lock), [
      'overrides z: file:../z',
      'lockfile node_modules/x: git+ssh://git@h/x.git#abc',
      'lockfile node_modules/y: a link to ../y',
    ]);
  });
});
