/** Panel → host: the person chose "Let the agent decide" on a role's question `questionId`. */
import { requestId } from '../protocol/primitives';
import { definePanelMessage } from './define';

/** `{ type: 'personQuestionDecline', questionId }`. */
export const personQuestionDecline = definePanelMessage('personQuestionDecline', { questionId: requestId }, (message, host) =>
  host.answerPersonQuestion(message.questionId, { declined: true }),
);

/** Builds the panel's "Let the agent decide" for question `questionId`. */
export function personQuestionDeclineMessage(questionId: string) {
  return { type: personQuestionDecline.type, questionId };
}
