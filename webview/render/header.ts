/** The session header: kata, status, model/provider/branch, cycle progress and totals. */
import type { SessionHeader } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { formatCount, PHASE_LABELS, STATUS_LABELS } from '../format';
import { icon } from '../icons';

function stat(label: string, value: string, tone: string): HTMLElement {
  // dt before dd for assistive technology; CSS shows the value on top.
  return h('div', { class: `stat stat-${tone}` }, h('dt', { class: 'stat-label' }, label), h('dd', { class: 'stat-value' }, value));
}

function meta(label: string, value: string, className = ''): HTMLElement[] {
  return [h('dt', {}, label), h('dd', { class: className, title: value }, value)];
}

/** Renders the header of a session. */
export function renderSessionHeader(session: SessionHeader): HTMLElement {
  const { totals } = session;
  const cycleText = session.maxCycles > 0 ? `Cycle ${session.cycle} of ${session.maxCycles}` : `Cycle ${session.cycle}`;
  const phaseText = session.status === 'running' && session.phase ? PHASE_LABELS[session.phase] : null;
  return h(
    'header',
    { class: `session status-${session.status}`, id: 'session', 'aria-label': 'Session' },
    h(
      'div',
      { class: 'session-title-row' },
      h('h1', { class: 'session-kata', title: session.kata }, icon('beaker'), h('span', {}, session.kata)),
      h('span', { class: `status-badge status-${session.status}`, id: 'session-status' }, STATUS_LABELS[session.status]),
    ),
    h(
      'dl',
      { class: 'session-meta' },
      meta('Model', session.model, 'mono'),
      meta('Provider', session.provider),
      meta('Branch', session.branch ?? '—', 'mono'),
    ),
    h(
      'div',
      { class: 'session-progress' },
      h('div', { class: 'progress-label' }, h('span', { id: 'session-cycle' }, cycleText), phaseText ? h('span', { class: 'phase', id: 'session-phase' }, phaseText) : null),
      session.maxCycles > 0
        ? h('progress', {
            max: session.maxCycles,
            value: Math.min(session.cycle, session.maxCycles),
            'aria-label': cycleText,
          })
        : null,
    ),
    h(
      'dl',
      { class: 'stats', id: 'session-totals' },
      stat('tests passed', formatCount(totals.testsPassed), totals.testsPassed > 0 ? 'passed' : 'neutral'),
      stat('tests failed', formatCount(totals.testsFailed), totals.testsFailed > 0 ? 'failed' : 'neutral'),
      stat('commits', formatCount(totals.commits), 'neutral'),
      stat('tokens', formatCount(totals.tokens), 'neutral'),
    ),
  );
}
