/**
 * The action history: every tool call and role message, collapsible, with parameters and a result summary. Grouped
 * per cycle and, within a cycle, per role's turn, oldest first like the cycle timeline; the running cycle is open
 * (the others folded), and a filter shows only failures or only a person's approval decisions.
 */
import { TDD_ROLES, type PanelActionRecord, type PanelCycleSummary, type TddRole } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { APPROVAL_OUTCOME_LABELS, formatDuration, formatJson, ROLE_LABELS } from '../format';
import { icon } from '../icons';
import { diffLine } from './approvals';
import { markdownBlock } from '../markdown';
import { ACTION_ATTR, ACTIONS, HISTORY_FILTERS, type HistoryFilter } from './context';
import { fileLink, openDiffButton, shortPath, testLocations, toolFilePath } from './fileLinks';

/** True when the call never ran because it was denied or timed out: not a failure of the tool. */
function isDenied(action: PanelActionRecord): boolean {
  return action.approval === 'denied' || action.approval === 'timeout' || action.approval === 'policy_denied';
}

/** A step the supervisor took itself (its test runs, quality gates, reverts), not a role's tool call. */
function bySupervisor(action: PanelActionRecord): boolean {
  return action.testRun !== undefined || action.role === 'supervisor';
}

/** Red or green of a supervisor test run; the Tester's red is the expected one. */
function renderTestBadge(run: NonNullable<PanelActionRecord['testRun']>): HTMLElement {
  const red = run.status !== 'passed';
  const label = red ? (run.expectedRed ? 'red (expected)' : run.status === 'failed' ? 'red' : run.status) : 'green';
  return h(
    'span',
    {
      class: `test-badge ${red ? (run.expectedRed ? 'is-expected-red' : 'is-red') : 'is-green'}`,
      title: `${run.passed} passed, ${run.failed} failed`,
    },
    label,
  );
}

/** The file a file tool names, its compact diff with "Open diff", and the failing tests' locations of a test run. */
function renderFiles(action: PanelActionRecord): (HTMLElement | null)[] {
  const file = toolFilePath(action.tool, action.params);
  const locations = action.testRun && action.testRun.status !== 'passed' ? testLocations(action.resultSummary) : [];
  return [
    file ? h('p', { class: 'action-file' }, fileLink(file, undefined, true)) : null,
    locations.length > 0
      ? h(
          'p',
          { class: 'action-locations' },
          h('span', { class: 'field-label' }, 'Locations'),
          ...locations.map((l) => fileLink(l.path, l.line, true, `${shortPath(l.path)}:${l.line}`)),
        )
      : null,
    action.fileChange
      ? h(
          'pre',
          { class: 'diff', tabindex: 0, 'aria-label': `Changes to ${action.fileChange.path}` },
          h('code', {}, action.fileChange.diff.split('\n').map(diffLine)),
        )
      : null,
    action.fileChange ? openDiffButton(action.id, action.fileChange.path) : null,
  ];
}

/** The first non-blank line of a message, for its collapsed one-line summary. */
function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim()) ?? '').trim();
}

/** The Tester's "KATA_COMPLETE" (the supervisor's keyword for "nothing left to test") in a person's words. */
export function messageText(text: string): string {
  return text
    .replace(/^\W*KATA_COMPLETE\b[.:!]?\s*/i, 'Nothing left to test: every behaviour of the kata is covered.\n\n')
    .trim();
}

/** A role's own words: one line collapsed (click, Enter or Space on it expands), its whole text as Markdown. */
function renderMessage(action: PanelActionRecord, raw: NonNullable<PanelActionRecord['message']>): HTMLElement {
  const message = { ...raw, text: messageText(raw.text) };
  const kind = message.streaming ? 'is writing' : message.final ? 'reports' : 'says';
  return h(
    'li',
    {
      class: `action role-message ${message.final ? 'is-final' : ''} ${message.streaming ? 'is-streaming' : ''}`,
      'data-action-id': action.id,
      'data-role': action.role,
    },
    h(
      'details',
      { [ACTION_ATTR.key]: `action:${action.id}` },
      h(
        'summary',
        {
          'aria-label': `${action.role} ${kind}${action.cycle ? ` (cycle ${action.cycle})` : ''}: ${firstLine(message.text).slice(0, 200)}`,
        },
        h('span', { class: 'action-status', 'aria-hidden': 'true' }, icon(message.final ? 'check' : 'question')),
        h('span', { class: 'message-role' }, action.role),
        h('span', { class: 'message-line' }, firstLine(message.text) || '…'),
        message.streaming ? h('span', { class: 'message-streaming', 'aria-hidden': 'true' }, '…') : null,
      ),
      h(
        'div',
        { class: 'action-body' },
        action.cycle ? h('p', { class: 'action-cycle' }, `Cycle ${action.cycle}${message.final ? ' — report' : ''}`) : null,
        markdownBlock(message.text, 'message-text'),
      ),
    ),
  );
}

function renderAction(action: PanelActionRecord): HTMLElement {
  if (action.message) return renderMessage(action, action.message);
  const denied = isDenied(action);
  const status = denied ? 'not run' : action.ok ? 'succeeded' : 'failed';
  return h(
    'li',
    { class: `action ${denied ? 'is-denied' : action.ok ? 'is-ok' : 'is-failed'}`, 'data-action-id': action.id },
    h(
      'details',
      { [ACTION_ATTR.key]: `action:${action.id}` },
      h(
        'summary',
        {},
        h('span', { class: 'action-status', 'aria-label': status }, icon(denied ? 'stop' : action.ok ? 'check' : 'close')),
        h('span', { class: 'action-tool mono' }, action.tool),
        action.testRun ? renderTestBadge(action.testRun) : null,
        h('span', { class: 'action-role' }, action.role),
        // The supervisor's own test runs and checks ask nobody: no approval to show.
        bySupervisor(action)
          ? h('span', { class: 'approval-badge by-supervisor' }, 'by the supervisor')
          : h(
              'span',
              { class: `approval-badge approval-${action.approval} ${denied ? 'is-denied' : ''}` },
              APPROVAL_OUTCOME_LABELS[action.approval],
            ),
        h('span', { class: 'action-duration' }, denied && action.durationMs === 0 ? '—' : formatDuration(action.durationMs)),
      ),
      h(
        'div',
        { class: 'action-body' },
        action.cycle ? h('p', { class: 'action-cycle' }, `Cycle ${action.cycle}`) : null,
        ...renderFiles(action),
        h('div', { class: 'field-label' }, 'Parameters'),
        h('pre', { class: 'params', tabindex: 0 }, h('code', {}, formatJson(action.params))),
        h('div', { class: 'field-label' }, action.testRun ? 'Test result' : 'Result'),
        h(
          'pre',
          { class: `result ${action.ok || denied ? '' : 'is-failed'}`, tabindex: 0 },
          h('code', {}, action.resultSummary || '(no output)'),
        ),
        action.testRun?.hasOutput
          ? h(
              'button',
              {
                type: 'button',
                class: 'button-secondary open-output',
                [ACTION_ATTR.action]: ACTIONS.testOutput,
                [ACTION_ATTR.entryId]: action.id,
              },
              icon('terminal'),
              h('span', {}, 'Open full output'),
            )
          : null,
      ),
    ),
  );
}

const FILTER_LABELS: Record<HistoryFilter, string> = { all: 'All', failures: 'Failures', approvals: 'Approvals' };

/** A failure: a tool call that failed, or a red test run the role should not have left. */
function isFailure(action: PanelActionRecord): boolean {
  return !action.ok && !isDenied(action);
}

/** An approval decision: a person's answer, a time-out or the policy's denial (not the calls the policy just allows). */
function isDecision(action: PanelActionRecord): boolean {
  return action.approval !== 'auto';
}

function matches(action: PanelActionRecord, filter: HistoryFilter): boolean {
  return filter === 'all' || (filter === 'failures' ? isFailure(action) : isDecision(action));
}

function isTddRole(role: string): role is TddRole {
  return (TDD_ROLES as readonly string[]).includes(role);
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
    h('h4', { class: 'history-turn-role' }, isTddRole(turn.role) ? ROLE_LABELS[turn.role] : turn.role),
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
      { [ACTION_ATTR.key]: key, open },
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
      h(
        'button',
        {
          type: 'button',
          class: `button button-secondary history-filter-button ${name === filter ? 'is-active' : ''}`,
          'aria-pressed': name === filter ? 'true' : 'false',
          [ACTION_ATTR.action]: ACTIONS.historyFilter,
          [ACTION_ATTR.filter]: name,
          [ACTION_ATTR.key]: `history-filter:${name}`,
        },
        `${FILTER_LABELS[name]} (${counts[name]})`,
      ),
    ),
  );
}

/**
 * Renders the collapsible action history grouped per cycle (oldest first) and role, or nothing when there are no
 * calls. The running cycle — or, once the session ended, the last one — is open; with a filter every cycle that has
 * a matching entry is open.
 */
export function renderActions(
  actions: readonly PanelActionRecord[],
  cycles: readonly PanelCycleSummary[] = [],
  filter: HistoryFilter = 'all',
): HTMLElement | null {
  if (actions.length === 0) return null;
  // Denials and time-outs are the person's (or the clock's) answer, not failures of the tool.
  const failed = actions.filter(isFailure).length;
  const messages = actions.filter((action) => action.message).length;
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
      { class: 'history', [ACTION_ATTR.key]: 'actions' },
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
