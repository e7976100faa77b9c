/** The cycle timeline: one entry per red-green-refactor cycle with its phases, tests and commit. */
import {
  estimatedCost,
  openCommitMessage,
  type PanelCycleOutcome,
  type PanelCycleSummary,
  type ModelPrice,
  type PanelPhaseOutcome,
  type PhaseSummary,
} from '../../src/shared/panelProtocol';
import { ROLE_TITLES } from '../../src/core/vocabulary';
import { h } from '../dom';
import {
  CYCLE_OUTCOME_LABELS,
  formatCost,
  formatDuration,
  formatTokens,
  PHASE_OUTCOME_LABELS,
  plural,
  shortSha,
} from '../format';
import { icon, type IconName } from '../icons';
import { sends } from '../intents';
import { section } from './section';

const PHASE_ICONS: Record<PanelPhaseOutcome, IconName> = {
  pending: 'pending',
  running: 'running',
  passed: 'check',
  failed: 'close',
  skipped: 'skip',
  reverted: 'revert',
  cancelled: 'stop',
};

const CYCLE_ICONS: Record<PanelCycleOutcome, IconName> = {
  running: 'running',
  passed: 'check',
  complete: 'check',
  failed: 'close',
  cancelled: 'stop',
};

function renderPhase(phase: PhaseSummary): HTMLElement {
  return h(
    'tr',
    { class: `phase-row outcome-${phase.outcome}` },
    h('th', { scope: 'row' }, ROLE_TITLES[phase.role]),
    h(
      'td',
      { class: 'phase-outcome' },
      icon(PHASE_ICONS[phase.outcome]),
      h('span', { class: 'phase-outcome-label' }, PHASE_OUTCOME_LABELS[phase.outcome]),
    ),
    h(
      'td',
      { class: 'phase-attempts', title: plural(phase.attempts, 'attempt') },
      h('span', { class: 'attempts-long' }, plural(phase.attempts, 'attempt')),
      h('span', { class: 'attempts-short', 'aria-hidden': 'true' }, `×${phase.attempts}`),
    ),
    h(
      'td',
      { class: 'phase-duration' },
      phase.duration_ms === 0 && (phase.outcome === 'running' || phase.outcome === 'pending' || phase.outcome === 'cancelled')
        ? '—'
        : formatDuration(phase.duration_ms),
    ),
  );
}

/** A commit hash: a button that opens the commit's changes when the session is known, plain text otherwise. */
function renderCommit(sha: string, label: string, sessionId: string | undefined): HTMLElement {
  const content = [icon('commit'), shortSha(sha)];
  if (!sessionId) return h('span', { class: 'commit mono', title: `${label} ${sha}` }, ...content);
  const button = h(
    'button',
    {
      type: 'button',
      class: 'commit mono link-button',
      title: `Open the changes of ${label.toLowerCase()} ${sha}`,
      'aria-label': `Open the changes of ${label.toLowerCase()} ${shortSha(sha)}`,
      'data-sha': sha, // a test hook
    },
    ...content,
  );
  return sends(button, openCommitMessage(sessionId, sha));
}

/** The cycle's tokens (and estimated cost when the model's price is known), then each role's tokens. */
function renderUsage(cycle: PanelCycleSummary, price: ModelPrice | undefined): HTMLElement | null {
  if (!cycle.usage) return null;
  const total = cycle.usage.input + cycle.usage.output;
  const roles = cycle.phases.filter((p) => p.usage);
  return h(
    'p',
    {
      class: 'cycle-usage',
      title: `${cycle.usage.input} input + ${cycle.usage.output} output tokens${price ? ` at $${price.input} / $${price.output} per 1M (an estimate)` : ''}`,
    },
    h('span', { class: 'cycle-tokens' }, `${formatTokens(total)} tokens`),
    price ? h('span', { class: 'cycle-cost' }, ` (${formatCost(estimatedCost(cycle.usage, price))})`) : null,
    roles.length > 0 ? ' — ' : null,
    ...roles.flatMap((p, i) => [
      i > 0 ? ' · ' : null,
      h(
        'span',
        { class: `role-tokens role-${p.role}` },
        `${ROLE_TITLES[p.role]} ${formatTokens(p.usage!.input + p.usage!.output)}`,
      ),
    ]),
  );
}

/** A line of passed and failed counts, after `lead`. */
function renderTests(tests: PanelCycleSummary['tests'], lead: string, className = 'cycle-tests'): HTMLElement {
  return h(
    'p',
    { class: className },
    lead || null,
    h('span', { class: 'tests-passed' }, `${tests.passed} passed`),
    ' · ',
    h('span', { class: tests.failed > 0 ? 'tests-failed' : 'tests-zero' }, `${tests.failed} failed`),
  );
}

function renderCycle(cycle: PanelCycleSummary, sessionId: string | undefined, price?: ModelPrice): HTMLElement {
  return h(
    'li',
    { class: `cycle outcome-${cycle.outcome}`, 'data-cycle': cycle.n },
    h('span', { class: 'cycle-marker' }, icon(CYCLE_ICONS[cycle.outcome])),
    h(
      'div',
      { class: 'cycle-body' },
      h(
        'div',
        { class: 'cycle-head' },
        h('h3', { class: 'cycle-title' }, `Cycle ${cycle.n}`),
        h('span', { class: `outcome-badge outcome-${cycle.outcome}` }, CYCLE_OUTCOME_LABELS[cycle.outcome]),
        cycle.commit ? renderCommit(cycle.commit, 'Commit', sessionId) : null,
        cycle.refactorCommit ? renderCommit(cycle.refactorCommit, 'Refactor commit', sessionId) : null,
      ),
      cycle.title ? h('p', { class: 'cycle-subject' }, cycle.title) : null,
      renderTests(cycle.tests, cycle.rolledBackTests ? 'After the rollback: ' : ''),
      // The attempt's red counts are not in the branch: shown apart, and said to be the rolled-back attempt's.
      cycle.rolledBackTests ? renderTests(cycle.rolledBackTests, 'Rolled-back attempt: ', 'cycle-tests rolled-back') : null,
      renderUsage(cycle, price),
      cycle.phases.length > 0
        ? h(
            'table',
            // aria-label rather than a hidden <caption>: Chromium's fixed table layout ignores cell widths after one
            { class: 'phases', 'aria-label': `Phases of cycle ${cycle.n}` },
            h('tbody', {}, cycle.phases.map(renderPhase)),
          )
        : null,
      // What was undone, and why, in words: a reverted refactoring is not a skipped one.
      ...cycle.phases.map((p) =>
        p.reverted ? h('p', { class: 'phase-reverted' }, icon('revert'), h('span', {}, p.reverted)) : null,
      ),
    ),
  );
}

/**
 * Renders the cycle timeline, or nothing before the first cycle; hashes open their commit of session
 * `sessionId`; with the model's `price`, each cycle's tokens come with an estimated cost.
 */
export function renderCycles(cycles: readonly PanelCycleSummary[], sessionId?: string, price?: ModelPrice): HTMLElement | null {
  if (cycles.length === 0) return null;
  return section(
    'cycles',
    'Cycles',
    'cycle',
    cycles.length,
    h(
      'ol',
      { class: 'timeline' },
      cycles.map((c) => renderCycle(c, sessionId, price)),
    ),
  );
}
