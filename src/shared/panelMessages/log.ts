/** Panel → host: a log line for the extension's output channel (e.g. a render failure). */
import * as z from 'zod/mini';
import { PANEL_LOG_LEVELS, type PanelLogLevel } from '../protocol/vocabulary';
import { definePanelMessage } from './define';

/** Longest `log` message the host accepts from the panel. */
export const LOG_MESSAGE_LIMIT = 4000;

/** `{ type: 'log', level, message }`. */
export const log = definePanelMessage(
  'log',
  { level: z.enum(PANEL_LOG_LEVELS), message: z.string().check(z.maxLength(LOG_MESSAGE_LIMIT)) },
  (message, host) => host.log[message.level](`panel: ${message.message}`),
);

/** Builds a log line from the panel (truncated to the schema's limit). */
export function logMessage(level: PanelLogLevel, message: string) {
  return { type: log.type, level, message: message.slice(0, LOG_MESSAGE_LIMIT) };
}
