/** Composes the whole panel from a snapshot and swaps it in, keeping focus and open/closed sections. */
import type { PanelState, ToolCallRecord } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { icon } from '../icons';
import { renderAnswers } from './answers';
import { renderApprovals } from './approvals';
import { renderPersonQuestions } from './personQuestions';
import { KEY_ATTR, type RenderContext } from './context';
import { renderCycles } from './cycles';
import { renderErrors } from './errors';
import { renderSessionHeader } from './header';
import { renderHistory } from './history';
import { headerSession, renderSessionButtons, renderSessions } from './sessions';
import { renderNotice, renderSetup } from './setup';
import { renderToolbar } from './toolbar';

/** The text of the empty state (tests look for it). */
export const EMPTY_STATE_TEXT = "No session yet — run 'TDD Agent: Run TDD kata'";

function renderEmptyState(): HTMLElement {
  return h(
    'div',
    { class: 'empty-state', id: 'empty-state' },
    icon('beaker', 'empty-icon'),
    h('p', { class: 'empty-title' }, EMPTY_STATE_TEXT),
    h(
      'p',
      { class: 'empty-hint' },
      'The Tester, Implementer and Refactorer take turns on a kata: a failing test, the minimal code to pass it, ' +
        'then a tidy-up — each cycle committed green. Tool calls that need your approval appear here.',
    ),
  );
}

/** The buttons of the session in the header once it has ended (and while the repository lists it). */
function endedSessionButtons(state: PanelState): HTMLElement | null {
  const listed = headerSession(state);
  if (!listed || !state.repository || state.session?.status === 'running') return null;
  return renderSessionButtons(listed, state.repository);
}

/** The approval requests of the running cycle that nobody answered in time (their cards are gone; the history keeps them). */
function timedOutThisCycle(state: PanelState): ToolCallRecord[] {
  if (state.session?.status !== 'running') return [];
  const cycle = state.session.cycle;
  return state.actions.filter(
    (action): action is ToolCallRecord => action.kind === 'toolCall' && action.approval === 'timeout' && action.cycle === cycle,
  );
}

/** Builds the panel's children for a snapshot (pure apart from creating DOM nodes). */
function buildPanel(state: PanelState, context: RenderContext): HTMLElement[] {
  const questions = state.questions ?? [];
  const nothingYet =
    !state.session &&
    state.answers.length === 0 &&
    questions.length === 0 &&
    state.approvals.length === 0 &&
    state.cycles.length === 0;
  const parts = [
    renderToolbar(state),
    renderSetup(state.setup),
    renderNotice(state.notice),
    // Answers go where the person who asked is looking: at the top, above the session (issue 25).
    renderAnswers(state.answers, questions),
    state.session ? renderSessionHeader(state.session, endedSessionButtons(state)) : null,
    renderPersonQuestions(state.personQuestions ?? [], context),
    renderApprovals(state.approvals, context, timedOutThisCycle(state)),
    renderErrors(state.errors),
    nothingYet ? renderEmptyState() : null,
    renderCycles(state.cycles, state.session?.sessionId, state.session?.price),
    renderHistory(state.actions, state.cycles, context.historyFilter),
    renderSessions(state),
  ];
  return parts.filter((part): part is HTMLElement => part !== null);
}

/**
 * Replaces the content of `root` with a fresh render. `openDetails` records the person's
 * open/closed choice per <details> key and is applied to the new nodes; focus moves to the
 * element with the same key, if it still exists.
 */
export function renderPanel(
  root: HTMLElement,
  state: PanelState,
  context: RenderContext,
  openDetails: ReadonlyMap<string, boolean>,
): void {
  const focusedKey =
    document.activeElement instanceof HTMLElement && root.contains(document.activeElement)
      ? (document.activeElement.closest(`[${KEY_ATTR}]`)?.getAttribute(KEY_ATTR) ?? null)
      : null;
  // Text being typed (a follow-up question, an answer to a role's question) survives the re-render, caret included.
  const fields = `input[${KEY_ATTR}], textarea[${KEY_ATTR}]`;
  const typed = new Map(
    Array.from(root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(fields))
      .filter((input) => input.value !== '')
      .map((input) => [input.getAttribute(KEY_ATTR) ?? '', input] as const),
  );
  root.replaceChildren(...buildPanel(state, context));
  for (const input of Array.from(root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(fields))) {
    const old = typed.get(input.getAttribute(KEY_ATTR) ?? '');
    if (old === undefined) continue;
    input.value = old.value;
    const end = old.value.length;
    input.setSelectionRange(old.selectionStart ?? end, old.selectionEnd ?? end);
  }
  for (const details of Array.from(root.querySelectorAll<HTMLDetailsElement>(`details[${KEY_ATTR}]`))) {
    const open = openDetails.get(details.getAttribute(KEY_ATTR) ?? '');
    if (open !== undefined) details.open = open;
  }
  root.removeAttribute('aria-busy');
  if (focusedKey) {
    const target = Array.from(root.querySelectorAll<HTMLElement>(`[${KEY_ATTR}]`)).find(
      (element) => element.getAttribute(KEY_ATTR) === focusedKey,
    );
    const focusable = target?.matches('details') ? target.querySelector('summary') : target;
    // preventScroll: putting the focus back must not move the page (the person may have scrolled away from it).
    if (focusable instanceof HTMLElement && !(focusable instanceof HTMLButtonElement && focusable.disabled))
      focusable.focus({ preventScroll: true });
  }
}
