/**
 * The question cards' behaviour (see `render/personQuestions.ts`): clicks on Send answer, a choice or Let the agent
 * decide (their intents, see `intents.ts`), the keys of an open card, the focus a new question takes, the live countdowns, and what the panel
 * already sent (the card greys out until the host drops it). `panelController.ts` hands it its events.
 */
import { personQuestionAnswerMessage, personQuestionDeclineMessage, type PanelState } from '../src/shared/panelProtocol';
import { textNode } from './dom';
import type { PanelIntent } from './intents';
import {
  PERSON_QUESTION_ATTR,
  PERSON_QUESTION_CARD_CLASS,
  PERSON_QUESTION_INPUT_CLASS,
  personQuestionKeyAction,
  tickPersonQuestionCountdowns,
  type PersonQuestionSent,
} from './render/personQuestions';
import type { VsCodeApi } from './vscodeApi';

/** What the question cards need from the panel. */
export interface PersonQuestionControllerOptions {
  api: Pick<VsCodeApi, 'postMessage'>;
  root: HTMLElement;
  announcer: HTMLElement;
  /** The snapshot on screen. */
  state(): PanelState | undefined;
  /** Renders the panel again (after something was sent). */
  render(): void;
}

/** The question cards' event handlers; each returns true when it handled the event. */
export interface PersonQuestionController {
  /** Questions this panel already answered or declined. */
  readonly sent: ReadonlyMap<string, PersonQuestionSent>;
  /** A question card's button was activated. */
  onIntent(intent: Extract<PanelIntent, { kind: 'personQuestion' }>): void;
  onKeyDown(event: KeyboardEvent): boolean;
  /** After a new snapshot was rendered: forget what the host no longer lists, announce and focus a new question. */
  afterState(previous: PanelState | undefined, next: PanelState): void;
  /** Updates the countdowns (the panel's 1 s ticker). */
  tick(now: number): void;
}

function openCard(root: HTMLElement, id: string): HTMLElement | undefined {
  return Array.from(root.querySelectorAll<HTMLElement>(`.${PERSON_QUESTION_CARD_CLASS}:not(.is-settled)`)).find(
    (card) => card.getAttribute(PERSON_QUESTION_ATTR.id) === id,
  );
}

/** Starts the question cards' behaviour for one panel. */
export function personQuestionController(options: PersonQuestionControllerOptions): PersonQuestionController {
  const { api, root, announcer } = options;
  const sent = new Map<string, PersonQuestionSent>();

  const pending = (id: string) => options.state()?.personQuestions?.find((q) => q.id === id);

  /** After an answer the card's controls are disabled: the focus goes to the next open question, if any. */
  const settle = (id: string, how: PersonQuestionSent, words: string): void => {
    sent.set(id, how);
    options.render();
    announcer.replaceChildren(textNode(words));
    const active = document.activeElement;
    if (!root.contains(active) || active === document.body || active?.matches(':disabled, .is-settled')) {
      root.querySelector<HTMLElement>(`.${PERSON_QUESTION_CARD_CLASS}:not(.is-settled) .${PERSON_QUESTION_INPUT_CLASS}`)?.focus();
    }
  };

  const sendAnswer = (id: string, text: string): void => {
    if (sent.has(id) || !pending(id)) return;
    if (text.trim() === '') {
      announcer.replaceChildren(textNode('Type an answer first, or let the agent decide.'));
      openCard(root, id)?.querySelector<HTMLElement>(`.${PERSON_QUESTION_INPUT_CLASS}`)?.focus();
      return;
    }
    api.postMessage(personQuestionAnswerMessage(id, text));
    settle(id, 'answered', 'Answer sent.');
  };

  const decline = (id: string): void => {
    if (sent.has(id) || !pending(id)) return;
    api.postMessage(personQuestionDeclineMessage(id));
    settle(id, 'declined', 'Left to the agent: it decides by itself.');
  };

  const typed = (id: string): string =>
    openCard(root, id)?.querySelector<HTMLTextAreaElement>(`textarea.${PERSON_QUESTION_INPUT_CLASS}`)?.value ?? '';

  return {
    sent,
    onIntent({ questionId, answer }) {
      if ('decline' in answer) decline(questionId);
      else sendAnswer(questionId, 'choice' in answer ? answer.choice : typed(questionId));
    },
    onKeyDown(event) {
      const card = event.target instanceof Element ? event.target.closest<HTMLElement>(`.${PERSON_QUESTION_CARD_CLASS}`) : null;
      if (!card) return false;
      const id = card.getAttribute(PERSON_QUESTION_ATTR.id);
      const inTextArea = event.target instanceof HTMLTextAreaElement;
      const action = personQuestionKeyAction(event, inTextArea);
      if (!id || !action || card.classList.contains('is-settled')) return false;
      event.preventDefault();
      if (action === 'decline') decline(id);
      else sendAnswer(id, typed(id));
      return true;
    },
    afterState(previous, next) {
      const listed = new Set((next.personQuestions ?? []).map((q) => q.id));
      for (const id of [...sent.keys()]) if (!listed.has(id)) sent.delete(id);
      const seen = new Set((previous?.personQuestions ?? []).map((q) => q.id));
      const fresh = (next.personQuestions ?? []).filter((q) => !seen.has(q.id) && !sent.has(q.id));
      const newest = fresh.at(-1);
      if (!newest) return;
      announcer.replaceChildren(textNode(`Question from the ${newest.asker ?? 'agent'}: ${newest.text}`));
      // Like a new approval card: the focus moves only when the panel has it and the person is not typing in it.
      if (!document.hasFocus()) return;
      const active = document.activeElement;
      if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) return;
      openCard(root, newest.id)?.querySelector<HTMLElement>(`.${PERSON_QUESTION_INPUT_CLASS}`)?.focus();
    },
    tick(now) {
      tickPersonQuestionCountdowns(root, now);
    },
  };
}
