import type { CycleOutcome, PhaseOutcome, Role, TestCounts } from '../events';
import type { CycleSummary, SessionTotals } from './sessionSummary';

/** Accumulates what happened in a session: the cycles for the summary and the running totals. */
export class SessionTally {
  readonly cycles: CycleSummary[] = [];
  readonly totals: SessionTotals = { cycles: 0, commits: 0, tests_passed: 0, overshoots: 0, violations: 0, retries: 0, reverts: 0, tokens: 0 };
  private current: CycleSummary | undefined;

  startCycle(n: number): void {
    this.current = { n, outcome: 'failed', commit: null, tests: { passed: 0, failed: 0 }, phases: [] };
  }

  phase(role: Role, attempts: number, outcome: PhaseOutcome, durationMs: number): void {
    this.current?.phases.push({ role, attempts, outcome, duration_ms: Math.round(durationMs) });
  }

  finishCycle(outcome: CycleOutcome, tests: TestCounts, commit: string | null): CycleSummary | undefined {
    const cycle = this.current;
    if (!cycle) return undefined;
    cycle.outcome = outcome;
    cycle.tests = { passed: tests.passed, failed: tests.failed };
    cycle.commit = commit;
    this.cycles.push(cycle);
    this.current = undefined;
    this.totals.cycles = this.cycles.length;
    if (outcome === 'green') this.totals.tests_passed = tests.passed;
    return cycle;
  }

  /** Restores the tally of a resumed session. */
  static from(cycles: CycleSummary[], totals: SessionTotals): SessionTally {
    const tally = new SessionTally();
    tally.cycles.push(...cycles);
    Object.assign(tally.totals, totals);
    return tally;
  }
}
