import type { TestRunResult } from '../../testRunners/types';
import { truncateHeadTail } from '../../testRunners/truncateOutput';
import type { ChangedFile } from '../git/changedFiles';
import { checkRoleBoundary, type BoundaryViolation } from '../boundaries';
import { reportLabel } from '../roles/roleRunner';
import { behaviourOf, judgeRed, testNames } from '../supervisor/testJudgement';
import { counts } from './loopState';
import type { PhaseSpec } from './phaseSpec';
import { TESTER_FIXABLE } from './testRuns';

const KATA_COMPLETE = /^\W*KATA_COMPLETE\b/i;
/** Characters of runner output a Tester retry carries. */
const RUNNER_ERROR_HINT_CHARS = 2_000;
/** A file a runner could load as tests. */
const CODE_FILE = /\.([cm]?[jt]sx?|py)$/;

/**
 * Why the Tester's new test did not run, when the whole suite ran no more tests than before and a code file the Tester
 * added has no test in a run that says test by test which files ran (a test script that names its files, `mocha
 * test/test.js`, or a runner that collects other files); undefined otherwise.
 */
function testFilesNotRun(changes: readonly ChangedFile[], tests: TestRunResult, testsBefore: number): string | undefined {
  if (tests.scope === 'related' || tests.total > testsBefore) return undefined;
  const ran = new Set((tests.tests ?? []).flatMap((t) => (t.file ? [t.file] : [])));
  if (ran.size === 0) return undefined;
  const missing = changes.filter((c) => c.change === 'added' && CODE_FILE.test(c.path) && !ran.has(c.path)).map((c) => c.path);
  if (missing.length === 0) return undefined;
  const files = [...ran].sort();
  const shown = files.length > 5 ? `${files.slice(0, 5).join(', ')} and ${files.length - 5} more` : files.join(', ');
  return `Your new test file ${missing.join(', ')} did not run: \`${tests.command}\` runs ${shown} only, so your test never ran (${tests.passed} passing, as before). It was undone. Write the test in a file the test command runs (${files[0]}).`;
}

/**
 * Red: the Tester writes one new failing test, changing test files only. No change with `KATA_COMPLETE` ends the
 * kata; a passing suite is an overshoot; a test that cannot run, times out, removes tests, breaks old ones or adds
 * several failing ones goes back to the Tester. A cycle whose red failed is rolled back.
 */
export const redPhase: PhaseSpec = {
  name: 'red',
  role: 'tester',
  phase: 'TESTING',
  maxAttempts: 3,
  exhausted: 'failed',
  files: (changes, kata) => checkRoleBoundary('tester', changes, { kata }),
  probe: {
    run: (files, cycle, host) => host.tests.afterTester(cycle.n, files),
    reached: (tests, host) => host.tests.isRed(tests),
  },
  async judge({ attempt, report, changes, files, probed, checkpoint }, cycle, host) {
    const { state, setup } = host;
    const n = cycle.n;
    if (changes.length === 0) {
      if (KATA_COMPLETE.test(report)) return { kind: 'accept', outcome: 'kata_complete' };
      return {
        kind: 'retry',
        hint: 'You made no change. Write exactly one new failing test (edit_file in an existing test file, write_file for a new one), or answer KATA_COMPLETE if every behaviour is covered.',
      };
    }
    const tests = probed ?? (await host.tests.afterTester(n, files));
    if (tests.status === 'timeout') {
      await checkpoint.restore();
      state.turnOutcome.error = { error_code: 'TIMEOUT', message: 'The tests timed out after the tester’s change.' };
      return {
        kind: 'retry',
        hint: `The tests timed out after your change (${tests.reason ?? 'no output'}). Write a test that finishes quickly.`,
      };
    }
    if (tests.status === 'error' && tests.errorKind && TESTER_FIXABLE.has(tests.errorKind)) {
      // The Implementer may not touch tests, so it could never fix this: the Tester gets it back.
      await checkpoint.restore();
      return {
        kind: 'retry',
        hint: `Your test could not run (${tests.reason ?? tests.errorKind}), so it was undone. Fix it and write it again. Runner output:\n${truncateHeadTail(tests.output, RUNNER_ERROR_HINT_CHARS)}`,
      };
    }
    const fewer =
      tests.status === 'error'
        ? []
        : tests.scope === 'related'
          ? checkRoleBoundary('tester', [], host.tests.relatedTestCounts(tests))
          : checkRoleBoundary('tester', [], { testsBefore: state.lastTests.total, testsAfter: tests.total });
    if (fewer.length) return { kind: 'retry', hint: await host.violation(n, 'tester', attempt, fewer, checkpoint) };
    const verdict = tests.status === 'failed' ? judgeRed(state.suite, tests) : { kind: 'unidentified' as const };
    if (verdict.kind === 'broke_old' || verdict.kind === 'too_many') {
      const violation: BoundaryViolation =
        verdict.kind === 'broke_old'
          ? {
              rule: 'tester_broke_tests',
              message: `Your change made tests fail that passed before; keep every earlier test passing and add one new failing test:\n${testNames(verdict.tests)}`,
            }
          : {
              rule: 'tester_added_several_failing',
              message: `${verdict.tests.length} new tests fail; write exactly one new failing test per cycle (one behaviour):\n${testNames(verdict.tests)}`,
            };
      return { kind: 'retry', hint: await host.violation(n, 'tester', attempt, [violation], checkpoint) };
    }
    if (tests.status === 'passed' || verdict.kind === 'overshoot') {
      const notRun = testFilesNotRun(changes, tests, state.lastTests.total);
      if (notRun) {
        // Not an overshoot: the test never ran (`mocha test/test.js` runs only the file it names).
        await checkpoint.restore();
        return { kind: 'retry', hint: notRun };
      }
      setup.recorder.count('overshoots', 'tester');
      const reason = `Overshoot: your new test passed without any production change (${tests.passed} passing), so it does not specify new behaviour. Write a test for behaviour that is not implemented yet.`;
      setup.emit({ type: 'overshoot', cycle: n, attempt, reason });
      await checkpoint.restore();
      return { kind: 'retry', hint: reason };
    }
    // failed, or could not run because the production code does not exist yet: both are red.
    state.lastTests = tests.scope === 'related' ? host.tests.suiteCountsWith(tests) : counts(tests);
    state.turnOutcome.testsPassed = state.lastTests.passed;
    state.cycleTestFiles = files.testFiles;
    cycle.behaviour =
      verdict.kind === 'red'
        ? behaviourOf(verdict.test)
        : report.trim()
          ? reportLabel(report, 'new behaviour')
          : ((await host.tests.newTestTitle(files.testFiles)) ?? 'new behaviour');
    return { kind: 'accept', outcome: 'red' };
  },
  async settle(result, _cycle, host) {
    if (result.outcome === 'red') return undefined;
    if (result.outcome === 'kata_complete') return 'kata_complete';
    await host.commits.rollback();
    return 'failed';
  },
};
