/**
 * The panel's part of a role's question to the person (`ask_person`): the pending question card in the
 * {@link PendingPersonQuestionSchema panel state}. (Not the QA / CoT agents' `questions`, which a person asks.)
 * The panel's two answers to it — an answer in words and "Let the agent decide" — are the panel messages
 * `panelMessages/personQuestionAnswer.ts` and `panelMessages/personQuestionDecline.ts`.
 * Bundled for the browser as well as the host: zod/mini only, no `vscode`, no node imports.
 */
import * as z from 'zod/mini';

/** Longest answer the host accepts from the panel (an answer, not a document). */
export const PERSON_ANSWER_LIMIT = 2000;
/** Longest question text kept on a card (the core's `ask_person` allows 1,000 characters plus the role's words). */
export const PERSON_QUESTION_TEXT_LIMIT = 4000;

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

/** A pending question card. */
export type PendingPersonQuestion = z.infer<typeof PendingPersonQuestionSchema>;
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
