import type { z } from 'zod';

/** Either the parsed value or a message for the model saying what was wrong. */
export type ArgumentCheck<T> = { ok: true; value: T } | { ok: false; message: string; problems?: string[] };

/**
 * Parses the raw argument string a model produced. An empty string counts as `{}` (models send
 * it for tools without parameters); malformed JSON gives the parse error, quoted.
 */
export function parseToolArguments(toolName: string, raw: unknown): ArgumentCheck<unknown> {
  if (typeof raw !== 'string') return { ok: true, value: raw ?? {} };
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const shown = raw.length > 300 ? `${raw.slice(0, 300)}…` : raw;
    return {
      ok: false,
      message: `The arguments for ${toolName} are not valid JSON (${reason}). Received: ${shown}. Send one JSON object that matches the tool's parameter schema.`,
    };
  }
}

/** Validates parameters against a tool's zod schema; on failure lists every issue as `path: message`. */
export function validateToolParams<S extends z.ZodType>(toolName: string, schema: S, params: unknown): ArgumentCheck<z.infer<S>> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(arguments)'}: ${issue.message}`);
  return {
    ok: false,
    problems,
    message: `Invalid arguments for ${toolName}:\n${problems.map((p) => `  - ${p}`).join('\n')}\nFix these and call the tool again.`,
  };
}
