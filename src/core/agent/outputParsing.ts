/** Result of reading JSON out of model text. */
export type JsonOutput = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Reads one JSON value from model text: plain JSON, a ```json fenced block, or the outermost `{...}` in prose.
 * Never throws; a failure says what was wrong in words the model can act on.
 */
export function parseJsonOutput(text: string): JsonOutput {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, problem: '(output): the reply was empty, expected a JSON object' };
  const candidates = [trimmed];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  if (start >= 0 && end > start) candidates.push(trimmed.slice(start, end + 1));
  let lastError = '';
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (e) {
      lastError = (e as Error).message;
    }
  }
  return { ok: false, problem: `(output): the reply is not valid JSON (${lastError})` };
}
