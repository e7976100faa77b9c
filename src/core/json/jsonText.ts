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

/**
 * Parses JSON with comments (`// …`, `/* … *\/`) and trailing commas, as VS Code reads its settings files (agent
 * configs may be annotated like the specification's examples). Comments and trailing commas are blanked, not
 * removed, so a syntax error keeps the line and column it has in the file; an unterminated block comment is an
 * error at its start. Text inside strings is never touched; a leading byte order mark is ignored.
 */
export function parseJsoncText(text: string): JsonParseResult {
  const stripped = blankCommentsAndTrailingCommas(text);
  return typeof stripped === 'string' ? parseJsonText(stripped) : { ok: false, problem: stripped };
}

/** `text` with every comment and trailing comma replaced by spaces (line breaks kept), or where a block comment never ends. */
function blankCommentsAndTrailingCommas(text: string): string | JsonSyntaxProblem {
  const out = text.split('');
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  if (out[0] === '\uFEFF') out[0] = ' '; // a byte order mark, as editors on Windows write it
  let comma = -1; // a comma after a value: blanked if the next significant character closes the object or array
  let previous = ''; // the last significant character before the current position
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      // A string, copied as is (an unterminated one stops at the line end and is left to JSON.parse to report).
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      i = j;
      previous = '"';
      comma = -1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) {
        const before = text.slice(0, i);
        return {
          line: before.split('\n').length,
          column: i - before.lastIndexOf('\n'),
          reason: 'unterminated comment (/* without */)',
        };
      }
      blank(i, end + 2);
      i = end + 1;
    } else if (!/\s/.test(c)) {
      if ((c === '}' || c === ']') && comma >= 0) out[comma] = ' ';
      comma = c === ',' && previous !== '' && !'[{,'.includes(previous) ? i : -1;
      previous = c;
    }
  }
  return out.join('');
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
