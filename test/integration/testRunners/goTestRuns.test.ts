import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import { goTestLines } from '../../../src/core/testRunners/reports/goTestReport';
import { requireGo } from '../../support/goToolchain';
import { createWorktree, requireBubblewrap } from '../osSandbox/fixture';

/** The module recorded in test/fixtures/go-test-json: a passing, a failing, a skipped test, a table test, a package without tests. */
const MODULE = resolve('test/fixtures/go-test-json/module');

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
