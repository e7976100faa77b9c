/** Panel → host: stop answering pending question `id` (its Cancel button). */
import { requestId } from '../protocol/primitives';
import { definePanelMessage } from './define';

/** `{ type: 'cancelQuestion', id }`. */
export const cancelQuestion = definePanelMessage('cancelQuestion', { id: requestId }, (message, host) =>
  host.cancelQuestion(message.id),
);

/** Builds the panel's request to stop answering pending question `id`. */
export function cancelQuestionMessage(id: string) {
  return { type: cancelQuestion.type, id };
}
