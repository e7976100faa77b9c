/** Where a JSON text stopped being valid: 1-based line and column, and the parser's own reason. */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  reason: string;
}

/** The result of {@link parseJsonText}: the value, or where and why the text is not JSON. */
export type JsonParseResult = { ok: true; value: unknown } | { ok: false; problem: JsonSyntaxProblem };

// A prefix that fails only because it ends too early could still become valid JSON. V8 says so in words
// ("Unexpected end", "Unterminated") or reports a position at the very end of the text.
const INCOMPLETE = /Unexpected end of JSON input|Unterminated/;

function reportedPosition(message: string): number | undefined {
  const match = /at position (\d+)/.exec(message);
  return match ? Number(match[1]) : undefined;
}

function isViablePrefix(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    return INCOMPLETE.test(message) || (reportedPosition(message) ?? -1) >= text.length;
  }
}

/**
 * Finds the offset of a syntax error. V8 reports `at position N` for most errors; for the rest, the error
 * is where the longest prefix that could still become valid JSON ends (found by binary search, since every
 * prefix of a viable prefix is viable). An error at the end points at the last non-blank character.
 */
function errorOffset(text: string, message: string): number {
  const end = text.trimEnd().length;
  const reported = reportedPosition(message);
  if (reported !== undefined) return Math.min(reported, end);
  if (INCOMPLETE.test(message)) return end;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (isViablePrefix(text.slice(0, mid))) low = mid;
    else high = mid - 1;
  }
  return Math.min(low, end);
}

/** Parses JSON text; on failure reports the 1-based line and column of the error, for messages people act on. */
export function parseJsonText(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    // Drop V8's quote of the input ('…, "{…"... is not valid JSON'): the line and column say where.
    const reason = message.replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '').replace(/\r?\n/g, '\\n');
    const offset = errorOffset(text, message);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    return { ok: false, problem: { line, column, reason } };
  }
}

const FENCE = /```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)\r?\n?```/;

/**
 * Finds the one JSON value in a model's text: the whole text, else the body of a Markdown code fence
 * (```json … ```), else the span from the first `{` to the last `}` (prose before or after one object).
 * Returns the first candidate that parses, else the failure of the narrowest candidate (the most telling one).
 */
export function extractJson(text: string): JsonParseResult {
  const trimmed = text.trim();
  const candidates = [trimmed];
  const fence = FENCE.exec(trimmed);
  if (fence) candidates.push(fence[1].trim());
  const first = trimmed.indexOf('{');
  const last = trimmed.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(trimmed.slice(first, last + 1));
  let result: JsonParseResult = { ok: false, problem: { line: 1, column: 1, reason: 'no JSON found' } };
  for (const candidate of candidates) {
    result = parseJsonText(candidate);
    if (result.ok) return result;
  }
  return result;
}
