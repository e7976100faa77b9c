import { checkRoleBoundary } from '../boundaries';
import { reportLabel } from '../roles/roleRunner';
import { suiteStateOf } from '../judging/testJudgement';
import { counts } from './loopState';
import type { PhaseSpec } from './phaseSpec';
import { describeRun } from './testRuns';

/**
 * Refactor: one behaviour-preserving change by the Refactorer (code and tests, but no test file deleted), kept and
 * committed as `refactor: <label>` only when the whole suite stays green, no test was removed and the quality gates
 * pass; otherwise reverted and tried again. No change is a good answer; giving up skips it. Never fatal.
 */
export const refactorPhase: PhaseSpec = {
  name: 'refactor',
  role: 'refactorer',
  phase: 'REFACTORING',
  maxAttempts: 3,
  exhausted: 'skipped',
  files: (changes, kata) => checkRoleBoundary('refactorer', changes, { kata }),
  async judge({ report, changes, files, checkpoint }, cycle, host) {
    const { state, setup } = host;
    const n = cycle.n;
    // NO_REFACTOR is the polite form of "no change"; only the diff counts.
    if (changes.length === 0) return { kind: 'accept', outcome: 'no_change' };
    const tests = await host.tests.beforeCommit('refactorer', n, files);
    const green = host.tests.isGreen(tests);
    const fewer =
      green && checkRoleBoundary('refactorer', [], { testsBefore: state.lastTests.total, testsAfter: tests.total }).length > 0;
    const gate = green && !fewer ? await host.qualityGates(n) : undefined;
    if (green && !fewer && !gate) {
      state.lastTests = counts(tests);
      state.suite = suiteStateOf(tests, state.suite.knownFailures);
      const sha = await host.commits.commit(n, `refactor: ${reportLabel(report, 'tidy up')}`, 'refactor');
      if (sha) cycle.commit = cycle.refactorCommit = sha;
      // Only protected files had changed, and they were put back: nothing was refactored.
      return { kind: 'accept', outcome: sha ? 'refactored' : 'no_change' };
    }
    const reason = fewer
      ? `The number of tests went down from ${state.lastTests.total} to ${tests.total}.`
      : gate
        ? `The quality gate failed after the refactoring:\n${gate.output}`
        : `The refactoring broke the tests (${describeRun(tests)}):\n${tests.output}`;
    state.turnOutcome.error = gate
      ? { error_code: 'QUALITY_GATE_FAILED', message: `The quality gate '${gate.command}' failed after the refactoring.` }
      : { error_code: tests.status === 'timeout' ? 'TIMEOUT' : 'EXECUTION_FAILED', message: reason.split('\n')[0]! };
    await checkpoint.restore();
    setup.recorder.count('reverts', 'refactorer');
    setup.emit({ type: 'reverted', cycle: n, role: 'refactorer', reason: reason.split('\n')[0]! });
    return { kind: 'retry', hint: `Your previous refactoring was reverted. ${reason}` };
  },
};
