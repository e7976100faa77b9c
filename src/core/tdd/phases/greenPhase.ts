import { checkRoleBoundary } from '../boundaries';
import { reportLabel } from '../roles/roleRunner';
import { suiteStateOf } from '../supervisor/testJudgement';
import { counts } from './loopState';
import type { PhaseSpec } from './phaseSpec';
import { describeRun } from './testRuns';

/**
 * Green: the Implementer makes the smallest production change that passes every test, without touching tests (an
 * edit of a test file is undone alone, the production changes stay). Accepted when the whole suite is green, no test
 * was removed and the quality gates pass; then the cycle commits `feat: <behaviour>`. A cycle whose green failed is
 * rolled back to the last green commit.
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
    const gate = await host.qualityGates(n);
    if (gate) {
      state.turnOutcome.error = { error_code: 'QUALITY_GATE_FAILED', message: `The quality gate '${gate.command}' failed.` };
      return { kind: 'retry', hint: `The tests pass, but the quality gate failed:\n${gate.output}` };
    }
    state.lastTests = counts(tests);
    state.suite = suiteStateOf(tests, state.suite.knownFailures);
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
        reason: 'No green state after the last attempt: the cycle was rolled back to the last green commit.',
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
