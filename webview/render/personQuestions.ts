/**
 * Question cards (a role's `ask_person`): who asks, the question as plain text, its choices as buttons, a text
 * area for the person's own answer, **Send answer** and **Let the agent decide**, and the time left before the
 * role decides by itself. Shown at the top of the session, above the approval cards.
 *
 * Keys (see {@link personQuestionKeyAction}): in the text area Enter or Ctrl/Cmd+Enter sends, Shift+Enter starts a new
 * line; Escape anywhere on an open card lets the agent decide.
 */
import { PERSON_ANSWER_LIMIT, type PendingPersonQuestion } from '../../src/shared/personQuestionProtocol';
import { h } from '../dom';
import { formatCountdown } from '../format';
import { icon } from '../icons';
import { withIntent, type PanelIntent } from '../intents';
import { KEY_ATTR, type PersonQuestionSent, type RenderContext } from './context';
import { section } from './section';

export type { PersonQuestionSent };

/** Attributes the question cards carry. */
export const PERSON_QUESTION_ATTR = {
  /** The question a card or text area belongs to. */
  id: 'data-person-question-id',
  /** A card's deadline (epoch ms); the 1 s ticker updates the text of every element that has it. */
  expiresAt: 'data-person-question-expires-at',
  /** Who asks, for the ticker's words. */
  asker: 'data-person-asker',
} as const;

/** The class of a question card (an open one has no `is-settled`). */
export const PERSON_QUESTION_CARD_CLASS = 'person-question-card';
/** The class of a question card's text area. */
export const PERSON_QUESTION_INPUT_CLASS = 'person-question-input';

function who(question: Pick<PendingPersonQuestion, 'asker'>): string {
  return question.asker ? `the ${question.asker}` : 'the agent';
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function countdownText(asker: string, expiresAt: number, now: number): string {
  const left = expiresAt - now;
  return left > 0
    ? `${capitalised(asker)} decides by itself in ${formatCountdown(left)}`
    : `No answer in time — ${asker} decides by itself`;
}

const SENT_TEXT: Record<PersonQuestionSent, (asker: string) => string> = {
  answered: (asker) => `Answer sent — waiting for ${asker}…`,
  declined: (asker) => `Left to ${asker} — it decides by itself.`,
};

function cssSafe(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/g, '_');
}

type QuestionAnswer = Extract<PanelIntent, { kind: 'personQuestion' }>['answer'];

/** A button that answers question `id` (a suggested choice, the typed answer, or letting the agent decide). */
function answerButton(
  id: string,
  settled: boolean,
  b: { label: string; key: string; className: string; answer: QuestionAnswer; ariaLabel: string },
): HTMLElement {
  const attributes = { type: 'button', class: `button ${b.className}`, [KEY_ATTR]: `${b.key}:${id}`, disabled: settled };
  return withIntent(h('button', { ...attributes, 'aria-label': b.ariaLabel }, b.label), {
    kind: 'personQuestion',
    questionId: id,
    answer: b.answer,
  });
}

/** The keys an open question card answers to, for the eye. */
function questionKeysLine(): HTMLElement {
  return h(
    'p',
    { class: 'approval-keys person-question-keys', 'aria-hidden': 'true' },
    'Keys: ',
    h('kbd', {}, 'Enter'),
    ' send · ',
    h('kbd', {}, 'Shift+Enter'),
    ' new line · ',
    h('kbd', {}, 'Esc'),
    ' let the agent decide',
  );
}

/** What was sent once the person answered, else the countdown when the question has a timeout. */
function questionStatus(
  question: PendingPersonQuestion,
  sent: PersonQuestionSent | undefined,
  expired: boolean,
  asker: string,
  now: number,
): HTMLElement | null {
  if (sent)
    return h('span', { class: 'approval-answered' }, icon(sent === 'declined' ? 'skip' : 'check'), SENT_TEXT[sent](asker));
  if (question.expiresAt === undefined) return null;
  return h(
    'span',
    {
      class: `countdown ${expired ? 'is-expired' : ''}`,
      role: 'timer',
      [PERSON_QUESTION_ATTR.expiresAt]: question.expiresAt,
      [PERSON_QUESTION_ATTR.asker]: asker,
    },
    icon('clock'),
    h('span', { class: 'countdown-text' }, countdownText(asker, question.expiresAt, now)),
  );
}

function renderCard(question: PendingPersonQuestion, context: RenderContext): HTMLElement {
  const sent = context.personQuestionsSent?.get(question.id);
  const expired = question.expiresAt !== undefined && question.expiresAt <= context.now;
  const settled = sent !== undefined || expired;
  const asker = who(question);
  const base = `person-question-${cssSafe(question.id)}`;
  const button = (label: string, key: string, className: string, answer: QuestionAnswer, ariaLabel: string) =>
    answerButton(question.id, settled, { label, key, className, answer, ariaLabel });
  return h(
    'article',
    {
      class: `${PERSON_QUESTION_CARD_CLASS} ${settled ? 'is-settled' : ''}`,
      [PERSON_QUESTION_ATTR.id]: question.id,
      'aria-labelledby': `${base}-title`,
      'aria-describedby': `${base}-text`,
      [KEY_ATTR]: `person-question-card:${question.id}`,
      tabindex: -1,
      ...(settled ? {} : { 'aria-keyshortcuts': 'Enter Control+Enter Escape' }),
    },
    h(
      'h3',
      { class: 'person-question-title', id: `${base}-title` },
      icon('question'),
      h('span', {}, `${capitalised(asker)} asks`),
    ),
    // Plain text only: the model's words go in as a text node (see dom.ts), line breaks kept by CSS.
    h('p', { class: 'person-question-text', id: `${base}-text` }, question.text),
    question.choices && question.choices.length > 0
      ? h(
          'div',
          { class: 'person-question-choices', role: 'group', 'aria-label': 'Suggested answers' },
          question.choices.map((choice, index) =>
            button(
              choice,
              `personQuestionChoice:${index}`,
              'button-secondary person-question-choice',
              { choice },
              `Answer: ${choice}`,
            ),
          ),
        )
      : null,
    h('textarea', {
      class: PERSON_QUESTION_INPUT_CLASS,
      id: `${base}-input`,
      rows: 3,
      maxlength: PERSON_ANSWER_LIMIT,
      placeholder: 'Your answer…',
      'aria-label': `Your answer to ${asker}`,
      [PERSON_QUESTION_ATTR.id]: question.id,
      [KEY_ATTR]: `person-question-input:${question.id}`,
      disabled: settled,
    }),
    h(
      'div',
      { class: 'person-question-actions' },
      button('Send answer', 'personQuestionAnswer', 'button-primary', { typed: true }, `Send your answer to ${asker}`),
      button(
        'Let the agent decide',
        'personQuestionDecline',
        'button-secondary',
        { decline: true },
        `Let ${asker} decide without your answer`,
      ),
    ),
    settled ? null : questionKeysLine(),
    h('p', { class: 'approval-status person-question-status' }, questionStatus(question, sent, expired, asker, context.now)),
  );
}

/** Renders the pending questions section, or nothing when no role waits for the person. */
export function renderPersonQuestions(questions: readonly PendingPersonQuestion[], context: RenderContext): HTMLElement | null {
  if (questions.length === 0) return null;
  return section(
    'person-questions',
    questions.length === 1 ? 'Question for you' : 'Questions for you',
    'question',
    questions.length,
    ...questions.map((question) => renderCard(question, context)),
  );
}

/** What a key press on an open question card does: send the typed answer, let the agent decide, or nothing. */
export type PersonQuestionKeyAction = 'send' | 'decline';

/**
 * Keys of an open question card: Enter (without Shift) or Ctrl/Cmd+Enter in its text area sends the answer —
 * never while an input method composes text; Shift+Enter is a new line. Escape anywhere on the card lets the
 * agent decide (harmless: the role is told no one answered and decides by itself, as at the deadline).
 */
export function personQuestionKeyAction(
  event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey' | 'isComposing'>,
  inTextArea: boolean,
): PersonQuestionKeyAction | undefined {
  if (event.isComposing) return undefined;
  if (event.key === 'Escape' && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) return 'decline';
  if (event.key === 'Enter' && inTextArea && !event.shiftKey && !event.altKey) return 'send';
  return undefined;
}

/** Updates every question countdown under `root` to `now`; an expired card is settled (the role decides anyway). */
export function tickPersonQuestionCountdowns(root: ParentNode, now: number): void {
  for (const element of Array.from(root.querySelectorAll<HTMLElement>(`[${PERSON_QUESTION_ATTR.expiresAt}]`))) {
    const expiresAt = Number(element.getAttribute(PERSON_QUESTION_ATTR.expiresAt));
    const asker = element.getAttribute(PERSON_QUESTION_ATTR.asker) ?? 'the agent';
    const textElement = element.querySelector('.countdown-text');
    if (textElement) textElement.textContent = countdownText(asker, expiresAt, now);
    const left = expiresAt - now;
    element.classList.toggle('is-urgent', left > 0 && left <= 10_000);
    if (left > 0) continue;
    element.classList.add('is-expired');
    const card = element.closest(`.${PERSON_QUESTION_CARD_CLASS}`);
    card?.classList.add('is-settled');
    card
      ?.querySelectorAll<HTMLButtonElement | HTMLTextAreaElement>('button, textarea')
      .forEach((control) => (control.disabled = true));
  }
}
