import { strict as assert } from 'node:assert';
import { SessionSummarySchema } from '../../../../src/core/tdd/sessionSummary';
import { fizzbuzzJs, JS, JS_SOURCE_PATH } from '../../../support/fizzbuzzPlans';
import type { CyclePlan } from '../../../support/scriptedKataModel';
import { contextOf, fileInContext, SessionHarness, testEveryCommit } from './sessionHarness';

/** Wrong on 9 (only 3 is Fizz), then wrong on case: both keep the cycle-2 test red. */
const onlyThree = `export function fizzbuzz(n) {\n  if (n === 3) return 'Fizz';\n  return String(n);\n}\n`;
const lowerCase = `export function fizzbuzz(n) {\n  if (n % 3 === 0) return 'fizz';\n  return String(n);\n}\n`;
/** A "refactoring" that changes behaviour: plain numbers come back as numbers. */
const brokenRefactor = `export function fizzbuzz(n) {\n  return n % 3 === 0 ? 'Fizz' : n;\n}\n`;
const goodRefactor = `const FIZZ = 'Fizz';\n\nexport function fizzbuzz(n) {\n  return n % 3 === 0 ? FIZZ : String(n);\n}\n`;

describe('TDD supervisor: an implementer that fails twice, and a refactoring that goes red once', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('retries with the failing output as the hint, reverts the red refactoring, and never commits failing tests', async () => {
    const cycles: CyclePlan[] = fizzbuzzJs(2);
    cycles[1]!.refactorer = { writes: [{ path: JS_SOURCE_PATH, content: goodRefactor }], report: 'name the Fizz constant' };
    const { summary, events, played } = await h.run({
      cycles,
      overrides: {
        'implementer:2:1': { writes: [{ path: JS_SOURCE_PATH, content: onlyThree }], report: 'return Fizz for three' },
        'implementer:2:2': {
          writes: [{ path: JS_SOURCE_PATH, content: lowerCase }],
          report: 'return fizz for multiples of three',
        },
        'refactorer:2:1': { writes: [{ path: JS_SOURCE_PATH, content: brokenRefactor }], report: 'simplify to one expression' },
      },
    });

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    SessionSummarySchema.parse(summary);
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'green', 'kata_complete'],
    );
    const phases = summary.cycles[1]!.phases;
    assert.deepEqual(
      phases.map((p) => [p.role, p.attempts, p.outcome]),
      [
        ['tester', 1, 'red'],
        ['implementer', 3, 'green'],
        ['refactorer', 2, 'refactored'],
      ],
    );
    assert.equal(summary.totals.retries, 3, 'two implementer retries and one refactorer retry');
    assert.equal(summary.totals.reverts, 1);
    assert.equal(summary.totals.violations, 0);
    assert.deepEqual(
      played.filter((t) => t.role === 'implementer' && t.cycle === 2).map((t) => t.attempt),
      [1, 2, 3],
    );

    // Each retry's context carries the previous attempt's failing test output.
    const second = contextOf(h.server, 'implementer', 2, 2);
    assert.match(second, /# Your previous attempt was rejected\nAttempt 1 did not make the tests pass \(1 failing, 1 passing\)/);
    assert.match(second, /not ok \d+ - returns Fizz for multiples of three/);
    assert.match(second, /'9'/, 'the assertion diff of fizzbuzz(9) is in the hint');
    const third = contextOf(h.server, 'implementer', 2, 3);
    assert.match(third, /Attempt 2 did not make the tests pass/);
    assert.match(third, /'fizz'/, 'the hint shows what attempt 2 returned');

    // The red refactoring was reverted to the green code before the refactorer tried again.
    const reverted = events.find((e) => e.type === 'reverted');
    assert.ok(reverted && reverted.type === 'reverted' && reverted.role === 'refactorer' && reverted.cycle === 2);
    assert.equal(fileInContext(contextOf(h.server, 'refactorer', 2, 2), JS_SOURCE_PATH), JS.impl(2));
    assert.match(
      contextOf(h.server, 'refactorer', 2, 2),
      /Your previous refactoring was reverted\. The refactoring broke the tests/,
    );

    // No commit on the session branch has failing tests: check out each one in a scratch clone and run them.
    const history = await testEveryCommit(h.workspace, summary.branch);
    assert.deepEqual(
      history.map((c) => c.subject.split(':')[0]),
      ['chore', 'chore', 'feat', 'feat', 'refactor'],
    );
    for (const commit of history)
      assert.equal(commit.exitCode, 0, `${commit.subject} (${commit.sha}) has failing tests:\n${commit.output}`);
    assert.ok(history.slice(2).every((c) => /# fail 0/.test(c.output) && /# pass [1-9]/.test(c.output)));
    assert.equal(await h.git().show([`${summary.branch}:${JS_SOURCE_PATH}`]), goodRefactor);
  });
});
