/**
 * QA and chain-of-thought answers about selected code (CoT steps as an ordered list), their text as Markdown; a
 * question still being answered shows at once, its answer streaming in, with Cancel. The newest answer is open,
 * earlier ones are folded away, so the section stays short at the top of the panel.
 */
import {
  cancelQuestionMessage,
  FOLLOW_UP_LIMIT,
  followUpMessage,
  openFileMessage,
  parseSourceLabel,
  retryQuestionMessage,
  type Answer,
  type CotAnswer,
  type PendingQuestion,
  type QaAnswer,
} from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { formatConfidence } from '../format';
import { icon } from '../icons';
import { markdownBlock, markdownInline } from '../markdown';
import { sends, withIntent } from '../intents';
import { fixButton } from './fixButtons';
import { KEY_ATTR } from './context';
import { section } from './section';

function confidenceMeter(confidence: number): HTMLElement {
  const level = confidence >= 0.75 ? 'high' : confidence >= 0.4 ? 'medium' : 'low';
  return h(
    'div',
    { class: `confidence confidence-${level}` },
    h('span', { class: 'field-label' }, 'Confidence'),
    h('meter', { min: 0, max: 1, low: 0.4, high: 0.75, optimum: 1, value: confidence, 'aria-label': 'Confidence' }),
    h('span', { class: 'confidence-value' }, formatConfidence(confidence)),
  );
}

function source(answer: { source?: string }): HTMLElement | null {
  if (!answer.source) return null;
  const target = parseSourceLabel(answer.source);
  if (!target) return null;
  return h(
    'p',
    { class: 'answer-source mono' },
    sends(
      h('button', { type: 'button', class: 'link-button file-link', title: `Open ${answer.source}` }, answer.source),
      openFileMessage(target.path, target.line),
    ),
  );
}

/** The input under an answer for a follow-up question (the same agent answers it, with this Q/A as context). */
function followUpForm(answer: Answer): HTMLElement {
  const inputId = `follow-up-${answer.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const form = h(
    'form',
    { class: 'follow-up', 'aria-label': 'Follow-up question' },
    h('input', {
      type: 'text',
      id: inputId,
      class: 'follow-up-input',
      name: 'question',
      maxlength: FOLLOW_UP_LIMIT,
      placeholder: 'Ask a follow-up…',
      'aria-label': 'Follow-up question about this answer',
      autocomplete: 'off',
      [KEY_ATTR]: `follow-up:${answer.id}`,
    }),
    h(
      'button',
      { type: 'submit', class: 'button button-secondary follow-up-send', 'aria-label': 'Ask the follow-up question' },
      'Ask',
    ),
  );
  return withIntent(form, { kind: 'submit', message: (question) => followUpMessage(answer.id, question) });
}

function followUpLabel(answer: { followUpOf?: string }, answers: readonly Answer[]): HTMLElement | null {
  if (!answer.followUpOf) return null;
  const previous = answers.find((a) => a.id === answer.followUpOf);
  const asked = previous ? (previous.kind === 'qa' ? previous.question : previous.problem) : 'an earlier answer';
  return h('p', { class: 'answer-follow-up-of', title: asked }, `Follow-up to: ${asked}`);
}

function renderQa(answer: QaAnswer, answers: readonly Answer[]): HTMLElement {
  return h(
    'article',
    { class: 'answer answer-qa', 'data-answer-id': answer.id, 'aria-label': 'Answer' },
    h('h3', { class: 'answer-kind' }, icon('question'), h('span', {}, 'Question')),
    followUpLabel(answer, answers),
    h('p', { class: 'answer-question' }, answer.question),
    source(answer),
    h('div', { class: 'field-label' }, 'Answer'),
    markdownBlock(answer.answer, 'answer-text'),
    confidenceMeter(answer.confidence),
    answer.reasoning
      ? h(
          'details',
          { class: 'reasoning', [KEY_ATTR]: `reasoning:${answer.id}` },
          h('summary', {}, 'Reasoning'),
          markdownBlock(answer.reasoning),
        )
      : null,
    followUpForm(answer),
  );
}

function renderCot(answer: CotAnswer, answers: readonly Answer[]): HTMLElement {
  return h(
    'article',
    { class: 'answer answer-cot', 'data-answer-id': answer.id, 'aria-label': 'Step-by-step explanation' },
    h('h3', { class: 'answer-kind' }, icon('steps'), h('span', {}, 'Step by step')),
    followUpLabel(answer, answers),
    h('p', { class: 'answer-question' }, answer.problem),
    source(answer),
    h(
      'ol',
      { class: 'cot-steps' },
      answer.steps.map((step) => h('li', {}, markdownInline(step))),
    ),
    h('div', { class: 'field-label' }, 'Final answer'),
    markdownBlock(answer.final_answer, 'answer-text answer-final'),
    confidenceMeter(answer.confidence),
    followUpForm(answer),
  );
}

/**
 * A question whose answer failed: where it was asked (at the top), what happened in plain words, what to do, and Retry
 * (the primary action), the fix buttons and Dismiss.
 */
function renderFailed(
  question: PendingQuestion,
  failed: NonNullable<PendingQuestion['failed']>,
  answers: readonly Answer[],
): HTMLElement {
  const titleId = `question-failed-${question.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return h(
    'article',
    {
      class: 'answer answer-failed',
      'data-question-id': question.id,
      'data-error-code': failed.error_code,
      role: 'alert',
      'aria-labelledby': titleId,
    },
    h('h3', { class: 'answer-failed-title', id: titleId }, icon('error'), h('span', {}, failed.title)),
    followUpLabel(question, answers),
    h('p', { class: 'answer-question' }, question.question),
    source(question),
    h('p', { class: 'answer-failed-message' }, failed.message),
    failed.action ? h('p', { class: 'answer-failed-action' }, failed.action) : null,
    h(
      'div',
      { class: 'answer-pending-actions' },
      withIntent(
        h(
          'button',
          {
            type: 'button',
            class: 'button button-primary answer-retry',
            'aria-label': `Retry: ${question.question.slice(0, 120)}`,
          },
          icon('resume'),
          h('span', {}, 'Retry'),
        ),
        { kind: 'post', message: retryQuestionMessage(question.id), disableAfter: true },
      ),
      (failed.fixes ?? []).map((fix) => fixButton(fix, `question:${question.id}`)),
      withIntent(h('button', { type: 'button', class: 'button button-secondary answer-dismiss' }, h('span', {}, 'Dismiss')), {
        kind: 'post',
        message: cancelQuestionMessage(question.id),
        disableAfter: true,
      }),
    ),
  );
}

/** A question being answered: what was asked, the answer so far (Markdown, as it streams) and Cancel. */
function renderPending(question: PendingQuestion, answers: readonly Answer[]): HTMLElement {
  if (question.failed) return renderFailed(question, question.failed, answers);
  return h(
    'article',
    {
      class: 'answer answer-pending',
      'data-question-id': question.id,
      'aria-label': question.kind === 'qa' ? 'Question being answered' : 'Explanation being written',
      'aria-busy': 'true',
    },
    h(
      'h3',
      { class: 'answer-kind' },
      icon('running'),
      h('span', {}, question.kind === 'qa' ? 'Answering…' : 'Explaining step by step…'),
    ),
    followUpLabel(question, answers),
    h('p', { class: 'answer-question' }, question.question),
    source(question),
    question.partial === ''
      ? h('p', { class: 'answer-waiting' }, 'Waiting for the model’s first words…')
      : markdownBlock(question.partial, 'answer-text answer-streaming'),
    h(
      'div',
      { class: 'answer-pending-actions' },
      withIntent(
        h(
          'button',
          {
            type: 'button',
            class: 'button button-secondary',
            'aria-label': `Cancel the question: ${question.question.slice(0, 120)}`,
          },
          icon('stop'),
          h('span', {}, 'Cancel'),
        ),
        // The host ends the question; the next snapshot drops the card.
        { kind: 'post', message: cancelQuestionMessage(question.id), disableAfter: true },
      ),
    ),
  );
}

function renderAnswer(answer: Answer, answers: readonly Answer[]): HTMLElement {
  return answer.kind === 'qa' ? renderQa(answer, answers) : renderCot(answer, answers);
}

/**
 * Renders the questions being answered and the answers (newest first; all but the newest folded under "Earlier
 * answers"), or nothing when there are none.
 */
export function renderAnswers(answers: readonly Answer[], questions: readonly PendingQuestion[] = []): HTMLElement | null {
  if (answers.length === 0 && questions.length === 0) return null;
  // A question just asked (or failed) takes the top: the answers before it are folded away, not shown above it.
  const ordered = [...answers].reverse();
  const newest = questions.length > 0 ? undefined : ordered[0];
  const earlier = questions.length > 0 ? ordered : ordered.slice(1);
  return section(
    'answers',
    'Answers',
    'question',
    answers.length + questions.length,
    [...questions].reverse().map((question) => renderPending(question, answers)),
    newest ? renderAnswer(newest, answers) : null,
    earlier.length > 0
      ? h(
          'details',
          { class: 'earlier-answers', [KEY_ATTR]: 'earlier-answers' },
          h('summary', {}, `Earlier answers (${earlier.length})`),
          earlier.map((answer) => renderAnswer(answer, answers)),
        )
      : null,
  );
}
