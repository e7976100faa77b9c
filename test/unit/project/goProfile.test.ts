import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeProjectProfile } from '../../../src/core/project/describeProfile';
import { detectProjectProfile, resolveProjectProfile } from '../../../src/core/project/detectProjectProfile';
import { isTestFile } from '../../../src/core/tdd/boundaries/isTestFile';
import { scaffoldPlan } from '../../../src/core/tdd/scaffold/scaffoldFiles';
import { goOffline } from '../../../src/core/testRunners/commandTestRunner';
import { sandboxEnvironment } from '../../../src/core/osSandbox/sandboxEnvironment';
import { toolchainsUnderHome } from '../../../src/core/osSandbox/policyPaths';
import { parseKata } from '../../../src/core/tdd/kata/parseKata';
import { checkTestRunner } from '../../../src/core/tdd/supervisor/preflight';
import { readFileSync } from 'node:fs';

describe('a Go module: its profile, its scaffold, its offline test runs', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'go-profile-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads go.mod: language go, `go test ./...`, *_test.go beside the code, the root as source', async () => {
    await writeFile(join(dir, 'go.mod'), 'module example.com/shop\n\ngo 1.21\n');
    await mkdir(join(dir, 'cart'));
    await writeFile(join(dir, 'cart/cart.go'), 'package cart\n');
    await writeFile(join(dir, 'cart/cart_test.go'), 'package cart\n');
    const profile = await detectProjectProfile(dir);
    assert.equal(profile.language, 'go');
    assert.deepEqual(profile.languages, ['go']);
    assert.equal(profile.testRunner, 'go-test');
    assert.equal(profile.testCommand, 'go test ./...');
    assert.deepEqual(profile.testFilePatterns, ['**/*_test.go']);
    assert.deepEqual(profile.sourceRoots, ['.']);
    assert.equal(profile.testDir, '.');
    assert.equal(profile.testsBesideSource, true);
    assert.deepEqual(profile.manifests, ['go.mod']);
    assert.equal(profile.fields.testCommand, 'detected');
    assert.match(
      describeProjectProfile(profile).summary,
      /^Go, go test \(`go test \.\/\.\.\.`\), tests: \*\*\/\*_test\.go beside the code, source: the root$/,
    );
    const rules = { testDir: profile.testDir, sourceDir: profile.sourceRoots[0], testFilePatterns: profile.testFilePatterns };
    assert.ok(isTestFile('cart/cart_test.go', rules));
    assert.ok(!isTestFile('cart/cart.go', rules));
    assert.ok(!isTestFile('cart/testdata_helper.go', rules));
  });

  it('a machine without go says so in one line, and what to install', async () => {
    const kata = parseKata(readFileSync('katas/fizzbuzz.md', 'utf8'), { fileName: 'fizzbuzz.md', language: 'go' });
    assert.equal(kata.language, 'go');
    assert.deepEqual([kata.sourceDir, kata.testDir], ['.', '.']);
    await assert.rejects(checkTestRunner(kata, { env: { PATH: dir } }), (e: Error) => {
      assert.equal(
        e.message,
        "The tests run with 'go test ./...', but 'go' is not installed or not on PATH. Install Go (Debian and Ubuntu: apt-get install golang-go; macOS: brew install go; or https://go.dev/dl), or name another test command (testCommand in tdd-agent.json), then start again.",
      );
      return true;
    });
  });

  it('is overridable as any profile: a flag names another command', async () => {
    await writeFile(join(dir, 'go.mod'), 'module example.com/shop\n');
    const profile = await resolveProjectProfile(dir, {
      overrides: { testCommand: 'go test -race ./...' },
      readConfigFile: false,
    });
    assert.equal(profile.testCommand, 'go test -race ./...');
    assert.equal(profile.fields.testCommand, 'flag');
    assert.equal(profile.testRunner, 'go-test');
  });

  it('a kata in Go gets a module and nothing else', () => {
    const plan = scaffoldPlan('go', { slug: 'fizzbuzz', title: 'FizzBuzz', sourceDir: '.', testDir: '.' });
    assert.deepEqual(Object.keys(plan.files).sort(), ['.gitignore', 'go.mod']);
    assert.equal(plan.files['go.mod'], 'module fizzbuzz\n\ngo 1.18\n');
    assert.equal(plan.testCommand, 'go test ./...');
  });

  it('runs go offline with the person’s module cache and the session’s own build cache, and the sandbox passes them', () => {
    const env = goOffline({ HOME: '/home/ada', GOFLAGS: '-tags=integration' }, '/work/ws');
    assert.deepEqual(env, {
      GOFLAGS: '-tags=integration -mod=mod',
      GOPROXY: 'off',
      GOTOOLCHAIN: 'local',
      GOMODCACHE: '/home/ada/go/pkg/mod',
      GOCACHE: '/work/ws/.tdd/go-build',
    });
    assert.equal(goOffline({ GOFLAGS: '-mod=vendor', GOPATH: '/opt/go' }, '/w').GOFLAGS, '-mod=vendor');
    assert.equal(goOffline({ GOPATH: '/opt/go:/other' }, '/w').GOMODCACHE, '/opt/go/pkg/mod');
    const inside = sandboxEnvironment({ ...env, GOROOT: '/usr/lib/go-1.19', GITHUB_TOKEN: 'x' });
    assert.equal(inside.GOPROXY, 'off');
    assert.equal(inside.GOROOT, '/usr/lib/go-1.19');
    assert.equal(inside.GITHUB_TOKEN, undefined);
  });

  it('shows the module cache and a GOROOT under the hidden HOME read-only, never the rest of GOPATH', async () => {
    const home = dir;
    await mkdir(join(home, 'go/pkg/mod'), { recursive: true });
    await mkdir(join(home, 'sdk/go1.22/bin'), { recursive: true });
    const shown = toolchainsUnderHome(
      { GOMODCACHE: join(home, 'go/pkg/mod'), GOROOT: join(home, 'sdk/go1.22'), PATH: '/usr/bin' },
      home,
    );
    assert.deepEqual(shown.sort(), [join(home, 'go/pkg/mod'), join(home, 'sdk/go1.22')].sort());
    assert.deepEqual(toolchainsUnderHome({ GOMODCACHE: '/var/cache/go-mod', PATH: '' }, home), []);
  });
});
