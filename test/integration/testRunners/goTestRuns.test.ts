import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import { goTestLines } from '../../../src/core/testRunners/reports/goTestReport';
import { requireGo } from '../../support/goToolchain';
import { createWorktree, requireBubblewrap } from '../osSandbox/fixture';

/** The module recorded in test/fixtures/go-test-json: a passing, a failing, a skipped test, a table test, a package without tests. */
const MODULE = resolve('test/fixtures/go-test-json/module');

/** Zips a folder (argv[1]) into a module zip (argv[2]), its entries named relative to it, as a Go module proxy serves them. */
const ZIP_FOLDER = [
  'import os, sys, zipfile',
  'src, out = sys.argv[1], sys.argv[2]',
  'with zipfile.ZipFile(out, "w") as z:',
  '    for root, _, files in os.walk(src):',
  '        for f in files:',
  '            p = os.path.join(root, f)',
  '            z.write(p, os.path.relpath(p, src))',
].join('\n');

describe('go test in the sandbox, with the real toolchain', function () {
  this.timeout(120_000);

  before(async function () {
    requireGo(this);
    await requireBubblewrap(this);
  });

  it('runs offline in the bubblewrap sandbox and judges each test by identity', async () => {
    const fixture = createWorktree();
    try {
      cpSync(MODULE, fixture.worktree, { recursive: true });
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      assert.equal(runner.kind, 'go-test');
      assert.equal(runner.command, 'go test ./...');
      const result = await runner.run();
      assert.equal(result.status, 'failed', result.output);
      assert.equal(result.command, 'go test ./...');
      assert.deepEqual([result.passed, result.failed, result.total], [4, 1, 6]);
      assert.deepEqual(
        result.tests?.map((t) => `${t.id} ${t.outcome}`),
        [
          'fizzbuzz/fizzbuzz_test.go::TestOne passed',
          'fizzbuzz/fizzbuzz_test.go::TestThree failed',
          'fizzbuzz/fizzbuzz_test.go::TestLater skipped',
          'fizzbuzz/table_test.go::TestTable > says_2 passed',
          'fizzbuzz/table_test.go::TestTable > says_4 passed',
          'fizzbuzz/table_test.go::TestTable passed',
        ],
      );
      // The console text is what a person reads, not the JSON events.
      assert.match(result.output, /^--- FAIL: TestThree/m);
      assert.equal(goTestLines(result.output).filter((l) => 'event' in l).length, 0);
    } finally {
      fixture.cleanup();
    }
  });

  it('a repository whose .tdd is a link to a folder of the host: the build cache marker is never written through it', async () => {
    const fixture = createWorktree();
    const outside = mkdtempSync(join(tmpdir(), 'go-outside-'));
    try {
      cpSync(MODULE, fixture.worktree, { recursive: true });
      symlinkSync(outside, join(fixture.worktree, '.tdd'));
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      await runner.run();
      assert.deepEqual(readdirSync(outside), [], 'nothing written where the link points');
    } finally {
      fixture.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('diagnoses a test that uses a name the package does not declare as a missing name', async () => {
    const fixture = createWorktree();
    try {
      cpSync(MODULE, fixture.worktree, { recursive: true });
      writeFileSync(
        join(fixture.worktree, 'fizzbuzz/buzz_test.go'),
        'package fizzbuzz\n\nimport "testing"\n\nfunc TestFive(t *testing.T) {\n\tif Buzz(5) != "Buzz" {\n\t\tt.Error("no")\n\t}\n}\n',
      );
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const result = await (await detectTestRunner(fixture.worktree, { sandbox })).run();
      assert.equal(result.status, 'error', result.output);
      assert.equal(result.errorKind, 'missing_export');
      assert.equal(result.missingName, 'Buzz');
      assert.match(result.reason ?? '', /'Buzz' is not defined — fizzbuzz\/buzz_test\.go:6:5: undefined: Buzz/);
      // The package that did not build reports no test; the run still says test by test (none).
      assert.deepEqual(result.tests, []);
    } finally {
      fixture.cleanup();
    }
  });

  it("builds with a dependency from the person's module cache under the hidden HOME, read-only and offline", async () => {
    const fixture = createWorktree();
    try {
      // A module proxy on disk, whose one module the person's go downloaded into their cache (HOME/go/pkg/mod) before.
      const proxy = join(fixture.root, 'proxy/example.org/greet/@v');
      mkdirSync(proxy, { recursive: true });
      const source = join(fixture.root, 'greet-src');
      mkdirSync(join(source, 'example.org/greet@v1.0.0'), { recursive: true });
      writeFileSync(join(source, 'example.org/greet@v1.0.0/go.mod'), 'module example.org/greet\n\ngo 1.18\n');
      writeFileSync(
        join(source, 'example.org/greet@v1.0.0/greet.go'),
        'package greet\n\n// Hello greets.\nfunc Hello(name string) string { return "hello " + name }\n',
      );
      execFileSync('python3', ['-c', ZIP_FOLDER, source, join(proxy, 'v1.0.0.zip')]);
      writeFileSync(join(proxy, 'v1.0.0.mod'), 'module example.org/greet\n\ngo 1.18\n');
      writeFileSync(join(proxy, 'v1.0.0.info'), '{"Version":"v1.0.0"}\n');
      writeFileSync(join(proxy, 'list'), 'v1.0.0\n');
      const ws = fixture.worktree;
      writeFileSync(join(ws, 'go.mod'), 'module app\n\ngo 1.18\n\nrequire example.org/greet v1.0.0\n');
      writeFileSync(
        join(ws, 'app.go'),
        'package app\n\nimport "example.org/greet"\n\nfunc Hi() string { return greet.Hello("go") }\n',
      );
      writeFileSync(
        join(ws, 'app_test.go'),
        [
          'package app',
          '',
          'import (',
          '\t"os"',
          '\t"path/filepath"',
          '\t"testing"',
          ')',
          '',
          'func TestHi(t *testing.T) {',
          '\tif Hi() != "hello go" {',
          '\t\tt.Error(Hi())',
          '\t}',
          '}',
          '',
          'func TestModuleCacheIsReadOnly(t *testing.T) {',
          '\tif err := os.WriteFile(filepath.Join(os.Getenv("GOMODCACHE"), "planted"), nil, 0o644); err == nil {',
          '\t\tt.Error("wrote into the module cache")',
          '\t}',
          '}',
          '',
          'func TestHomeIsHidden(t *testing.T) {',
          '\tif _, err := os.ReadFile(filepath.Join(os.Getenv("HOME"), ".ssh", "id_ed25519")); err == nil {',
          '\t\tt.Error("read the person’s key")',
          '\t}',
          '}',
          '',
        ].join('\n'),
      );
      const modCache = join(fixture.home, 'go/pkg/mod');
      execFileSync('go', ['mod', 'tidy'], {
        cwd: ws,
        stdio: 'pipe',
        env: {
          ...process.env,
          HOME: fixture.home,
          GOMODCACHE: modCache,
          GOPROXY: `file://${join(fixture.root, 'proxy')}`,
          GOSUMDB: 'off',
          GOFLAGS: '-mod=mod',
          GOCACHE: join(fixture.root, 'gocache'),
        },
      });
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(ws, { sandbox, env: { HOME: fixture.home, GOMODCACHE: '', GOPATH: '' } });
      const result = await runner.run();
      assert.equal(result.status, 'passed', result.output);
      assert.deepEqual(
        result.tests?.map((t) => `${t.id} ${t.outcome}`),
        ['app_test.go::TestHi passed', 'app_test.go::TestModuleCacheIsReadOnly passed', 'app_test.go::TestHomeIsHidden passed'],
      );
    } finally {
      fixture.cleanup();
    }
  });

  it('a module without packages yet has no tests yet; a module whose tests do not parse goes back as a syntax error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'go-empty-'));
    try {
      writeFileSync(join(dir, 'go.mod'), 'module kata\n\ngo 1.18\n');
      const runner = await detectTestRunner(dir);
      const empty = await runner.run();
      assert.deepEqual([empty.status, empty.errorKind, empty.total], ['passed', 'no_tests', 0], empty.output);
      writeFileSync(join(dir, 'kata_test.go'), 'package kata\n\nfunc TestX(t *testing.T) {\n\tif x := 1 {\n}\n');
      const broken = await runner.run();
      assert.deepEqual([broken.status, broken.errorKind], ['error', 'syntax'], broken.output);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
