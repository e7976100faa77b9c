import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GO_FIZZBUZZ, GO_LEAP_YEAR, goKataCycles } from '../../../support/goKataPlans';
import { requireGo } from '../../../support/goToolchain';
import { fileOnBranch, SessionHarness } from './sessionHarness';

// The bundled katas played in Go by the scripted model, with real `go test` runs in the sandbox: the scaffold writes a
// module, the Tester's first test uses a function that does not exist yet (red: the package does not build, and the
// new test uses the missing name), each later red is one new failing test by identity, and each green is every test
// passing.
describe('TDD supervisor: katas in Go, with the real toolchain in the sandbox', function () {
  this.timeout(300_000);
  const h = new SessionHarness();
  before(function () {
    requireGo(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('FizzBuzz: red then green four times, judged test by test, and complete', async () => {
    const { summary } = await h.run({ cycles: goKataCycles(GO_FIZZBUZZ) }, { kataPath: 'fizzbuzz', language: 'go' });
    assert.deepEqual(
      summary.cycles.map((c) => [c.outcome, c.tests.passed, c.tests.failed]),
      [
        ['green', 1, 0],
        ['green', 2, 0],
        ['green', 3, 0],
        ['green', 4, 0],
        ['kata_complete', 4, 0],
      ],
      JSON.stringify(summary.error),
    );
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.equal(
      await fileOnBranch(h.workspace, summary.branch, 'fizzbuzz.go'),
      `package fizzbuzz\n\n${GO_FIZZBUZZ.steps[3]!.impl}`,
    );
    assert.equal(await fileOnBranch(h.workspace, summary.branch, 'go.mod'), 'module fizzbuzz\n\ngo 1.18\n');
    // The session's build cache (.tdd/go-build) stays out of the commits.
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', summary.branch], { cwd: h.workspace, encoding: 'utf8' });
    assert.deepEqual(files.trim().split('\n').sort(), ['.gitignore', 'fizzbuzz.go', 'fizzbuzz_test.go', 'go.mod']);
    // Each commit is named after its new test, and the branch passes `go test ./...` in a fresh clone.
    const subjects = execFileSync('git', ['log', '--format=%s', summary.branch], { cwd: h.workspace, encoding: 'utf8' });
    assert.match(subjects, /^feat: returns the number itself$/m);
    assert.match(subjects, /^feat: fizz buzz for multiples of fifteen$/m);
    const clone = mkdtempSync(join(tmpdir(), 'go-kata-clone-'));
    try {
      execFileSync('git', ['clone', '-q', '--branch', summary.branch, h.workspace, clone]);
      execFileSync('go', ['test', './...'], {
        cwd: clone,
        env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: join(clone, '.cache') },
      });
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it('Leap Year: three cycles green, and the untested rule named at the end', async () => {
    const { summary } = await h.run({ cycles: goKataCycles(GO_LEAP_YEAR) }, { kataPath: 'leap-year', language: 'go' });
    assert.deepEqual(
      summary.cycles.map((c) => [c.outcome, c.tests.passed]),
      [
        ['green', 1],
        ['green', 2],
        ['green', 3],
        ['kata_complete', 3],
      ],
      JSON.stringify(summary.error),
    );
    assert.equal(summary.status, 'incomplete');
    assert.deepEqual(summary.untested_examples, ['Every other year is a common year (2017, 2019).']);
  });
});
