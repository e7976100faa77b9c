/** Panel → host: a follow-up question to answer `answerId`, for the same agent with the previous question and answer as context. */
import * as z from 'zod/mini';
import { requestId } from '../protocol/primitives';
import { definePanelMessage } from './define';

/** Longest follow-up question the host accepts from the panel. */
export const FOLLOW_UP_LIMIT = 2000;

/** `{ type: 'followUp', answerId, question }`. */
export const followUp = definePanelMessage(
  'followUp',
  { answerId: requestId, question: z.string().check(z.trim(), z.minLength(1), z.maxLength(FOLLOW_UP_LIMIT)) },
  (message, host) => host.askFollowUp(message.answerId, message.question),
);

/** Builds the panel's follow-up question to answer `answerId` (trimmed; the schema bounds it). */
export function followUpMessage(answerId: string, question: string) {
  return { type: followUp.type, answerId, question: question.trim() };
}
