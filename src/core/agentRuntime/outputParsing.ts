import { extractJson } from '../json/jsonText';

/** Result of reading JSON out of model text. */
export type JsonOutput = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Reads one JSON value from model text: plain JSON, a ```json fenced block, or the outermost `{...}` in prose
 * (the same extraction as agent configs use, see `extractJson`). Never throws; a failure says what was wrong
 * in words the model can act on.
 */
export function parseJsonOutput(text: string): JsonOutput {
  if (!text.trim()) return { ok: false, problem: '(output): the reply was empty, expected a JSON object' };
  const parsed = extractJson(text);
  return parsed.ok ? parsed : { ok: false, problem: `(output): the reply is not valid JSON (${parsed.problem.reason})` };
}
