/** The session header: kata, status, model/provider/branch, the sandbox in use, the project, cycle progress, totals and — once ended — the session's buttons. */
import { estimatedCost, type SessionHeader } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { formatCost, formatCount, PHASE_LABELS, STATUS_LABELS } from '../format';
import { icon } from '../icons';
import { KEY_ATTR } from './context';

function stat(label: string, value: string, tone: string): HTMLElement {
  // dt before dd for assistive technology; CSS shows the value on top.
  return h(
    'div',
    { class: `stat stat-${tone}` },
    h('dt', { class: 'stat-label' }, label),
    h('dd', { class: 'stat-value' }, value),
  );
}

function meta(label: string, value: string, className = ''): HTMLElement[] {
  return [h('dt', {}, label), h('dd', { class: className, title: value }, value)];
}

/** The line saying which OS sandbox confines the session's tests and commands (a warning when it is off). */
function renderSandbox(session: SessionHeader): HTMLElement | null {
  if (session.sandboxMode === 'off') {
    return h(
      'p',
      { class: 'session-sandbox sandbox-off', id: 'session-sandbox', title: session.sandbox ?? '' },
      icon('warning'),
      h(
        'span',
        {},
        h('strong', {}, 'Sandbox off: '),
        'tests and commands run unconfined on your machine (setting tddAgent.sandbox).',
      ),
    );
  }
  if (!session.sandbox) return null;
  // One line (the sandbox's name and what it keeps out); the whole description with its paths on hover and when opened.
  return h(
    'details',
    { class: 'session-sandbox', id: 'session-sandbox', title: session.sandbox, [KEY_ATTR]: 'session-sandbox' },
    h(
      'summary',
      {},
      icon('shield'),
      h('span', { class: 'sandbox-summary' }, h('strong', {}, 'Sandbox: '), sandboxSummary(session.sandbox)),
    ),
    h('p', { class: 'sandbox-details' }, `Sandbox: ${session.sandbox}`),
  );
}

/** "bubblewrap — only the session's worktree is writable, no network" from the host's description of the sandbox. */
export function sandboxSummary(description: string): string {
  const name = description.split(/\s*[(:;]/)[0]!.trim() || description;
  const facts = [
    /writes only in/.test(description) ? "only the session's worktree is writable" : null,
    /no network/.test(description) ? 'no network' : null,
  ].filter((fact): fact is string => fact !== null);
  return facts.length > 0 ? `${name} — ${facts.join(', ')}` : name;
}

/**
 * The project the session works in: every language with the command its tests run with (or why this session does not
 * run them), the tests it leaves out and why, in words; which files are tests, the code and where all this came from
 * behind a disclosure, with the raw patterns. A state saved before the summary existed shows its one line.
 */
function renderProject(session: SessionHeader): HTMLElement | null {
  const summary = session.projectSummary;
  if (!summary) {
    if (!session.project) return null;
    return h(
      'p',
      { class: 'session-sandbox session-project', id: 'session-project', title: session.project },
      icon('file'),
      h('span', {}, h('strong', {}, 'Project: '), session.project),
    );
  }
  return h(
    'div',
    { class: 'session-project', id: 'session-project' },
    h(
      'ul',
      { class: 'project-languages', 'aria-label': 'Languages and their tests' },
      summary.languages.map((language, i) =>
        h(
          'li',
          { class: `project-language ${language.notRun ? 'is-not-run' : ''}`, 'data-language': language.name },
          i === 0 ? icon('file') : h('span', { class: 'icon-space', 'aria-hidden': 'true' }),
          h(
            'span',
            {},
            i === 0 ? h('strong', {}, 'Project: ') : null,
            h('strong', { class: 'project-language-name' }, language.name),
            language.via ? ` (${language.via})` : '',
            language.command
              ? [
                  ' — tests run with ',
                  h('code', { class: 'project-command' }, language.command),
                  language.runner ? ` (${language.runner})` : '',
                ]
              : null,
            language.notRun ? ` — ${language.notRun}` : null,
          ),
        ),
      ),
    ),
    ...summary.leftOut.map((line) => h('p', { class: 'project-left-out' }, h('strong', {}, 'Left out: '), line)),
    h(
      'details',
      { class: 'project-details', [KEY_ATTR]: 'session-project' },
      h('summary', {}, 'Which files are tests'),
      h('p', {}, h('strong', {}, 'Tests: '), summary.tests),
      h('p', {}, h('strong', {}, 'Code: '), summary.source),
      h('p', { class: 'project-origin' }, summary.origin.charAt(0).toUpperCase() + summary.origin.slice(1)),
      h(
        'p',
        { class: 'project-patterns' },
        h('strong', {}, 'Patterns: '),
        ...summary.patterns.flatMap((pattern, i) => [i > 0 ? ' ' : null, h('code', {}, pattern)]),
      ),
    ),
  );
}

/** True for a run that stopped at its cycle limit with every test green: a finished run, not a warning. */
function endedGreenAtLimit(session: SessionHeader): boolean {
  return session.status === 'max_cycles' && session.totals.testsFailed === 0 && session.totals.testsPassed > 0;
}

/** Renders the header of a session; `actions` (the ended session's buttons) go at its end. */
export function renderSessionHeader(session: SessionHeader, actions: HTMLElement | null = null): HTMLElement {
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
      h(
        'span',
        {
          class: `status-badge status-${session.status} ${endedGreenAtLimit(session) ? 'ended-green' : ''}`,
          id: 'session-status',
        },
        session.interrupted
          ? 'Interrupted'
          : endedGreenAtLimit(session)
            ? 'Max cycles reached, all green'
            : STATUS_LABELS[session.status],
      ),
    ),
    session.interrupted
      ? h(
          'p',
          { class: 'session-interrupted', id: 'session-interrupted' },
          'The window was reloaded while the kata ran, so it stopped there. Resume goes on from its last green commit.',
        )
      : null,
    h(
      'dl',
      { class: 'session-meta' },
      meta('Model', session.model, 'mono'),
      meta('Provider', session.provider),
      meta('Branch', session.branch ?? '—', 'mono'),
    ),
    renderSandbox(session),
    renderProject(session),
    h(
      'div',
      { class: 'session-progress' },
      h(
        'div',
        { class: 'progress-label' },
        h('span', { id: 'session-cycle' }, cycleText),
        phaseText ? h('span', { class: 'phase', id: 'session-phase' }, phaseText) : null,
      ),
      session.maxCycles > 0
        ? h('progress', {
            max: session.maxCycles,
            // A completed kata is done, even when it needed fewer cycles than it may take.
            value: session.status === 'completed' ? session.maxCycles : Math.min(session.cycle, session.maxCycles),
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
      session.price && session.usage
        ? stat('est. cost', formatCost(estimatedCost(session.usage, session.price)), 'neutral')
        : null,
    ),
    actions,
  );
}
