/**
 * The panel's behaviour: receive and validate host messages, render snapshots, persist them,
 * post the person's decisions and commands back, and keep approval countdowns live.
 */
import {
  HOST_MESSAGE,
  isNewerSnapshot,
  logMessage,
  parseHostMessage,
  readyMessage,
  type ApprovalDecision,
  type PanelState,
} from '../src/shared/panelProtocol';
import { textNode } from './dom';
import { errorTitle } from './format';
import { fromPersisted, toPersisted } from './persistence';
import { approvalKeyDecision, tickCountdowns } from './render/approvals';
import { findIntent, intentOf, type PanelIntent } from './intents';
import { KEY_ATTR, type HistoryFilter } from './render/context';
import { renderPanel } from './render/panel';
import { personQuestionController } from './personQuestionController';
import { PERSON_QUESTION_CARD_CLASS, PERSON_QUESTION_INPUT_CLASS } from './render/personQuestions';
import type { VsCodeApi } from './vscodeApi';

/** A running panel; `dispose` stops its countdown timer and removes its listeners. */
export interface PanelController {
  dispose(): void;
}

/** Starts the panel in `root`: restores the saved snapshot, wires events, and says `ready` to the host. */
export function startPanel(api: VsCodeApi, root: HTMLElement, announcer: HTMLElement): PanelController {
  const restored = fromPersisted(api.getState());
  let current: PanelState | undefined = restored?.state;
  const answered = restored?.answered ?? new Map<string, ApprovalDecision>();
  const openDetails = restored?.openDetails ?? new Map<string, boolean>();
  let historyFilter: HistoryFilter = restored?.historyFilter ?? 'all';

  const persist = (): void => {
    if (current) api.setState(toPersisted({ state: current, answered, openDetails, historyFilter }));
  };

  const personQuestions = personQuestionController({ api, root, announcer, state: () => current, render: () => render() });

  const render = (): void => {
    if (!current) return;
    try {
      renderPanel(
        root,
        current,
        { now: Date.now(), answered, historyFilter, personQuestionsSent: personQuestions.sent },
        openDetails,
      );
    } catch (error) {
      api.postMessage(logMessage('error', `panel render failed: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  /** The problems the announcer last told, and its words: cleared once those problems are fixed (their cards gone). */
  let announcedProblems: { ids: Set<string>; line: Node } | undefined;

  const announceChanges = (previous: PanelState | undefined, next: PanelState): void => {
    const seenApprovals = new Set(previous?.approvals.map((request) => request.requestId));
    const seenErrors = new Set(previous?.errors.map((error) => error.id));
    const problems = next.errors.filter((error) => !seenErrors.has(error.id));
    const lines = [
      ...next.approvals
        .filter((request) => !seenApprovals.has(request.requestId))
        .map((request) => `Approval needed: ${request.tool} (${request.dangerLevel}).`),
      // As the card says it: its title, then its facts.
      ...problems.map((error) => `Problem: ${errorTitle(error.error_code)}. ${error.message}`),
    ];
    if (previous && previous.session?.status !== next.session?.status && next.session)
      lines.push(`Session ${next.session.status.replace('_', ' ')}.`);
    if (lines.length > 0) {
      const line = textNode(lines.join(' '));
      announcer.replaceChildren(line);
      announcedProblems = problems.length > 0 ? { ids: new Set(problems.map((error) => error.id)), line } : undefined;
      return;
    }
    // A problem that is fixed is not left behind as a line (a screen reader reads it at the end of the page).
    if (announcedProblems && !next.errors.some((error) => announcedProblems!.ids.has(error.id))) {
      if (announcer.firstChild === announcedProblems.line) announcer.replaceChildren();
      announcedProblems = undefined;
    }
  };

  const applyState = (next: PanelState): void => {
    if (!isNewerSnapshot(current, next)) return;
    const previous = current;
    const following = isFollowingHistory(previous);
    current = next;
    // Forget answers to requests the host no longer lists (resolved, timed out).
    const pending = new Set(next.approvals.map((request) => request.requestId));
    for (const requestId of [...answered.keys()]) if (!pending.has(requestId)) answered.delete(requestId);
    render();
    persist();
    announceChanges(previous, next);
    focusNewApproval(previous, next);
    // The panel's first snapshot from the host after it (re)loaded: shown with the focus, a waiting card takes it.
    if (!hostStateSeen && document.hasFocus()) focusWaitingCard();
    hostStateSeen = true;
    personQuestions.afterState(previous, next);
    if (!revealNewAnswer(previous, next) && following) followHistory(previous, next);
  };

  /** The newest history entry on the page, if its cycle group is open. */
  const newestEntry = (state: PanelState | undefined): HTMLElement | undefined => {
    const id = state?.actions.at(-1)?.id;
    if (!id) return undefined;
    const entry = Array.from(root.querySelectorAll<HTMLElement>('li.action')).find(
      (element) => element.getAttribute('data-action-id') === id,
    );
    return entry && entry.getClientRects().length > 0 ? entry : undefined;
  };

  /**
   * The person follows a running session's history when its newest entry is in view: the history then scrolls
   * with the new entries. Scrolled away (up to an earlier cycle, or down to something else), it stays put.
   */
  const isFollowingHistory = (state: PanelState | undefined): boolean => {
    if (state?.session?.status !== 'running') return false;
    const rect = newestEntry(state)?.getBoundingClientRect();
    return rect !== undefined && rect.top < window.innerHeight && rect.bottom > 0;
  };

  const followHistory = (previous: PanelState | undefined, next: PanelState): void => {
    if (next.actions.at(-1)?.id === previous?.actions.at(-1)?.id) return;
    newestEntry(next)?.scrollIntoView({ block: 'nearest' });
  };

  /**
   * A question just asked, or an answer just arrived, is scrolled into view (the person asked from the editor and
   * looks at the panel now); the focus stays where it is. Nothing moves on the first snapshot after a reload.
   */
  const revealNewAnswer = (previous: PanelState | undefined, next: PanelState): boolean => {
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
  };

  /**
   * A new approval request takes the keyboard focus (its card, never its Approve button) — only when the
   * panel already has the focus and the person is not typing in it: an editor keeps its focus.
   */
  const focusNewApproval = (previous: PanelState | undefined, next: PanelState): void => {
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
  };

  /**
   * The panel was shown and given the keyboard ("Open panel", "Focus on Agent View", a notification's button): a card
   * that waits for the person takes the focus — a role's question its answer field, an approval request the card itself
   * (A approves, Shift+A or L always allows, D denies; as for a new card, never its Approve button: no key approves by
   * default) — instead of the page body, many Tabs away from it. Not when the focus came with a click (the person chose
   * where), nor when something on the page already has it.
   */
  let pointerFocus = false;
  let hostStateSeen = false;
  const onPointerDown = (): void => {
    pointerFocus = true;
    window.setTimeout(() => (pointerFocus = false), 0);
  };
  const focusWaitingCard = (): void => {
    if (pointerFocus) return;
    // Only from the page body: anything that has the focus keeps it (a field being typed in, a control chosen before).
    const active = document.activeElement;
    if (active && active !== document.body && active !== document.documentElement) return;
    const target = root.querySelector<HTMLElement>(
      [
        `.${PERSON_QUESTION_CARD_CLASS}:not(.is-settled) .${PERSON_QUESTION_INPUT_CLASS}:not(:disabled)`,
        '.approval-card:not(.is-settled)',
      ].join(', '),
    );
    target?.focus();
  };
  /** The panel's frame took the focus. */
  const onWindowFocus = (): void => focusWaitingCard();

  /** A, Shift+A / L and D on an open approval card (or inside it) answer it; see `approvalKeyDecision`. */
  const onKeyDown = (event: KeyboardEvent): void => {
    if (personQuestions.onKeyDown(event)) return;
    const card = event.target instanceof Element ? event.target.closest<HTMLElement>('.approval-card:not(.is-settled)') : null;
    if (!card) return;
    const decision = approvalKeyDecision(event);
    if (!decision) return;
    const button = Array.from(card.querySelectorAll<HTMLButtonElement>('button')).find((b) => {
      const intent = intentOf(b);
      return intent?.kind === 'approval' && intent.message.decision === decision;
    });
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  };

  const onMessage = (event: MessageEvent): void => {
    const { message, reason } = parseHostMessage(event.data);
    if (!message) {
      api.postMessage(logMessage('warn', `dropped ${reason}`));
      return;
    }
    switch (message.type) {
      case HOST_MESSAGE.state:
        applyState(message.state);
        break;
    }
  };

  /** A person's decision on an approval card: posted once; the card greys out until the host drops it. */
  const answerApproval = (message: Extract<PanelIntent, { kind: 'approval' }>['message']): void => {
    if (answered.has(message.requestId)) return;
    api.postMessage(message);
    answered.set(message.requestId, message.decision); // optimistic: the card greys out until the host drops it
    render();
    persist();
    // The answered card's buttons are now disabled: move keyboard focus to the next open request (the card, not its Approve button).
    if (
      !root.contains(document.activeElement) ||
      document.activeElement === document.body ||
      document.activeElement?.matches('button:disabled, .approval-card.is-settled')
    ) {
      root.querySelector<HTMLElement>('.approval-card:not(.is-settled)')?.focus();
    }
  };

  /** Carries out what the clicked control was rendered to do (see `intents.ts`). */
  const onClick = (event: MouseEvent): void => {
    const found = findIntent(event.target, root);
    if (!found || !(found.element instanceof HTMLButtonElement) || found.element.disabled) return;
    const { element: button, intent } = found;
    switch (intent.kind) {
      case 'post':
        api.postMessage(intent.message);
        if (intent.disableAfter) button.disabled = true;
        return;
      case 'approval':
        answerApproval(intent.message);
        return;
      case 'historyFilter':
        if (intent.filter === historyFilter) return;
        historyFilter = intent.filter;
        render();
        persist();
        return;
      case 'personQuestion':
        personQuestions.onIntent(intent);
        return;
      case 'submit':
        return; // a form's, on submit
    }
  };

  /** A follow-up question typed under an answer: one message to the host, then the input is cleared. */
  const onSubmit = (event: SubmitEvent): void => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const intent = intentOf(form);
    if (intent?.kind !== 'submit') return;
    event.preventDefault();
    const input = form.querySelector<HTMLInputElement>('input');
    const text = input?.value.trim() ?? '';
    if (!input || text === '') return;
    api.postMessage(intent.message(text));
    input.value = '';
    announcer.replaceChildren(textNode('Follow-up question sent.'));
  };

  const onToggle = (event: Event): void => {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement)) return;
    const key = details.getAttribute(KEY_ATTR);
    if (!key) return;
    openDetails.set(key, details.open);
    persist();
  };

  window.addEventListener('message', onMessage);
  window.addEventListener('focus', onWindowFocus);
  document.addEventListener('pointerdown', onPointerDown, true);
  root.addEventListener('click', onClick);
  root.addEventListener('keydown', onKeyDown);
  root.addEventListener('submit', onSubmit);
  root.addEventListener('toggle', onToggle, true); // toggle does not bubble
  const ticker = window.setInterval(() => {
    tickCountdowns(root, Date.now());
    personQuestions.tick(Date.now());
  }, 1000);

  render();
  api.postMessage(readyMessage());

  return {
    dispose(): void {
      window.clearInterval(ticker);
      window.removeEventListener('message', onMessage);
      window.removeEventListener('focus', onWindowFocus);
      document.removeEventListener('pointerdown', onPointerDown, true);
      root.removeEventListener('click', onClick);
      root.removeEventListener('keydown', onKeyDown);
      root.removeEventListener('submit', onSubmit);
      root.removeEventListener('toggle', onToggle, true);
    },
  };
}
