/**
 * Where the panel moves the view and the keyboard focus after a new snapshot: the newest history entry for a person
 * following a running session, a question just asked or answered, a new approval card, a card waiting for the person.
 * Functions of the page and the snapshots only; `panelController.ts` calls them.
 */
import type { ApprovalDecision, PanelState } from '../src/shared/panelProtocol';
import { PERSON_QUESTION_CARD_CLASS, PERSON_QUESTION_INPUT_CLASS } from './render/personQuestions';

/** The newest history entry on the page, if its cycle group is open. */
function newestEntry(root: HTMLElement, state: PanelState | undefined): HTMLElement | undefined {
  const id = state?.actions.at(-1)?.id;
  if (!id) return undefined;
  const entry = Array.from(root.querySelectorAll<HTMLElement>('li.action')).find(
    (element) => element.getAttribute('data-action-id') === id,
  );
  return entry && entry.getClientRects().length > 0 ? entry : undefined;
}

/**
 * The person follows a running session's history when its newest entry is in view: the history then scrolls
 * with the new entries. Scrolled away (up to an earlier cycle, or down to something else), it stays put.
 */
export function isFollowingHistory(root: HTMLElement, state: PanelState | undefined): boolean {
  if (state?.session?.status !== 'running') return false;
  const rect = newestEntry(root, state)?.getBoundingClientRect();
  return rect !== undefined && rect.top < window.innerHeight && rect.bottom > 0;
}

/** Scrolls the newest history entry into view when `next` added one. */
export function followHistory(root: HTMLElement, previous: PanelState | undefined, next: PanelState): void {
  if (next.actions.at(-1)?.id === previous?.actions.at(-1)?.id) return;
  newestEntry(root, next)?.scrollIntoView({ block: 'nearest' });
}

/**
 * A question just asked, or an answer just arrived, is scrolled into view (the person asked from the editor and
 * looks at the panel now); the focus stays where it is. Nothing moves on the first snapshot after a reload.
 */
export function revealNewAnswer(root: HTMLElement, previous: PanelState | undefined, next: PanelState): boolean {
  if (!previous) return false;
  const askedBefore = new Set((previous.questions ?? []).map((q) => q.id));
  const failedBefore = new Set((previous.questions ?? []).filter((q) => q.failed).map((q) => q.id));
  const answeredBefore = new Set(previous.answers.map((a) => a.id));
  // A question's card is brought into view when it is asked, and again when answering it failed (its error shows there).
  const id =
    (next.questions ?? []).find((q) => !askedBefore.has(q.id) || (q.failed && !failedBefore.has(q.id)))?.id ??
    next.answers.find((a) => !answeredBefore.has(a.id))?.id;
  if (!id) return false;
  const card = Array.from(root.querySelectorAll<HTMLElement>('[data-question-id], [data-answer-id]')).find(
    (element) => (element.getAttribute('data-question-id') ?? element.getAttribute('data-answer-id')) === id,
  );
  card?.scrollIntoView({ block: 'start' });
  return card !== undefined;
}

/**
 * A new approval request takes the keyboard focus (its card, never its Approve button) — only when the
 * panel already has the focus and the person is not typing in it: an editor keeps its focus.
 */
export function focusNewApproval(
  root: HTMLElement,
  previous: PanelState | undefined,
  next: PanelState,
  answered: ReadonlyMap<string, ApprovalDecision>,
): void {
  const seen = new Set(previous?.approvals.map((request) => request.requestId));
  const newest = [...next.approvals]
    .reverse()
    .find((request) => !seen.has(request.requestId) && !answered.has(request.requestId));
  if (!newest || !document.hasFocus()) return;
  const active = document.activeElement;
  if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) return;
  const card = Array.from(root.querySelectorAll<HTMLElement>('.approval-card')).find(
    (element) => element.getAttribute('data-request-id') === newest.requestId,
  );
  card?.focus();
}

/**
 * The panel was shown and given the keyboard ("Open panel", "Focus on Agent View", a notification's button): a card
 * that waits for the person takes the focus — a role's question its answer field, an approval request the card itself
 * (A approves, Shift+A or L always allows, D denies; as for a new card, never its Approve button: no key approves by
 * default) — instead of the page body, many Tabs away from it. Only from the page body: anything that has the focus
 * keeps it (a field being typed in, a control chosen before).
 */
export function focusWaitingCard(root: HTMLElement): void {
  const active = document.activeElement;
  if (active && active !== document.body && active !== document.documentElement) return;
  const target = root.querySelector<HTMLElement>(
    [
      `.${PERSON_QUESTION_CARD_CLASS}:not(.is-settled) .${PERSON_QUESTION_INPUT_CLASS}:not(:disabled)`,
      '.approval-card:not(.is-settled)',
    ].join(', '),
  );
  target?.focus();
}

/** After an answer disabled its card's buttons: the keyboard goes to the next open request (the card, not its Approve button). */
export function focusNextOpenApproval(root: HTMLElement): void {
  const active = document.activeElement;
  if (root.contains(active) && active !== document.body && !active?.matches('button:disabled, .approval-card.is-settled')) return;
  root.querySelector<HTMLElement>('.approval-card:not(.is-settled)')?.focus();
}
