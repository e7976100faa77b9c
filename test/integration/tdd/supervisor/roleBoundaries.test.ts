import { strict as assert } from 'node:assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RoleRunner, RoleRunners, RoleTurn } from '../../../../src/core/tdd/roles/roleRunner';
import { SessionSummarySchema } from '../../../../src/core/tdd/sessionSummary';
import { fizzbuzzJs, JS, JS_SOURCE_PATH, JS_TEST_PATH } from '../../../support/fizzbuzzPlans';
import { scriptedKataModel } from '../../../support/scriptedKataModel';
import { contextOf, fileOnBranch, runWithReply, SessionHarness } from './sessionHarness';

/**
 * Role runners that write their files straight into the session's worktree, past any hook (as a runner without an
 * agent may, or a tool the file rule does not judge): what a turn changed is then known from the diff alone. `plan`
 * gives each `role:cycle:attempt` its files; a turn without a plan changes nothing (the Tester then answers
 * KATA_COMPLETE, the others report). Every turn's context is kept by `role:cycle:attempt`.
 */
function diffOnlyRunners(
  h: SessionHarness,
  plan: Record<string, Record<string, string>>,
): { roles: RoleRunners; contexts: Map<string, string> } {
  const contexts = new Map<string, string>();
  const runner: RoleRunner = {
    async runTurn(turn: RoleTurn) {
      const key = `${turn.role}:${turn.cycle}:${turn.attempt}`;
      contexts.set(key, turn.context);
      const files = plan[key];
      if (!files) return { report: turn.role === 'tester' ? 'KATA_COMPLETE' : 'nothing to do' };
      for (const [path, content] of Object.entries(files)) {
        await mkdir(dirname(join(h.worktree, path)), { recursive: true });
        await writeFile(join(h.worktree, path), content);
      }
      return { report: `${turn.role} turn ${key}` };
    },
  };
  return { roles: { tester: runner, implementer: runner, refactorer: runner }, contexts };
}

describe('TDD supervisor: role boundaries enforced from the diff', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('an Implementer that did change a test file: a violation, that file alone put back byte for byte, its code stands, and it is told so', async () => {
    const weakened = JS.testFile(1).replace("assert.equal(fizzbuzz(1), '1');", '// 1 is hard');
    const { roles, contexts } = diffOnlyRunners(h, {
      'tester:1:1': { [JS_TEST_PATH]: JS.testFile(1) },
      'implementer:1:1': { [JS_SOURCE_PATH]: JS.impl(1), [JS_TEST_PATH]: weakened },
    });
    const { summary, events } = await runWithReply(h, () => ({ text: 'unused' }), { roles });

    SessionSummarySchema.parse(summary);
    assert.equal(summary.totals.violations, 1);
    const violation = events.find((e) => e.type === 'violation');
    assert.ok(
      violation?.type === 'violation' && violation.role === 'implementer' && violation.cycle === 1 && violation.attempt === 1,
    );
    assert.match(violation.reasons.join('\n'), /may not change test files, but test\/fizzbuzz\.test\.js was modified/);
    const retry = contexts.get('implementer:1:2')!;
    assert.match(
      retry,
      /# Your previous attempt was rejected\nYour change to test\/fizzbuzz\.test\.js was undone because it broke the role rules \(your other changes stand\):\n- The Implementer may not change test files/,
    );
    const implementing = summary.cycles[0]!.phases.find((p) => p.role === 'implementer')!;
    assert.deepEqual(
      [implementing.attempts, implementing.outcome],
      [2, 'green'],
      'attempt 2 changed nothing: the code that stood was green',
    );
    assert.equal(await fileOnBranch(h.workspace, summary.branch, JS_TEST_PATH), JS.testFile(1));
    assert.equal(await fileOnBranch(h.workspace, summary.branch, JS_SOURCE_PATH), JS.impl(1));
  });

  it('a Tester that did change production code: a violation, the whole turn undone, then it goes on', async () => {
    const { roles, contexts } = diffOnlyRunners(h, {
      'tester:1:1': { [JS_TEST_PATH]: JS.testFile(1), [JS_SOURCE_PATH]: JS.impl(1) },
      'tester:1:2': { [JS_TEST_PATH]: JS.testFile(1) },
      'implementer:1:1': { [JS_SOURCE_PATH]: JS.impl(1) },
    });
    const { summary, events } = await runWithReply(h, () => ({ text: 'unused' }), { roles });

    assert.equal(summary.totals.violations, 1);
    assert.equal(summary.totals.overshoots, 0, 'the violation is caught from the diff before any test run');
    const violation = events.find((e) => e.type === 'violation');
    assert.ok(violation?.type === 'violation' && violation.role === 'tester' && violation.cycle === 1);
    assert.match(violation.reasons.join('\n'), /may only change test files, but src\/fizzbuzz\.js \(production code\) was added/);
    assert.match(
      contexts.get('tester:1:2')!,
      /Your changes were undone because they broke the role rules:\n- The Tester may only change test files/,
    );
    const testing = summary.cycles[0]!.phases.find((p) => p.role === 'tester')!;
    assert.deepEqual([testing.attempts, testing.outcome], [2, 'red']);
    assert.equal(summary.cycles[0]!.outcome, 'green');
  });

  it('an Implementer’s test write refused beside a fix that does not pass yet: no violation, and the retry says exactly what stands', async () => {
    const almost = `export function fizzbuzz(n) {\n  return n === 3 ? 'Fizz' : String(n);\n}\n`;
    const { summary, events } = await runWithReply(
      h,
      scriptedKataModel({
        cycles: fizzbuzzJs(2),
        overrides: {
          'implementer:2:1': {
            writes: [
              { path: JS_SOURCE_PATH, content: almost },
              { path: JS_TEST_PATH, content: JS.testFile(1) },
            ],
            report: 'return Fizz for three',
          },
        },
      }).reply,
    );
    assert.equal(summary.cycles[1]!.outcome, 'green', JSON.stringify(summary.error));
    assert.equal(summary.totals.violations, 0, 'the refused write changed nothing');
    assert.ok(!events.some((e) => e.type === 'violation'));
    const retry = contextOf(h.server, 'implementer', 2, 2);
    assert.match(retry, /Attempt 1 did not make the tests pass/);
    assert.match(retry, /What stands of attempt 1's writes:\n- write_file src\/fizzbuzz\.js: applied; it stands\./);
    assert.match(
      retry,
      /- write_file test\/fizzbuzz\.test\.js: refused by the role rules, it changed nothing: The Implementer may not change test files/,
    );
    assert.doesNotMatch(retry, /changes were undone/);
    assert.equal(await fileOnBranch(h.workspace, summary.branch, JS_TEST_PATH), JS.testFile(2));
  });
});
