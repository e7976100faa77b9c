/** Panel → host: open VS Code's diff editor for the file change of an approval card or a history entry (by its id). */
import { requestId } from '../protocol/primitives';
import { definePanelMessage } from './define';

/** `{ type: 'openDiff', id }`. */
export const openDiff = definePanelMessage('openDiff', { id: requestId }, (message, host) => host.openDiff(message.id));

/** Builds the panel's request to open the file change of approval card or history entry `id` in the diff editor. */
export function openDiffMessage(id: string) {
  return { type: openDiff.type, id };
}
