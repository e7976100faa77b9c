import { strict as assert } from 'node:assert';
import { fizzbuzzJs, JS, JS_SOURCE_PATH, JS_TEST_PATH } from '../../../support/fizzbuzzPlans';
import { contextOf, SessionHarness } from './sessionHarness';

/** Fails (and says why) while src/fizzbuzz.js holds a TODO. */
const NO_TODO_GATE = `node -e "const fs = require('fs'); const f = 'src/fizzbuzz.js'; if (fs.existsSync(f) && fs.readFileSync(f, 'utf8').includes('TODO')) { console.error('gate: ' + f + ' still has a TODO'); process.exit(1); }"`;

describe('TDD supervisor: quality gates', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('sends a failing gate back to the implementer as the hint; the next attempt passes the gate and is committed', async () => {
    const withTodo = `export function fizzbuzz(n) {\n  // TODO: handle Fizz\n  return String(n);\n}\n`;
    const { summary, events, played } = await h.run(
      {
        cycles: fizzbuzzJs(1),
        overrides: {
          'implementer:1:1': { writes: [{ path: JS_SOURCE_PATH, content: withTodo }], report: 'return the number as a string' },
        },
      },
      { qualityGates: [NO_TODO_GATE] },
    );

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    const gateFailures = events.filter((e) => e.type === 'quality_gate_failed');
    assert.equal(gateFailures.length, 1);
    assert.ok(
      gateFailures[0]!.type === 'quality_gate_failed' &&
        gateFailures[0]!.cycle === 1 &&
        gateFailures[0]!.command === NO_TODO_GATE,
    );
    assert.match(gateFailures[0]!.output, /exit code 1[\s\S]*gate: src\/fizzbuzz\.js still has a TODO/);

    // The tests were green on attempt 1; only the gate sent the implementer back.
    const implementerRuns = events.filter((e) => e.type === 'test_run_finished' && e.role === 'implementer' && e.cycle === 1);
    assert.ok(
      implementerRuns.length >= 1 && implementerRuns.every((e) => e.type === 'test_run_finished' && e.tests.status === 'passed'),
    );
    assert.deepEqual(
      played.filter((t) => t.role === 'implementer').map((t) => t.attempt),
      [1, 2],
    );
    const retry = contextOf(h.server, 'implementer', 1, 2);
    assert.match(retry, /# Your previous attempt was rejected\nThe tests pass, but the quality gate failed:/);
    assert.match(retry, /gate: src\/fizzbuzz\.js still has a TODO/);
    assert.equal(summary.totals.retries, 1);
    assert.equal(
      await h.git().show([`${summary.cycles[0]!.commit}:${JS_SOURCE_PATH}`]),
      JS.impl(1),
      'the commit passed the gate',
    );

    // Per-role results: what each turn achieved, in the summary (`--json`).
    const [tester, implementer] = summary.cycles[0]!.phases;
    assert.deepEqual(
      { ...tester, duration_ms: 0 },
      {
        role: 'tester',
        attempts: 1,
        outcome: 'red',
        duration_ms: 0,
        success: true,
        files_modified: [JS_TEST_PATH],
        tests_passed: 0,
        overshoot_detected: false,
        commits_made: [],
      },
    );
    assert.equal(implementer!.success, true);
    assert.deepEqual(implementer!.files_modified, [JS_SOURCE_PATH]);
    assert.equal(implementer!.tests_passed, 1);
    assert.deepEqual(implementer!.commits_made, [summary.cycles[0]!.commit]);
    assert.equal(implementer!.error, undefined, 'a turn that succeeded in the end has no error');
  });

  it('a gate that never passes: the implementer’s turn fails with QUALITY_GATE_FAILED, and nothing is committed', async () => {
    const { summary } = await h.run(
      { cycles: fizzbuzzJs(1), completeAfterLastCycle: false },
      { qualityGates: ['node -e "process.exit(3)"'], maxCycles: 1 },
    );
    assert.equal(summary.status, 'failed');
    assert.equal(summary.error?.error_code, 'GREEN_NOT_REACHED');
    // No cycle ever committed: the message says so instead of naming a "last green commit" there is none of.
    assert.equal(
      summary.error?.message,
      'The last cycle failed to reach green before the cycle limit; no cycle reached green, so the session made no commit and its worktree is as it began.',
    );
    const implementer = summary.cycles[0]!.phases.find((p) => p.role === 'implementer')!;
    assert.equal(implementer.success, false);
    assert.equal(implementer.error?.error_code, 'QUALITY_GATE_FAILED');
    assert.match(implementer.error!.message, /process\.exit\(3\)/);
    assert.deepEqual(implementer.commits_made, []);
    assert.equal(summary.totals.commits, 0);
  });
});
