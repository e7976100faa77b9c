/** Panel → host: show the extension's log (the "TDD Agent" output), e.g. from an error card. */
import { definePanelMessage } from './define';

/** `{ type: 'openLog' }`. */
export const openLog = definePanelMessage('openLog', {}, (_message, host) => host.log.show());

/** Builds the panel's request to show the log. */
export function openLogMessage() {
  return { type: openLog.type };
}
