import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUST_FIZZBUZZ, RUST_LEAP_YEAR, rustImplementerFile, rustKataCycles, rustTests } from '../../../support/rustKataPlans';
import { requireCargo } from '../../../support/rustToolchain';
import { fileOnBranch, SessionHarness } from './sessionHarness';

/** `cargo test` of a branch in a fresh clone, offline, building in the clone. */
function cargoTestInClone(workspace: string, branch: string): string {
  const clone = mkdtempSync(join(tmpdir(), 'rust-kata-clone-'));
  try {
    execFileSync('git', ['clone', '-q', '--branch', branch, workspace, clone]);
    return execFileSync('cargo', ['test', '--offline'], { cwd: clone, encoding: 'utf8', stdio: 'pipe' });
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}

// The bundled katas played in Rust by the scripted model, with real `cargo test` runs in the sandbox: the scaffold writes
// a library crate; FizzBuzz's tests are the `#[cfg(test)] mod tests` of src/lib.rs itself (the Tester changes only the
// module, the Implementer only the code above it), Leap Year's an integration test file. The first red of each is a
// crate that does not compile because the new test uses a function not written yet; each later red is one new failing
// test by identity, each green every test passing.
describe('TDD supervisor: katas in Rust, with the real toolchain in the sandbox', function () {
  this.timeout(400_000);
  const h = new SessionHarness();
  before(function () {
    requireCargo(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('FizzBuzz, tests inside src/lib.rs: red then green four times, judged test by test, and complete', async () => {
    const { summary } = await h.run({ cycles: rustKataCycles(RUST_FIZZBUZZ) }, { kataPath: 'fizzbuzz', language: 'rust' });
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
    assert.equal(await fileOnBranch(h.workspace, summary.branch, 'src/lib.rs'), rustImplementerFile(RUST_FIZZBUZZ, 4));
    // The session's build (.tdd/cargo-target) stays out of the commits, and cargo rewrote no Cargo.lock.
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', summary.branch], { cwd: h.workspace, encoding: 'utf8' });
    assert.deepEqual(files.trim().split('\n').sort(), ['.gitignore', 'Cargo.lock', 'Cargo.toml', 'src/lib.rs', 'tests/.gitkeep']);
    const subjects = execFileSync('git', ['log', '--format=%s', summary.branch], { cwd: h.workspace, encoding: 'utf8' });
    assert.match(subjects, /^feat: returns the number itself$/m);
    assert.match(subjects, /^feat: fizzbuzz for multiples of fifteen$/m);
    assert.match(cargoTestInClone(h.workspace, summary.branch), /test result: ok\. 4 passed/);
  });

  it('Leap Year, tests in tests/leap_year.rs: three cycles green, and the untested rule named at the end', async () => {
    const { summary } = await h.run({ cycles: rustKataCycles(RUST_LEAP_YEAR) }, { kataPath: 'leap-year', language: 'rust' });
    assert.deepEqual(
      summary.cycles.map((c) => [c.outcome, c.tests.passed]),
      [
        ['green', 1],
        ['green', 2],
        ['green', 3],
        ['kata_complete', 3],
      ],
      JSON.stringify([summary.error, summary.cycles]),
    );
    assert.equal(summary.status, 'incomplete');
    assert.deepEqual(summary.untested_examples, ['Every other year is a common year (2017, 2019).']);
    assert.match(cargoTestInClone(h.workspace, summary.branch), /test result: ok\. 3 passed/);
  });

  it('catches an overshoot and an Implementer editing the test module, and completes with the Tester’s tests as written', async () => {
    // Cycle 2: a new test that passes already (fizzbuzz(2) is "2" since cycle 1); then an Implementer that drops the
    // failing Fizz test from the module while writing the code.
    const alreadyPassing = `${RUST_FIZZBUZZ.steps[0]!.impl}\n${rustTests(
      {
        ...RUST_FIZZBUZZ,
        steps: [
          RUST_FIZZBUZZ.steps[0]!,
          { behaviour: 'two', impl: '', test: '#[test]\nfn two_is_itself() {\n    assert_eq!(fizzbuzz(2), "2");\n}\n' },
        ],
      },
      2,
    )}`;
    const weakened = `${RUST_FIZZBUZZ.steps[1]!.impl}\n${rustTests(RUST_FIZZBUZZ, 1)}`;
    const { summary } = await h.run(
      {
        cycles: rustKataCycles({ ...RUST_FIZZBUZZ, steps: RUST_FIZZBUZZ.steps.slice(0, 2) }),
        completeAfterLastCycle: true,
        overrides: {
          'tester:2:1': { writes: [{ path: 'src/lib.rs', content: alreadyPassing }], report: 'two is itself', runTests: true },
          'implementer:2:1': {
            writes: [{ path: 'src/lib.rs', content: weakened }],
            report: 'the Fizz test was in the way',
            runTests: true,
          },
        },
      },
      { kataPath: 'fizzbuzz', language: 'rust', maxCycles: 3 },
    );
    assert.equal(summary.totals.overshoots, 1, JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.slice(0, 2).map((c) => c.outcome),
      ['green', 'green'],
    );
    const requests = JSON.stringify(h.server.chatRequests());
    assert.match(requests, /The Implementer may not change the tests inside src\/lib\.rs \(its test module\)/);
    assert.equal(
      await fileOnBranch(h.workspace, summary.branch, 'src/lib.rs'),
      rustImplementerFile(RUST_FIZZBUZZ, 2),
      'the Tester’s module as written, the Implementer’s code above it',
    );
  });
});
