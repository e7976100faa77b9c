/** Panel → host: the panel has loaded and wants the current state. */
import { definePanelMessage } from './define';

/** `{ type: 'ready' }`. */
export const ready = definePanelMessage('ready', {}, (_message, host) => host.panelReady());

/** Builds the panel's ready message. */
export function readyMessage() {
  return { type: ready.type };
}
