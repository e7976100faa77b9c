/** Panel → host: open one commit's changes (a hash in the cycle list) of a recorded session in VS Code's diff views. */
import * as z from 'zod/mini';
import { sessionId } from '../protocol/primitives';
import { definePanelMessage } from './define';

/** `{ type: 'openCommit', sessionId, sha }`. */
export const openCommit = definePanelMessage(
  'openCommit',
  { sessionId, sha: z.string().check(z.regex(/^[0-9a-f]{7,64}$/)) },
  (message, host) => host.openCommit(message.sessionId, message.sha),
);

/** Builds the panel's request to open commit `sha` of session `id`. */
export function openCommitMessage(id: string, sha: string) {
  return { type: openCommit.type, sessionId: id, sha };
}
