/** Panel → host: run one of the extension's commands (the toolbar's, a fix button's). */
import * as z from 'zod/mini';
import { PANEL_COMMANDS, type PanelCommandName } from '../protocol/vocabulary';
import { definePanelMessage } from './define';

/** `{ type: 'command', name }`. */
export const command = definePanelMessage('command', { name: z.enum(PANEL_COMMANDS) }, (message, host) =>
  host.runCommand(message.name),
);

/** Builds a command request from the panel. */
export function commandMessage(name: PanelCommandName) {
  return { type: command.type, name };
}
