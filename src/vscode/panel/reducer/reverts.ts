/**
 * A role's change the supervisor undid (`reverted`) as the cycle timeline says it: the phase stays "Reverted" when the
 * role then gave up or changed nothing more, and a refactoring's revert says why in a person's words ("Refactoring
 * reverted: it broke 1 test (returns Fizz for 3)"), from the run that judged it.
 */
import { redactSecrets } from '../../../core';
import type { SupervisorEvent } from '../../../core/tddApi';
import type { PanelCycleSummary, PanelState, PhaseSummary, TestRunRecord } from '../../../shared/panelProtocol';
import { phaseOutcome, updateCycle, upsertPhase } from './cycles';
import { clip, MAX_SUMMARY_CHARS } from './history';

type EventOf<T extends SupervisorEvent['type']> = Extract<SupervisorEvent, { type: T }>;

/** The role's phase marked reverted; a refactoring's with why. */
export function revertedPhase(state: PanelState, event: EventOf<'reverted'>): PanelState {
  const reverted =
    event.role === 'refactorer'
      ? { reverted: clip(redactSecrets(`Refactoring reverted: ${refactoringRevertWords(state, event)}`), MAX_SUMMARY_CHARS) }
      : {};
  return updateCycle(state, event.cycle, (c) => upsertPhase(c, event.role, { outcome: 'reverted', ...reverted }));
}

/**
 * The phase as it ended. A reverted refactoring whose next attempts made no change or gave up (`skipped`) ends reverted,
 * with its reason: nothing of it stands, and "Skipped" would hide that it broke something. A later attempt that stood (or a
 * failed phase) says so instead, without the earlier revert's reason.
 */
export function finishedPhase(cycle: PanelCycleSummary, event: EventOf<'phase_finished'>): PanelCycleSummary {
  const existing = cycle.phases.find((p) => p.role === event.role);
  const outcome = phaseOutcome(event.outcome);
  const timing = { attempts: event.attempts, duration_ms: Math.max(0, Math.round(event.durationMs)) };
  // The next attempt ran meanwhile (its phase "running"); the revert's reason stayed with the phase.
  if (existing?.reverted !== undefined && outcome === 'skipped')
    return upsertPhase(cycle, event.role, { outcome: 'reverted', ...timing });
  const updated = upsertPhase(cycle, event.role, { outcome, ...timing });
  return { ...updated, phases: updated.phases.map((p) => (p.role === event.role ? withoutReason(p) : p)) };
}

function withoutReason(phase: PhaseSummary): PhaseSummary {
  if (phase.reverted === undefined) return phase;
  const { reverted: _gone, ...rest } = phase;
  return rest;
}

/** Why the refactoring was undone, from the supervisor's reason and the run that judged it. */
function refactoringRevertWords(state: PanelState, event: EventOf<'reverted'>): string {
  const fewer = /went down from (\d+) to (\d+)/.exec(event.reason);
  if (fewer) return `it left fewer tests (${fewer[2]} of ${fewer[1]})`;
  if (/quality gate/i.test(event.reason)) return 'a quality gate failed after it';
  if (/ended with an error/.test(event.reason)) return 'its turn ended with an error';
  const run = lastRun(state, event.cycle, event.role);
  if (run?.status === 'timeout') return 'the tests timed out';
  if (run?.status === 'error') return 'the tests could not run';
  if (run && run.failed > 0) {
    const names = (run.failingTests ?? []).map((name) => name.split(' > ').at(-1)!.trim());
    const more = run.failed > names.length && names.length > 0 ? ', …' : '';
    return `it broke ${run.failed} ${run.failed === 1 ? 'test' : 'tests'}${names.length > 0 ? ` (${names.join(', ')}${more})` : ''}`;
  }
  const reason = event.reason.trim();
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}

/** The role's last supervisor test run of the cycle in the history. */
function lastRun(state: PanelState, cycle: number, role: string): TestRunRecord | undefined {
  for (let i = state.actions.length - 1; i >= 0; i--) {
    const action = state.actions[i]!;
    if (action.kind === 'testRun' && action.role === role && action.cycle === cycle) return action;
  }
  return undefined;
}
