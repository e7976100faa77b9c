/**
 * The action history section: its entries grouped per cycle and, within a cycle, per role's turn, oldest first like
 * the cycle timeline; the running cycle is open (the others folded), and a filter shows only failures or only the
 * calls a person (or the clock) decided.
 */
import type { PanelActionRecord, PanelCycleSummary } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { roleLabel } from '../format';
import { icon } from '../icons';
import { isDenied, renderAction } from './actions';
import { withIntent } from '../intents';
import { HISTORY_FILTERS, KEY_ATTR, type HistoryFilter } from './context';

const FILTER_LABELS: Record<HistoryFilter, string> = { all: 'All', failures: 'Failures', approvals: 'Approvals' };

/** A failure: a tool call that failed, a red test run the role should not have left, a supervisor's step that failed. */
function isFailure(action: PanelActionRecord): boolean {
  switch (action.kind) {
    case 'toolCall':
      return !action.ok && !isDenied(action);
    case 'testRun':
    case 'supervisorStep':
      return !action.ok;
    case 'message':
      return false;
  }
}

/** An approval decision: a person's answer, a time-out or the policy's denial (not the calls the policy just allows). */
function isDecision(action: PanelActionRecord): boolean {
  return action.kind === 'toolCall' && action.approval !== 'auto';
}

function matches(action: PanelActionRecord, filter: HistoryFilter): boolean {
  return filter === 'all' || (filter === 'failures' ? isFailure(action) : isDecision(action));
}

/** Consecutive entries of the same role: one turn of a role within a cycle. */
function turns(actions: readonly PanelActionRecord[]): { role: string; actions: PanelActionRecord[] }[] {
  const grouped: { role: string; actions: PanelActionRecord[] }[] = [];
  for (const action of actions) {
    const last = grouped.at(-1);
    if (last && last.role === action.role) last.actions.push(action);
    else grouped.push({ role: action.role, actions: [action] });
  }
  return grouped;
}

function renderTurn(turn: { role: string; actions: PanelActionRecord[] }): HTMLElement {
  return h(
    'li',
    { class: 'history-turn', 'data-role': turn.role },
    h('h4', { class: 'history-turn-role' }, roleLabel(turn.role)),
    h('ol', { class: 'action-list' }, turn.actions.map(renderAction)),
  );
}

/** One cycle's entries (or the session's before the first cycle), per role, oldest first. */
function renderCycleGroup(
  n: number | undefined,
  actions: readonly PanelActionRecord[],
  cycle: PanelCycleSummary | undefined,
  filter: HistoryFilter,
  open: boolean,
): HTMLElement {
  const failed = actions.filter(isFailure).length;
  const key = `history-cycle:${n ?? 'session'}${filter === 'all' ? '' : `:${filter}`}`;
  return h(
    'li',
    { class: `history-cycle ${cycle?.outcome === 'running' ? 'is-running' : ''}`, 'data-cycle': n ?? '' },
    h(
      'details',
      { [KEY_ATTR]: key, open },
      h(
        'summary',
        {},
        h('span', { class: 'history-cycle-title' }, n === undefined ? 'Before the first cycle' : `Cycle ${n}`),
        cycle?.title ? h('span', { class: 'history-cycle-subject' }, cycle.title) : null,
        h('span', { class: 'history-cycle-count' }, String(actions.length)),
        failed > 0 ? h('span', { class: 'history-failed' }, `${failed} failed`) : null,
      ),
      h('ol', { class: 'history-turns' }, turns(actions).map(renderTurn)),
    ),
  );
}

function filterBar(filter: HistoryFilter, counts: Record<HistoryFilter, number>): HTMLElement {
  return h(
    'div',
    { class: 'history-filter', role: 'group', 'aria-label': 'Show in the history' },
    HISTORY_FILTERS.map((name) =>
      withIntent(
        h(
          'button',
          {
            type: 'button',
            class: `button button-secondary history-filter-button ${name === filter ? 'is-active' : ''}`,
            'aria-pressed': name === filter ? 'true' : 'false',
            'data-filter': name, // a test hook
            [KEY_ATTR]: `history-filter:${name}`,
          },
          `${FILTER_LABELS[name]} (${counts[name]})`,
        ),
        { kind: 'historyFilter', filter: name },
      ),
    ),
  );
}

/**
 * Renders the collapsible action history grouped per cycle (oldest first) and role, or nothing when there are no
 * calls. The running cycle — or, once the session ended, the last one — is open; with a filter every cycle that has
 * a matching entry is open.
 */
export function renderHistory(
  actions: readonly PanelActionRecord[],
  cycles: readonly PanelCycleSummary[] = [],
  filter: HistoryFilter = 'all',
): HTMLElement | null {
  if (actions.length === 0) return null;
  // Denials and time-outs are the person's (or the clock's) answer, not failures of the tool.
  const failed = actions.filter(isFailure).length;
  const messages = actions.filter((action) => action.kind === 'message').length;
  const counts: Record<HistoryFilter, number> = {
    all: actions.length,
    failures: failed,
    approvals: actions.filter(isDecision).length,
  };
  const shown = actions.filter((action) => matches(action, filter));
  const numbers = [...new Set(shown.map((action) => action.cycle))].sort((a, b) => (a ?? 0) - (b ?? 0));
  const lastCycle = cycles.find((c) => c.outcome === 'running')?.n ?? Math.max(0, ...actions.map((a) => a.cycle ?? 0));
  return h(
    'section',
    { class: 'section section-actions', id: 'actions', 'aria-label': 'Action history' },
    h(
      'details',
      { class: 'history', [KEY_ATTR]: 'actions' },
      h(
        'summary',
        { class: 'section-title' },
        icon('terminal'),
        h('span', {}, 'Action history'),
        h(
          'span',
          {
            class: 'count-badge',
            'aria-label': `${actions.length - messages} tool calls${messages > 0 ? `, ${messages} messages` : ''}`,
          },
          String(actions.length),
        ),
        failed > 0 ? h('span', { class: 'history-failed' }, `${failed} failed`) : null,
      ),
      filterBar(filter, counts),
      shown.length === 0
        ? h('p', { class: 'history-none' }, filter === 'failures' ? 'No failures.' : 'No approval decisions.')
        : h(
            'ol',
            { class: 'history-cycles' },
            numbers.map((n) =>
              renderCycleGroup(
                n,
                shown.filter((action) => action.cycle === n),
                cycles.find((c) => c.n === n),
                filter,
                filter !== 'all' || n === lastCycle || (n === undefined && lastCycle === 0),
              ),
            ),
          ),
    ),
  );
}
