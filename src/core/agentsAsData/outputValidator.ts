import { z } from 'zod';
import { toStrictSchema, validateOutput, type OutputSchemaNode } from './outputSchema';

/** Outcome of checking a model's output: the clean, typed value, or one `path: problem` line per violation. */
export type OutputCheck<T = Record<string, unknown>> = { ok: true; value: T } | { ok: false; violations: string[] };

/**
 * One interface over both ways an agent declares its output: a zod object (a code `Signature`) or a JSON
 * `output_schema` of the supported subset (an agent config). `jsonSchema` is what the model is told to
 * produce (the response format); `check` validates a parsed JSON value against the same contract and
 * returns the clean value typed as `T`.
 */
export interface OutputValidator<T extends Record<string, unknown> = Record<string, unknown>> {
  /** The JSON schema sent to the model as the response format. */
  readonly jsonSchema: Record<string, unknown>;
  /** Validates a parsed JSON value; never throws. */
  check(value: unknown): OutputCheck<T>;
}

/** The output validator of a zod schema: its JSON schema (output side, no `$schema`) and `safeParse`. */
export function zodOutputValidator<T extends Record<string, unknown>>(schema: z.ZodType<T>): OutputValidator<T> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return {
    jsonSchema,
    check(value) {
      const parsed = schema.safeParse(value);
      if (parsed.success) return { ok: true, value: parsed.data };
      return { ok: false, violations: parsed.error.issues.map((i) => `${i.path.join('.') || '(output)'}: ${i.message}`) };
    },
  };
}

/**
 * The output validator of a checked `output_schema` node (see `checkOutputSchema`): its strict JSON schema
 * (`toStrictSchema`) and `validateOutput`, which drops unknown keys and leaves out missing optional fields.
 */
export function jsonSchemaOutputValidator<T extends Record<string, unknown> = Record<string, unknown>>(
  node: OutputSchemaNode,
): OutputValidator<T> {
  return {
    jsonSchema: toStrictSchema(node),
    check(value) {
      const violations: string[] = [];
      const clean = validateOutput(node, value, '', violations);
      return violations.length > 0 ? { ok: false, violations } : { ok: true, value: clean as T };
    },
  };
}
