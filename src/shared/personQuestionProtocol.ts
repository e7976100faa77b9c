/**
 * The panel's part of a role's question to the person (`ask_person`): the pending question card in the
 * {@link PendingPersonQuestionSchema panel state}, and the panel's two answers to it — an answer in words
 * (`personQuestionAnswer`) or "Let the agent decide" (`personQuestionDecline`). (Not the QA / CoT agents'
 * `questions`, which a person asks.) `panelProtocol.ts` embeds these in
 * `PanelState` and in its panel → host messages; they live here so the question card is one file of the
 * protocol. Bundled for the browser as well as the host: zod/mini only, no `vscode`, no node imports.
 */
import * as z from 'zod/mini';

/** Longest answer the host accepts from the panel (an answer, not a document). */
export const PERSON_ANSWER_LIMIT = 2000;
/** Longest question text kept on a card (the core's `ask_person` allows 1,000 characters plus the role's words). */
export const PERSON_QUESTION_TEXT_LIMIT = 4000;

/** Message `type`s the panel sends about a question (part of `PANEL_MESSAGE`). */
export const PERSON_QUESTION_MESSAGE = {
  personQuestionAnswer: 'personQuestionAnswer',
  personQuestionDecline: 'personQuestionDecline',
} as const;

const questionId = z.string().check(z.minLength(1), z.maxLength(200));

/** A role's question waiting for the person's answer; the role decides itself at `expiresAt` (or when declined). */
export const PendingPersonQuestionSchema = z.object({
  /** The control protocol's question id (the answer goes back by it). */
  id: questionId,
  /** Who asks, as the core words it ("Tester"); absent when the text names no one. */
  asker: z.optional(z.string()),
  /** The question itself (plain text: always shown as text, never as HTML or Markdown). */
  text: z.string(),
  /** Answers to pick from, when the question offers some (the person may still write their own). */
  choices: z.optional(z.array(z.string())),
  /** Epoch ms after which nobody's answer counts any more (absent: no deadline was given). */
  expiresAt: z.optional(z.number().check(z.nonnegative())),
});

/** Panel → host: the person's answer in words to question `questionId`. */
export const PersonQuestionAnswerMessageSchema = z.strictObject({
  type: z.literal(PERSON_QUESTION_MESSAGE.personQuestionAnswer),
  questionId,
  text: z.string().check(z.trim(), z.minLength(1), z.maxLength(PERSON_ANSWER_LIMIT)),
});

/** Panel → host: the person chose "Let the agent decide" on question `questionId`. */
export const PersonQuestionDeclineMessageSchema = z.strictObject({
  type: z.literal(PERSON_QUESTION_MESSAGE.personQuestionDecline),
  questionId,
});

/** A pending question card. */
export type PendingPersonQuestion = z.infer<typeof PendingPersonQuestionSchema>;
/** Panel → host: an answer to a question. */
export type PersonQuestionAnswerMessage = z.infer<typeof PersonQuestionAnswerMessageSchema>;
/** Panel → host: "Let the agent decide". */
export type PersonQuestionDeclineMessage = z.infer<typeof PersonQuestionDeclineMessageSchema>;

/** Builds the panel's answer to question `questionId` (trimmed; the schema bounds it). */
export function personQuestionAnswerMessage(questionId: string, text: string): PersonQuestionAnswerMessage {
  return { type: PERSON_QUESTION_MESSAGE.personQuestionAnswer, questionId, text: text.trim() };
}

/** Builds the panel's "Let the agent decide" for question `questionId`. */
export function personQuestionDeclineMessage(questionId: string): PersonQuestionDeclineMessage {
  return { type: PERSON_QUESTION_MESSAGE.personQuestionDecline, questionId };
}

/**
 * The card for a control-protocol question: the role named by the core's wording ("The Tester asks: …") becomes
 * `asker` and the rest the question; `timeoutMs` from `now` becomes the deadline. Very long text is clipped.
 */
export function pendingPersonQuestion(
  message: { id: string; text: string; choices?: string[]; timeoutMs?: number },
  now: number,
): PendingPersonQuestion {
  const named = /^The ([A-Z][\w -]{0,40}) asks: ([\s\S]*)$/.exec(message.text);
  const text = (named ? named[2]! : message.text).slice(0, PERSON_QUESTION_TEXT_LIMIT);
  const choices = message.choices?.filter((choice) => choice.trim() !== '').map((choice) => choice.slice(0, PERSON_ANSWER_LIMIT));
  return {
    id: message.id,
    ...(named ? { asker: named[1]! } : {}),
    text,
    ...(choices && choices.length > 0 ? { choices } : {}),
    ...(message.timeoutMs !== undefined ? { expiresAt: now + message.timeoutMs } : {}),
  };
}
