/** Panel → host: ask again the QA / CoT question `id` whose answer failed (its card's Retry button). */
import { requestId } from '../protocol/primitives';
import { definePanelMessage } from './define';

/** `{ type: 'retryQuestion', id }`. */
export const retryQuestion = definePanelMessage('retryQuestion', { id: requestId }, (message, host) =>
  host.retryQuestion(message.id),
);

/** Builds the panel's request to ask failed question `id` again. */
export function retryQuestionMessage(id: string) {
  return { type: retryQuestion.type, id };
}
