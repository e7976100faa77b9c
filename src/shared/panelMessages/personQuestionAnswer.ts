/** Panel → host: the person's answer in words to a role's question `questionId` (`ask_person`). */
import * as z from 'zod/mini';
import { PERSON_ANSWER_LIMIT } from '../personQuestionProtocol';
import { requestId } from '../protocol/primitives';
import { definePanelMessage } from './define';

/** `{ type: 'personQuestionAnswer', questionId, text }`. */
export const personQuestionAnswer = definePanelMessage(
  'personQuestionAnswer',
  { questionId: requestId, text: z.string().check(z.trim(), z.minLength(1), z.maxLength(PERSON_ANSWER_LIMIT)) },
  (message, host) => host.answerPersonQuestion(message.questionId, { text: message.text }),
);

/** Builds the panel's answer to question `questionId` (trimmed; the schema bounds it). */
export function personQuestionAnswerMessage(questionId: string, text: string) {
  return { type: personQuestionAnswer.type, questionId, text: text.trim() };
}
