import { AgentError, toAgentError } from '../../errors/agentError';
import type { TestCounts } from '../events';
import type { CycleOutcome } from '../sessionVocabulary';
import type { SessionStatus } from '../../vocabulary';
import { Cancelled, LoopState } from '../phases/loopState';
import type { LoopSetup } from '../phases/loopSetup';
import { PhaseHost } from '../phases/phaseHost';
import type { CycleSoFar, PhaseSpec } from '../phases/phaseSpec';
import { runPhase } from '../phases/runPhase';
import { TDD_PHASES } from '../phases/tddPhases';
import { runBaseline } from './baseline';

/** Everything a {@link CycleLoop} works with. */
export interface CycleLoopOptions extends LoopSetup {
  /**
   * Says whether a protected path (see `protectedPaths.ts`) holds exactly what a tool call a person approved left there
   * (`ApprovedProtectedWrites.matches`). Before every commit, every other change of a protected path — a generated test
   * writing `.github/workflows/…` or `.npmrc` — is put back as HEAD has it, reported, and told to the next role.
   * Without it, no change of a protected path is kept.
   */
  approvedProtectedChange?: (path: string) => Promise<boolean>;
  /** The phases of a cycle, in order (default {@link TDD_PHASES}: red, green, refactor); e.g. a Reviewer's appended. */
  phases?: readonly PhaseSpec[];
}

/** How the cycles ended, with the test counts of the state they ended at and, when it did not end well, why. */
export interface CycleLoopResult {
  status: Exclude<SessionStatus, 'running'>;
  /** The counts of the state the session ends at: its last commit's (a failed cycle was rolled back), or the baseline's. */
  lastTests: TestCounts;
  error?: AgentError;
}

/**
 * Runs red-green-refactor cycles: each cycle runs its phases (`PhaseSpec`s, see `runPhase`) in order, until one ends
 * the cycle. The supervisor never trusts a role's report: after every turn it looks at the diff (role boundaries)
 * and runs the real tests itself, and only a green tree is ever committed.
 */
export class CycleLoop {
  private readonly state = new LoopState();
  private readonly host: PhaseHost;
  private readonly phases: readonly PhaseSpec[];
  private cycleInProgress: number | undefined;

  constructor(private readonly o: CycleLoopOptions) {
    this.host = new PhaseHost(o, this.state, o.approvedProtectedChange);
    this.phases = o.phases ?? TDD_PHASES;
  }

  /** Runs the baseline test run, then cycles until the kata is complete, a cycle fails twice in a row, or maxCycles. */
  async run(): Promise<CycleLoopResult> {
    const first = this.o.firstCycle ?? 1;
    try {
      await runBaseline(this.host.tests, this.state, (event) => this.o.emit(event), first);
      this.o.recorder.baseline(this.state.lastTests);

      let consecutiveFailures = 0;
      for (let n = first; n < first + this.o.maxCycles; n++) {
        const outcome = await this.runCycle(n);
        // The Tester found nothing left to test. A session is a success only when its last attempt went green, as at the
        // cycle limit below: right after a failed cycle, whose behaviour was rolled back, the task is not done.
        if (outcome === 'kata_complete')
          return consecutiveFailures === 0
            ? this.completedOrNot(n)
            : this.notGreen(
                `The last cycle failed to reach green, and then the Tester found nothing left to test; ${this.whereItStops('the workspace is at')}. The behaviour of the failed cycle is not in the branch: see the cycle history for its test output.`,
                n,
              );
        consecutiveFailures = outcome === 'failed' ? consecutiveFailures + 1 : 0;
        if (consecutiveFailures >= 2) {
          return this.notGreen(
            `Two cycles in a row failed to reach green; ${this.whereItStops('stopping at')}. See the cycle history for the test output.`,
            n,
          );
        }
      }
      // Reaching the cycle limit is a success only when the last cycle ended green.
      if (consecutiveFailures > 0) {
        return this.notGreen(
          `The last cycle failed to reach green before the cycle limit; ${this.whereItStops('the workspace is at')}.`,
          first + this.o.maxCycles - 1,
        );
      }
      return this.result('max_cycles');
    } catch (err) {
      if (err instanceof Cancelled || this.o.signal.aborted) {
        await this.o.git.rollbackToHead();
        this.state.rolledBack();
        this.abandonCycle('cancelled');
        return this.result('cancelled');
      }
      const error = toAgentError(err);
      await this.o.git.rollbackToHead().catch(() => undefined);
      this.state.rolledBack(); // what the branch holds, even when the worktree could not be put back
      this.abandonCycle('failed');
      this.o.emit({ type: 'error', error: error.toJSON() });
      return this.result('failed', error);
    }
  }

  /** Closes the cycle that was running when the loop stopped, so the history shows where it stopped. */
  private abandonCycle(outcome: 'cancelled' | 'failed'): void {
    const n = this.cycleInProgress;
    if (n === undefined) return;
    this.cycleInProgress = undefined;
    const counts = this.cycleCounts();
    this.o.recorder.finishCycle(outcome, counts.tests, counts.rolledBackTests);
    this.o.emit({ type: 'cycle_finished', cycle: n, outcome, ...counts });
  }

  /**
   * The counts a finished cycle reports: those of the state it ended at (after a rollback, the last commit's or the
   * baseline's), and, when its tree was rolled back, those of the rolled-back attempt.
   */
  private cycleCounts(): { tests: TestCounts; rolledBackTests?: TestCounts } {
    const { lastTests: tests, rolledBackTests } = this.state;
    return rolledBackTests ? { tests, rolledBackTests } : { tests };
  }

  /**
   * Where a failed session leaves the worktree, in words that are true: at its last green commit, or, when no cycle
   * (of this run or of the one it resumes) ever committed, where it began.
   */
  private whereItStops(lead: string): string {
    return this.o.recorder.state.metrics.commits > 0
      ? `${lead} the last green commit`
      : `no cycle reached green, so the session made no commit and its worktree is as it began`;
  }

  /**
   * The Tester found nothing left to test and the last cycle was green: `completed` when every example the kata states
   * has a test and no test that was red in the session is gone; else `incomplete` (INCOMPLETE), naming what is missing.
   */
  private completedOrNot(cycle: number): CycleLoopResult {
    const untested = this.state.untestedAtEnd.map((e) => e.text);
    const gone = this.o.recorder.state.goneRedTests ?? [];
    this.o.recorder.untestedExamples(untested);
    if (untested.length === 0 && gone.length === 0) return this.result('completed');
    const parts: string[] = [];
    if (untested.length)
      parts.push(
        `${untested.length} example${untested.length === 1 ? '' : 's'} the ${this.o.kata.task ? 'task' : 'kata'} states ${untested.length === 1 ? 'has' : 'have'} no test (asked once more, it answered KATA_COMPLETE again): ${untested.join('; ')}`,
      );
    if (gone.length)
      parts.push(
        `${gone.length} test${gone.length === 1 ? '' : 's'} that ${gone.length === 1 ? 'was' : 'were'} red in this session ${gone.length === 1 ? 'is' : 'are'} gone: ${gone.join('; ')}`,
      );
    return this.result(
      'incomplete',
      new AgentError(
        'INCOMPLETE',
        `The Tester found nothing left to test, but ${parts.join('; and ')}. Every commit on the branch is green; the session did not cover all it was asked for.`,
        { cycle, untested, gone },
      ),
    );
  }

  /** The session ends failed because its last attempt did not reach green (GREEN_NOT_REACHED): `why`, at cycle `cycle`. */
  private notGreen(why: string, cycle: number): CycleLoopResult {
    return this.result('failed', new AgentError('GREEN_NOT_REACHED', why, { cycle }));
  }

  private result(status: CycleLoopResult['status'], error?: AgentError): CycleLoopResult {
    return { status, lastTests: this.state.lastTests, error };
  }

  /** One cycle: its phases in order; the first that settles the cycle ends it, and a cycle all phases went through is green. */
  private async runCycle(n: number): Promise<CycleOutcome> {
    this.o.recorder.startCycle(n);
    this.cycleInProgress = n;
    this.state.cycleTestFiles = [];
    this.state.cycleRedTests = [];
    this.state.mustPassAgain = [];
    this.state.rolledBackTests = undefined;
    this.o.emit({ type: 'cycle_started', cycle: n });

    const cycle: CycleSoFar = { n };
    for (const spec of this.phases) {
      if (spec.when && !spec.when(cycle, this.host)) continue;
      const result = await runPhase(spec, this.host, cycle);
      const ended = await spec.settle?.(result, cycle, this.host);
      if (ended) return this.endCycle(n, ended, ended === 'green' ? (cycle.commit ?? null) : null);
    }
    return this.endCycle(n, 'green', cycle.commit ?? null);
  }

  private async endCycle(n: number, outcome: CycleOutcome, commit: string | null): Promise<CycleOutcome> {
    const counts = this.cycleCounts();
    this.o.recorder.finishCycle(outcome, counts.tests, counts.rolledBackTests);
    this.cycleInProgress = undefined;
    this.o.emit({ type: 'phase_changed', cycle: n, phase: 'DONE', attempt: 0 });
    this.o.emit({ type: 'cycle_finished', cycle: n, outcome, commit: commit ?? undefined, ...counts });
    await this.o.recorder.save();
    return outcome;
  }
}
