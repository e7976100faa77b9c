/**
 * The first-run card: what a session still needs before it can start (a model to talk to, an OS sandbox for the
 * agents' code), each with the buttons that fix it. The host takes an item away as soon as it is fixed.
 */
import type { PanelNotice, SetupProblem } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { icon } from '../icons';
import { fixButtons } from './fixButtons';

/** The card's heading (tests and the e2e specs look for it). */
export const SETUP_TITLE = 'Before a session can start';

/** Renders the first-run card, or nothing when nothing is missing. */
export function renderSetup(problems: readonly SetupProblem[]): HTMLElement | null {
  if (problems.length === 0) return null;
  return h(
    'section',
    { class: 'setup-card', id: 'setup', 'aria-label': SETUP_TITLE },
    h('h2', { class: 'setup-title' }, icon('warning'), h('span', {}, SETUP_TITLE)),
    h(
      'ul',
      { class: 'setup-list' },
      problems.map((p) =>
        h(
          'li',
          { class: 'setup-item', 'data-setup-item': p.item },
          h('p', { class: 'setup-item-title' }, h('strong', {}, p.title)),
          h('p', { class: 'setup-item-detail' }, p.detail),
          fixButtons(p.fixes, `setup-${p.item}`),
        ),
      ),
    ),
  );
}

/** The outcome of the last session action (merged, deleted, not merged and why); nothing when there is none. */
export function renderNotice(notice: PanelNotice | null): HTMLElement | null {
  if (!notice) return null;
  return h(
    'p',
    { class: `notice notice-${notice.level}`, id: 'session-notice', role: 'status', 'data-notice-id': notice.id },
    icon(notice.level === 'info' ? 'check' : 'warning'),
    h('span', {}, notice.text),
  );
}
