/** Panel → host: a person asked to review, merge, delete or resume a recorded session (the host checks and confirms). */
import * as z from 'zod/mini';
import { sessionId } from '../protocol/primitives';
import { SESSION_ACTIONS, type SessionActionName } from '../protocol/vocabulary';
import { definePanelMessage } from './define';

/** `{ type: 'sessionAction', action, sessionId }`. */
export const sessionAction = definePanelMessage(
  'sessionAction',
  { action: z.enum(SESSION_ACTIONS), sessionId },
  (message, host) => host.sessionAction(message.action, message.sessionId),
);

/** Builds a session action request from the panel. */
export function sessionActionMessage(action: SessionActionName, id: string) {
  return { type: sessionAction.type, action, sessionId: id };
}
