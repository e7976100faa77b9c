/**
 * Host → panel messages, and the validation of what either side receives: an invalid or unknown message is dropped
 * with a reason to log, never acted on. Part of the panel protocol; browser-safe (zod/mini only).
 */
import * as z from 'zod/mini';
import { PanelMessageSchema, type PanelMessage } from '../panelMessages';
import { PanelStateSchema, type PanelState } from './state';

/** Message `type`s sent by the host to the panel. */
export const HOST_MESSAGE = { state: 'state' } as const;

/** Host → panel: the whole view model. */
export const StateMessageSchema = z.object({ type: z.literal(HOST_MESSAGE.state), state: PanelStateSchema });

/** Every message the host may send to the panel. */
export const HostMessageSchema = z.discriminatedUnion('type', [StateMessageSchema]);

/** Host → panel state snapshot. */
export type StateMessage = z.infer<typeof StateMessageSchema>;
/** Any host → panel message. */
export type HostMessage = z.infer<typeof HostMessageSchema>;

/** Builds the host's state message. */
export function stateMessage(state: PanelState): StateMessage {
  return { type: HOST_MESSAGE.state, state };
}

/** Result of parsing an incoming message: the typed message, or undefined and a reason to log. */
export type ParsedMessage<M> = { message: M; reason?: undefined } | { message: undefined; reason: string };

/** Short, value-free description of why a message was rejected (safe to log). */
function describeIssues(error: z.core.$ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(message)';
    return `${path}: ${issue.message}`;
  });
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : '';
  return shown.join('; ') + more;
}

function parseWith<M>(schema: z.ZodMiniType<M>, value: unknown, direction: string): ParsedMessage<M> {
  const result = schema.safeParse(value);
  if (result.success) return { message: result.data };
  const type =
    typeof value === 'object' && value !== null && 'type' in value ? String((value as { type: unknown }).type).slice(0, 40) : '?';
  return { message: undefined, reason: `invalid ${direction} message (type ${type}): ${describeIssues(result.error)}` };
}

/** Validates a message received by the panel. Invalid or unknown messages give `{ message: undefined, reason }`. */
export function parseHostMessage(value: unknown): ParsedMessage<HostMessage> {
  return parseWith(HostMessageSchema, value, 'host→panel');
}

/** Validates a message received by the host. Invalid or unknown messages give `{ message: undefined, reason }`. */
export function parsePanelMessage(value: unknown): ParsedMessage<PanelMessage> {
  return parseWith(PanelMessageSchema, value, 'panel→host');
}

/** Validates a persisted or received state on its own (e.g. what `getState` returned). */
export function parsePanelState(value: unknown): PanelState | undefined {
  const result = PanelStateSchema.safeParse(value);
  return result.success ? result.data : undefined;
}
