/** The session header's and the cycle timeline's helpers of the panel reducer. */
import type { CycleOutcome as CoreCycleOutcome, PhaseOutcome as CorePhaseOutcome, Role } from '../../../core/tddApi';
import type {
  PanelCycleOutcome,
  PanelCycleSummary,
  PanelPhaseOutcome,
  PanelSessionTotals,
  PanelState,
  SessionHeader,
  TokenUsageCounts,
} from '../../../shared/panelProtocol';

/** Totals of a session that has done nothing yet. */
export const NO_TOTALS: PanelSessionTotals = { testsPassed: 0, testsFailed: 0, tokens: 0, commits: 0 };

/** The state with its session header changed (no session: unchanged). */
export function withSession(state: PanelState, change: (session: SessionHeader) => SessionHeader): PanelState {
  return state.session ? { ...state, session: change(state.session) } : state;
}

/** The state with cycle `n` changed (created when it is not listed yet); a cycle number below 1 changes nothing. */
export function updateCycle(state: PanelState, n: number, change: (cycle: PanelCycleSummary) => PanelCycleSummary): PanelState {
  if (!Number.isInteger(n) || n < 1) return state;
  const existing = state.cycles.find((c) => c.n === n);
  const updated = change(existing ?? newCycle(n));
  const cycles = existing
    ? state.cycles.map((c) => (c.n === n ? updated : c))
    : [...state.cycles, updated].sort((a, b) => a.n - b.n);
  return { ...state, cycles };
}

/** The cycle with `role`'s phase changed (added when it has none yet). */
export function upsertPhase(
  cycle: PanelCycleSummary,
  role: Role,
  change: Partial<PanelCycleSummary['phases'][number]>,
): PanelCycleSummary {
  const existing = cycle.phases.find((p) => p.role === role);
  const updated = { ...(existing ?? { role, outcome: 'pending' as const, attempts: 0, duration_ms: 0 }), ...change };
  return { ...cycle, phases: existing ? cycle.phases.map((p) => (p.role === role ? updated : p)) : [...cycle.phases, updated] };
}

/** A cycle that has just started. */
export function newCycle(n: number): PanelCycleSummary {
  return { n, outcome: 'running', commit: null, tests: { passed: 0, failed: 0 }, phases: [] };
}

/** The session ended (`status`): cycles still running end cancelled or failed, and no approval stays open. */
export function closeRunningCycles(state: PanelState, status: SessionHeader['status']): PanelState {
  const outcome: PanelCycleOutcome = status === 'cancelled' ? 'cancelled' : 'failed';
  return { ...state, approvals: [], cycles: state.cycles.map((c) => (c.outcome === 'running' ? closeCycle(c, outcome) : c)) };
}

/** The cycle ended with `outcome`; its phases still open end with it. */
export function closeCycle(cycle: PanelCycleSummary, outcome: PanelCycleOutcome): PanelCycleSummary {
  const phaseEnd: PanelPhaseOutcome = outcome === 'cancelled' ? 'cancelled' : outcome === 'failed' ? 'failed' : 'passed';
  return {
    ...cycle,
    outcome,
    phases: cycle.phases.map((p) => (p.outcome === 'running' || p.outcome === 'pending' ? { ...p, outcome: phaseEnd } : p)),
  };
}

/** The core's phase outcome in the panel's vocabulary. */
export function phaseOutcome(outcome: CorePhaseOutcome): PanelPhaseOutcome {
  switch (outcome) {
    case 'red':
    case 'green':
    case 'refactored':
    case 'kata_complete':
      return 'passed';
    case 'no_change':
    case 'skipped':
      return 'skipped';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}

/** The core's cycle outcome in the panel's vocabulary. */
export function cycleOutcome(outcome: CoreCycleOutcome): PanelCycleOutcome {
  switch (outcome) {
    case 'green':
      return 'passed';
    case 'kata_complete':
      return 'complete';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}

/** `add` added to `total` (none yet: zero). */
export function addUsage(total: TokenUsageCounts | undefined, add: TokenUsageCounts): TokenUsageCounts {
  return { input: (total?.input ?? 0) + add.input, output: (total?.output ?? 0) + add.output };
}

/** A resumed session's header counts the tokens it had already used. */
export function withResumedTokens(totals: PanelSessionTotals, resumedTokens: number | undefined): PanelSessionTotals {
  return resumedTokens && resumedTokens > 0 ? { ...totals, tokens: totals.tokens + Math.round(resumedTokens) } : totals;
}

/** The first line of `text`, trimmed. */
export function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}
