/**
 * What the status bar item says for a panel state: cycle n/N, phase, tests passed/failed and tokens
 * while a kata runs; the final status afterwards. Pure (no `vscode`).
 */
import { PHASE_LABELS } from '../../core/tddApi';
import type { PanelState } from '../../shared/panelProtocol';

/** Text, tooltip and whether the item is shown. Codicons are written as `$(name)`. */
export interface StatusView {
  visible: boolean;
  text: string;
  tooltip: string;
}

const STATUS_LABEL: Record<string, string> = {
  completed: 'done',
  incomplete: 'incomplete',
  max_cycles: 'max cycles',
  failed: 'failed',
  cancelled: 'stopped',
};

/** Tokens as 1234 → "1.2k". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** The status bar view of `state`. */
export function statusView(state: PanelState): StatusView {
  const session = state.session;
  if (!session) return { visible: true, text: '$(beaker) TDD', tooltip: 'TDD Agent: open the panel' };
  const { totals } = session;
  const tests = `✓${totals.testsPassed} ✗${totals.testsFailed}`;
  const tokens = `${formatTokens(totals.tokens)} tok`;
  // The kata's own max_cycles is known from session_started on; until then, only the cycle.
  const cycle = session.maxCycles > 0 ? `${session.cycle}/${session.maxCycles}` : `${session.cycle}`;
  if (session.status === 'running') {
    // Nothing is red before the Tester's new test has run (issue 25): until then the Tester is writing it.
    const testRan = (state.cycles.find((c) => c.n === session.cycle)?.tests.failed ?? 0) > 0;
    const phase =
      session.phase === 'TESTING' && !testRan ? 'writing a test' : session.phase ? PHASE_LABELS[session.phase].step : 'starting';
    return {
      visible: true,
      text: `$(sync~spin) TDD ${cycle} ${phase} ${tests} ${tokens}`,
      tooltip: `TDD Agent: ${session.kata}, cycle ${cycle}, phase ${phase}; tests ${totals.testsPassed} passed, ${totals.testsFailed} failed; ${totals.tokens} tokens. Click to open the panel.`,
    };
  }
  const label = STATUS_LABEL[session.status] ?? session.status;
  const icon =
    session.status === 'completed' || session.status === 'max_cycles'
      ? '$(pass)'
      : session.status === 'idle'
        ? '$(beaker)'
        : session.status === 'incomplete'
          ? '$(warning)'
          : '$(error)';
  return {
    visible: true,
    text: `${icon} TDD ${label} ${cycle} ${tests} ${tokens}`,
    tooltip: `TDD Agent: ${session.kata} ${label} after ${session.cycle} cycle(s), ${totals.commits} commit(s); tests ${totals.testsPassed} passed, ${totals.testsFailed} failed; ${totals.tokens} tokens. Click to open the panel.`,
  };
}
