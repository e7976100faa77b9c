/**
 * One panel → host message, defined in one place: its `type`, the fields it carries (a strict zod/mini object, since
 * the webview renders model output and is treated as untrusted) and what the host does with it.
 */
import * as z from 'zod/mini';
import type { PanelHost } from './panelHost';

/** The schema of a message of type `Type` with the fields of `Shape`. */
export type PanelMessageSchemaOf<Type extends string, Shape extends z.core.$ZodLooseShape> = z.ZodMiniObject<
  { type: z.ZodMiniLiteral<Type> } & Shape,
  z.core.$strict
>;

/** A panel message: its type, schema and host handler. Register it in `./index.ts`. */
export interface PanelMessageDefinition<Type extends string = string, Schema extends z.ZodMiniType = z.ZodMiniType> {
  readonly type: Type;
  readonly schema: Schema;
  /** What the host does with a valid message (may return a promise; a rejection is logged). */
  handle(message: z.infer<Schema>, host: PanelHost): unknown;
}

/**
 * Defines a panel → host message: `definePanelMessage('openDiff', { id: requestId }, (m, host) => host.openDiff(m.id))`.
 * The schema is `{ type, ...shape }`, strict (unknown keys are refused).
 */
export function definePanelMessage<const Type extends string, Shape extends z.core.$ZodLooseShape>(
  type: Type,
  shape: Shape,
  handle: (message: z.infer<PanelMessageSchemaOf<Type, Shape>>, host: PanelHost) => unknown,
): PanelMessageDefinition<Type, PanelMessageSchemaOf<Type, Shape>> {
  const schema = z.strictObject({ type: z.literal(type), ...shape }) as PanelMessageSchemaOf<Type, Shape>;
  return { type, schema, handle };
}
