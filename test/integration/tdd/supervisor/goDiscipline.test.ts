import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { GO_FIZZBUZZ, goKataCycles, goTestFile } from '../../../support/goKataPlans';
import { requireGo } from '../../../support/goToolchain';
import { SessionHarness } from './sessionHarness';

/** Cycle 1's test and a new one that passes already: FizzBuzz(2) is "2" since cycle 1. */
const alreadyPassing = `${goTestFile(GO_FIZZBUZZ, 1)}\nfunc TestTwoIsItself(t *testing.T) {\n\tif got := FizzBuzz(2); got != "2" {\n\t\tt.Errorf("FizzBuzz(2) = %q", got)\n\t}\n}\n`;

// The supervisor's discipline in Go, with real go test runs in the sandbox: a Tester's new test that passes at once is
// an overshoot (undone, asked again), and an Implementer that weakens the Tester's test is caught (the test file is
// the Tester's alone), as in JavaScript and Python.
describe('TDD supervisor: discipline in Go (overshoot, an Implementer editing a test)', function () {
  this.timeout(300_000);
  const h = new SessionHarness();
  before(function () {
    requireGo(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('catches both, and the session still completes with the Tester’s tests as written', async () => {
    const weakened = goTestFile(GO_FIZZBUZZ, 1); // the Implementer drops the failing Fizz test
    const { summary } = await h.run(
      {
        cycles: goKataCycles({ ...GO_FIZZBUZZ, steps: GO_FIZZBUZZ.steps.slice(0, 2) }),
        completeAfterLastCycle: true,
        overrides: {
          'tester:2:1': {
            writes: [{ path: GO_FIZZBUZZ.testFile, content: alreadyPassing }],
            report: 'two is itself',
            runTests: true,
          },
          'implementer:2:1': {
            writes: [{ path: GO_FIZZBUZZ.testFile, content: weakened }],
            report: 'the Fizz test was in the way',
            runTests: true,
          },
        },
      },
      { kataPath: 'fizzbuzz', language: 'go', maxCycles: 3 },
    );
    assert.equal(summary.totals.overshoots, 1, JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.slice(0, 2).map((c) => c.outcome),
      ['green', 'green'],
    );
    const requests = JSON.stringify(h.server.chatRequests());
    assert.match(requests, /The Implementer may not change test files/);
    const onBranch = execFileSync('git', ['show', `${summary.branch}:${GO_FIZZBUZZ.testFile}`], {
      cwd: h.workspace,
      encoding: 'utf8',
    });
    assert.equal(onBranch, goTestFile(GO_FIZZBUZZ, 2), 'the Tester’s test file, not the weakened one');
  });
});
