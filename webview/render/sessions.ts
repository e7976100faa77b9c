/**
 * The repository's recorded sessions: the buttons of one session (Resume, Review changes, Merge into
 * <branch>, Delete session) — under the header when the shown session has ended, and for every other
 * session in the "Sessions in this repository" list. Merge is offered only when the person's checkout
 * can take it; otherwise the reason is shown instead.
 */
import {
  sessionActionMessage,
  type PanelState,
  type RecordedSession,
  type RepositorySessions,
  type SessionActionName,
} from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { plural, RECORDED_STATUS_LABELS } from '../format';
import { icon, type IconName } from '../icons';
import { sends } from '../intents';
import { KEY_ATTR } from './context';
import { section } from './section';

/** Button labels (tests and the e2e specs find the buttons by them). */
export const SESSION_BUTTON_LABELS = {
  resume: 'Resume',
  review: 'Review changes',
  merge: (branch: string) => `Merge into ${branch}`,
  delete: 'Delete session',
} as const;

function sessionButton(
  action: SessionActionName,
  session: RecordedSession,
  label: string,
  iconName: IconName,
  primary = false,
): HTMLButtonElement {
  // The host checks, confirms (Delete) and carries it out; the panel only asks. `data-session-*`: test hooks.
  const button = h(
    'button',
    {
      type: 'button',
      class: `button ${primary ? 'button-primary' : 'button-secondary'}`,
      'data-session-action': action,
      'data-session-id': session.id,
      [KEY_ATTR]: `session:${action}:${session.id}`,
      'aria-label': `${label}: ${session.branch}`,
      title: `${label} (${session.branch})`,
    },
    icon(iconName),
    h('span', {}, label),
  );
  return sends(button, sessionActionMessage(action, session.id));
}

/** Why the session cannot be merged now, or undefined when "Merge into <branch>" is offered. */
export function mergeNote(session: RecordedSession, repository: RepositorySessions): string | undefined {
  const into = repository.branch;
  if (session.commits === 0) return 'Nothing to merge: the session made no commits.';
  if (session.merged) return `Already merged into ${into ?? 'your branch'}.`;
  if (repository.mergeBlocker) return `Not mergeable into ${into ?? 'your checkout'} now: ${repository.mergeBlocker}.`;
  if (!into) return 'Not mergeable now: HEAD is detached.';
  return undefined;
}

/** The buttons of a session that is not running (none while it runs). */
export function renderSessionButtons(session: RecordedSession, repository: RepositorySessions): HTMLElement | null {
  if (session.status === 'running') return null;
  const note = mergeNote(session, repository);
  return h(
    'div',
    { class: 'session-actions', 'data-session-id': session.id, role: 'group', 'aria-label': `Session ${session.id}` },
    h(
      'div',
      { class: 'session-buttons' },
      session.resumable ? sessionButton('resume', session, SESSION_BUTTON_LABELS.resume, 'resume', true) : null,
      session.commits > 0 ? sessionButton('review', session, SESSION_BUTTON_LABELS.review, 'diff') : null,
      note === undefined ? sessionButton('merge', session, SESSION_BUTTON_LABELS.merge(repository.branch ?? ''), 'merge') : null,
      sessionButton('delete', session, SESSION_BUTTON_LABELS.delete, 'trash'),
    ),
    note === undefined ? null : h('p', { class: 'merge-note' }, note),
  );
}

function renderRecorded(session: RecordedSession, repository: RepositorySessions): HTMLElement {
  const facts = [session.branch, plural(session.cycles, 'cycle'), plural(session.commits, 'commit')];
  return h(
    'li',
    { class: `recorded-session status-${session.status}`, 'data-session-id': session.id },
    h(
      'div',
      { class: 'recorded-head' },
      h('span', { class: 'recorded-kata' }, session.kata),
      h('span', { class: `status-badge status-${session.status}` }, RECORDED_STATUS_LABELS[session.status]),
    ),
    h('p', { class: 'recorded-facts mono', title: facts.join(' · ') }, facts.join(' · ')),
    renderSessionButtons(session, repository),
  );
}

/** The session shown in the header, when it is listed in the repository. */
export function headerSession(state: PanelState): RecordedSession | undefined {
  const id = state.session?.sessionId;
  return id ? state.repository?.sessions.find((s) => s.id === id) : undefined;
}

/** The "Sessions in this repository" section: every recorded session except the one in the header; nothing when there is none. */
export function renderSessions(state: PanelState): HTMLElement | null {
  const repository = state.repository;
  if (!repository) return null;
  const shown = state.session?.sessionId;
  const others = repository.sessions.filter((s) => s.id !== shown);
  if (others.length === 0) return null;
  return section(
    'sessions',
    'Sessions in this repository',
    'branch',
    others.length,
    h(
      'ul',
      { class: 'recorded-list' },
      others.map((s) => renderRecorded(s, repository)),
    ),
  );
}
