import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { SessionSummarySchema } from '../../../src/core/tdd/supervisor/sessionSummary';
import { fizzbuzzJs, JS, JS_SOURCE_PATH, JS_TEST_PATH } from '../../support/fizzbuzzPlans';
import { scriptedKataModel, type KataScript } from '../../support/scriptedKataModel';
import { contextOf, readOrNull, runWithReply, SessionHarness, turnOfRequest } from './sessionHarness';

/** Runs a script and snapshots the given files from disk the moment the model starts the given turn. */
async function runAndSnapshot(
  h: SessionHarness,
  script: KataScript,
  turn: { role: string; cycle: number; attempt: number },
  paths: string[],
) {
  const model = scriptedKataModel(script);
  const snapshot: Record<string, string | null> = {};
  let taken = false;
  const run = await runWithReply(h, async (req) => {
    const t = turnOfRequest(req);
    if (!taken && t.role === turn.role && t.cycle === turn.cycle && t.attempt === turn.attempt && t.step === 0) {
      taken = true;
      for (const path of paths) snapshot[path] = await readOrNull(join(h.worktree, path));
    }
    return model.reply(req);
  });
  assert.ok(taken, `the ${turn.role} turn ${turn.cycle}:${turn.attempt} was played`);
  return { ...run, played: model.played, snapshot };
}

describe('TDD supervisor: role boundaries enforced from the diff', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('rejects an implementer that edits a test file: restores the tester’s version byte for byte, asks again, then goes green', async () => {
    const weakened = JS.testFile(2).replace("assert.equal(fizzbuzz(9), 'Fizz');", '// 9 is hard');
    assert.notEqual(weakened, JS.testFile(2));
    const { summary, events, played, snapshot } = await runAndSnapshot(
      h,
      {
        cycles: fizzbuzzJs(2),
        overrides: {
          'implementer:2:1': {
            writes: [
              { path: JS_SOURCE_PATH, content: `export function fizzbuzz(n) {\n  return n === 3 ? 'Fizz' : String(n);\n}\n` },
              { path: JS_TEST_PATH, content: weakened },
            ],
            report: 'return Fizz for three',
          },
        },
      },
      { role: 'implementer', cycle: 2, attempt: 2 },
      [JS_TEST_PATH],
    );

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    SessionSummarySchema.parse(summary);
    assert.equal(summary.totals.violations, 1);
    const violation = events.find((e) => e.type === 'violation');
    assert.ok(
      violation &&
        violation.type === 'violation' &&
        violation.role === 'implementer' &&
        violation.cycle === 2 &&
        violation.attempt === 1,
    );
    assert.match(violation.reasons.join('\n'), /may not change test files, but test\/fizzbuzz\.test\.js was modified/);

    // The uncommitted red test is back exactly as the tester wrote it (not as HEAD has it) before the retry.
    assert.equal(snapshot[JS_TEST_PATH], JS.testFile(2));
    assert.deepEqual(
      played.filter((t) => t.role === 'implementer' && t.cycle === 2).map((t) => t.attempt),
      [1, 2],
    );
    const retry = contextOf(h.server, 'implementer', 2, 2);
    assert.match(
      retry,
      /# Your previous attempt was rejected\nYour changes were undone because they broke the role rules:\n- The Implementer may not change test files/,
    );
    const implementing = summary.cycles[1]!.phases.find((p) => p.role === 'implementer')!;
    assert.deepEqual([implementing.attempts, implementing.outcome], [2, 'green']);
    assert.equal(await h.git().show([`${summary.cycles[1]!.commit}:${JS_TEST_PATH}`]), JS.testFile(2));
  });

  it('rejects a tester that writes production code: undoes the whole turn, asks again, then goes on', async () => {
    const { summary, events, played, snapshot } = await runAndSnapshot(
      h,
      {
        cycles: fizzbuzzJs(2),
        overrides: {
          'tester:2:1': {
            writes: [
              { path: JS_TEST_PATH, content: JS.testFile(2) },
              { path: JS_SOURCE_PATH, content: JS.impl(2) },
            ],
            report: 'returns Fizz for multiples of three',
          },
        },
      },
      { role: 'tester', cycle: 2, attempt: 2 },
      [JS_TEST_PATH, JS_SOURCE_PATH],
    );

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.equal(summary.totals.violations, 1);
    assert.equal(summary.totals.overshoots, 0, 'the violation is caught from the diff before any test run');
    const violation = events.find((e) => e.type === 'violation');
    assert.ok(violation && violation.type === 'violation' && violation.role === 'tester' && violation.cycle === 2);
    assert.match(
      violation.reasons.join('\n'),
      /may only change test files, but src\/fizzbuzz\.js \(production code\) was modified/,
    );

    // Both files are back to the last green commit before the tester's second attempt.
    assert.deepEqual(snapshot, { [JS_TEST_PATH]: JS.testFile(1), [JS_SOURCE_PATH]: JS.impl(1) });
    assert.deepEqual(
      played.filter((t) => t.role === 'tester' && t.cycle === 2).map((t) => t.attempt),
      [1, 2],
    );
    assert.match(contextOf(h.server, 'tester', 2, 2), /The Tester may only change test files/);
    const testing = summary.cycles[1]!.phases.find((p) => p.role === 'tester')!;
    assert.deepEqual([testing.attempts, testing.outcome], [2, 'red']);
    // The implementer, not the tester, wrote the production code of cycle 2.
    assert.deepEqual(
      played.filter((t) => t.cycle === 2).map((t) => t.role),
      ['tester', 'tester', 'implementer', 'refactorer'],
    );
  });
});
