import type { TestCaseResult, TestRunResult } from '../../testRunners/types';
import { checkRoleBoundary } from '../boundaries';
import { reportLabel } from '../roles/roleRunner';
import { behaviourOf, isFileEntry, suiteStateOf } from '../judging/testJudgement';
import { counts, type LoopState } from './loopState';
import type { PhaseSpec } from './phaseSpec';
import { describeRedTest, isRedTest } from './redTests';
import { describeRun } from './testRuns';

/**
 * The tests a green run holds that pass and did not pass at the last green state: what its commit adds. Undefined when
 * the run does not say test by test (then `newlyPassing` counts).
 */
function newlyPassing(state: LoopState, run: TestRunResult): TestCaseResult[] | undefined {
  if (!run.tests || !state.suite.identified) return undefined;
  return run.tests.filter((t) => t.outcome === 'passed' && !state.suite.passing.has(t.id) && !isFileEntry(t));
}

/**
 * Why a green run may not be committed although every test passes: no test passes in it that did not pass before (the
 * commit would hold no test of its behaviour: the red test is gone, or there never was one), or tests that passed
 * before the cycle's red and did not run in it (their file did not load) do not pass again. Undefined when it may.
 */
function withoutItsTest(state: LoopState, run: TestRunResult): string | undefined {
  const added = newlyPassing(state, run);
  const red = state.cycleRedTests.map(describeRedTest).join(', ') || 'none named';
  if (added ? added.length === 0 : run.passed <= state.committedTests.passed)
    return `No test passes here that did not pass before (${run.passed} passing, as at the last commit; the cycle's red test: ${red}), so a commit would hold no test of a new behaviour. The cycle was rolled back; nothing of it reaches the branch.`;
  if (run.tests && state.mustPassAgain.length) {
    const passing = new Set(run.tests.filter((t) => t.outcome === 'passed').map((t) => t.id));
    const missing = state.mustPassAgain.filter((id) => !passing.has(id));
    if (missing.length)
      return `These tests passed before the Tester's change stopped their file from loading, and do not pass now: ${missing.slice(0, 10).join(', ')}.`;
  }
  return undefined;
}

/** The test a green commit is named after: the cycle's red test when it passes here, else the first new passing one. */
function committedTest(state: LoopState, run: TestRunResult): TestCaseResult | undefined {
  const added = newlyPassing(state, run) ?? [];
  return added.find((t) => state.cycleRedTests.some((red) => isRedTest(red, t))) ?? added[0];
}

/**
 * Green: the Implementer makes the smallest production change that passes every test, without touching tests (an
 * edit of a test file is undone alone, the production changes stay). Accepted when the whole suite is green, no test
 * was removed, a test passes that did not pass before (the commit's own test: without one the cycle goes back, never
 * reaching the branch) and the quality gates pass; then the cycle commits `feat: <the test it adds>`. A cycle whose
 * green failed is rolled back to the last green commit.
 */
export const greenPhase: PhaseSpec = {
  name: 'green',
  role: 'implementer',
  phase: 'IMPLEMENTING',
  maxAttempts: 3,
  exhausted: 'failed',
  files: (changes, kata) => checkRoleBoundary('implementer', changes, { kata }),
  restoreOnViolation: 'paths',
  probe: {
    run: (files, cycle, host) => host.tests.beforeCommit('implementer', cycle.n, files),
    reached: (tests, host) => host.tests.isGreen(tests),
  },
  // Attempt 1 has no rejection to report: the context shows the Tester's red run as the last test output.
  async judge({ attempt, report, files, probed, checkpoint }, cycle, host) {
    const { state } = host;
    const n = cycle.n;
    const redTotal = state.lastTests.total;
    const tests = probed ?? (await host.tests.beforeCommit('implementer', n, files));
    const green = host.tests.isGreen(tests);
    const fewer = green ? checkRoleBoundary('implementer', [], { testsBefore: redTotal, testsAfter: tests.total }) : [];
    if (fewer.length) return { kind: 'retry', hint: await host.violation(n, 'implementer', attempt, fewer, checkpoint) };
    if (!green) {
      state.turnOutcome.error = {
        error_code: tests.status === 'timeout' ? 'TIMEOUT' : 'EXECUTION_FAILED',
        message: `The tests did not pass after the last attempt (${describeRun(tests)}).`,
      };
      return {
        kind: 'retry',
        hint: `Attempt ${attempt} did not make the tests pass (${describeRun(tests)}). Test output:\n${tests.output}`,
      };
    }
    const rejected = withoutItsTest(state, tests);
    if (rejected) {
      // The Implementer cannot add a test: no attempt of its mends this. The cycle goes back (see settle).
      state.turnOutcome.error = { error_code: 'EXECUTION_FAILED', message: rejected };
      cycle.rejected = rejected;
      return { kind: 'fail', outcome: 'failed' };
    }
    const gate = await host.qualityGates(n);
    if (gate) {
      state.turnOutcome.error = { error_code: 'QUALITY_GATE_FAILED', message: `The quality gate '${gate.command}' failed.` };
      return { kind: 'retry', hint: `The tests pass, but the quality gate failed:\n${gate.output}` };
    }
    // The commit is named after the test it adds (the cycle's red test, as it passes here).
    const named = committedTest(state, tests);
    if (named) cycle.behaviour = behaviourOf(named);
    state.lastTests = counts(tests);
    state.suite = suiteStateOf(tests, state.suite.knownFailures);
    host.tests.committed(tests);
    state.mustPassAgain = [];
    cycle.label = reportLabel(report, 'make the test pass');
    return { kind: 'accept', outcome: 'green' };
  },
  async settle(result, cycle, host) {
    const { setup } = host;
    if (result.outcome !== 'green') {
      await host.commits.rollback();
      setup.recorder.count('reverts', 'implementer');
      setup.emit({
        type: 'reverted',
        cycle: cycle.n,
        role: 'implementer',
        reason: cycle.rejected ?? 'No green state after the last attempt: the cycle was rolled back to the last green commit.',
      });
      return 'failed';
    }
    const behaviour = cycle.behaviour ?? '';
    setup.recorder.behaviour(behaviour);
    const message = `feat: ${behaviour}\n\ntest: ${behaviour}\nimplementation: ${cycle.label}`;
    cycle.commit = (await host.commits.commit(cycle.n, message, 'green')) ?? cycle.commit;
    return undefined;
  },
};
