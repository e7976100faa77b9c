import { randomBytes } from 'node:crypto';
import type { LlmCallOptions, LlmResult, LlmToolCall } from './types';

/**
 * Tool calls a model wrote into its text. Many models served by Ollama, LM Studio or vLLM without a tool parser
 * answer a request that offers tools with the call in `content` instead of `tool_calls`:
 *
 * - a bare JSON object `{"name": "write_file", "arguments": {…}}` (or `"parameters"`), or a list of them;
 * - the same inside a Markdown fence (```json … ```);
 * - Hermes / Qwen style `<tool_call>{…}</tool_call>`, one or several (without its closing tag, the calls that follow
 *   the opening one);
 * - OpenAI's own shape `{"type": "function", "function": {"name": …, "arguments": "…"}}`;
 * - a marker some chat templates write first (Mistral's `[TOOL_CALLS]`, Llama's `<|python_tag|>`) goes with the calls.
 *
 * Arguments may be an object or a JSON string holding one; ids may be missing (one is made up); a name may differ
 * from an offered tool's in case and separators only (`Write-File`, `writeFile` for `write_file`). Only a call to
 * an offered tool counts: a JSON value naming no offered tool (an example in an answer, a result) stays text, and
 * so does a fence or tag holding anything else beside the calls.
 */
export interface TextToolCalls {
  /** The text without the calls (the prose around them kept). */
  text: string;
  /** The calls, in the order they were written. */
  toolCalls: LlmToolCall[];
}

/** Keys a call object may have beside its name and arguments. */
const CALL_KEYS = new Set(['name', 'arguments', 'parameters', 'id', 'type']);
const FENCE = /```[\w+-]*[ \t]*\r?\n([\s\S]*?)```/g;
const OPEN_TAG = '<tool_call>';
const CLOSE_TAG = '</tool_call>';
/** A marker written just before a call by some chat templates. */
const MARKER_BEFORE = /(?:\[TOOL_CALLS\]|<\|python_tag\|>)[ \t]*(?:\r?\n[ \t]*)?$/;
/** Bare JSON values tried per text, so that a long answer full of braces costs little. */
const MAX_BARE_CANDIDATES = 200;

/**
 * Reads the tool calls written in `text` (see {@link TextToolCalls} for the formats); `offered` are the names of
 * the tools the request offered. Returns undefined when the text holds no call to an offered tool.
 */
export function readToolCallsFromText(
  text: string,
  offered: readonly string[],
  newId: () => string = textCallId,
): TextToolCalls | undefined {
  // Every form of a call is JSON: a text without a brace holds none (most final answers), so nothing is parsed.
  if (offered.length === 0 || !text.includes('{')) return undefined;
  const resolve = nameResolver(offered);
  const found: Array<{ start: number; end: number; calls: LlmToolCall[] }> = [];
  const opaque: Array<[number, number]> = [];
  const inside = (i: number): boolean => opaque.some(([s, e]) => i >= s && i < e);

  // Fenced blocks: the whole fence is a call (or calls), or it is left alone, its content never searched.
  for (const m of text.matchAll(FENCE)) {
    const start = m.index;
    const end = start + m[0].length;
    const calls = readCallSequence(m[1]!, resolve, newId)?.calls;
    if (calls) found.push({ start, end, calls });
    opaque.push([start, end]);
  }
  // <tool_call>…</tool_call> outside fences.
  for (let at = text.indexOf(OPEN_TAG); at >= 0; at = text.indexOf(OPEN_TAG, at + OPEN_TAG.length)) {
    if (inside(at)) continue;
    const close = text.indexOf(CLOSE_TAG, at + OPEN_TAG.length);
    const body = at + OPEN_TAG.length;
    // An unclosed tag (the model stopped there, or went on talking): as many calls as follow it, then text again.
    const read = readCallSequence(text.slice(body, close >= 0 ? close : text.length), resolve, newId, close < 0);
    const end = close >= 0 ? close + CLOSE_TAG.length : read ? body + read.end : text.length;
    if (read) found.push({ start: at, end, calls: read.calls });
    opaque.push([at, end]);
  }
  // Bare JSON values in the prose.
  let candidates = 0;
  for (let i = 0; i < text.length && candidates < MAX_BARE_CANDIDATES; i++) {
    const c = text[i];
    if ((c !== '{' && c !== '[') || inside(i)) continue;
    let n = i + 1;
    while (n < text.length && /\s/.test(text[n]!)) n++;
    if (text[n] !== (c === '{' ? '"' : '{')) continue;
    candidates++;
    const end = balancedEnd(text, i);
    if (end < 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(i, end));
    } catch {
      continue;
    }
    const calls = callsOf(value, resolve, newId);
    if (calls) found.push({ start: i, end, calls });
    i = end - 1; // a JSON value that is not a call is skipped whole: nothing nested in it is a call either
  }
  if (found.length === 0) return undefined;
  for (const f of found) {
    // Markers some chat templates put before their calls (Mistral's [TOOL_CALLS], Llama's <|python_tag|>) go too.
    const marker = MARKER_BEFORE.exec(text.slice(0, f.start));
    if (marker) f.start -= marker[0].length;
  }
  found.sort((a, b) => a.start - b.start);
  let rest = '';
  let from = 0;
  for (const f of found) {
    rest += text.slice(from, f.start);
    from = f.end;
    // A call on lines of its own takes its line break with it.
    const after = /^[ \t]*\r?\n/.exec(text.slice(from));
    if (after && /(^|\n)[ \t]*$/.test(rest)) from += after[0].length;
  }
  rest += text.slice(from);
  return {
    text: rest
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    toolCalls: found.flatMap((f) => f.calls),
  };
}

/**
 * The result of a call that offered tools, with tool calls written in its text made real (see
 * {@link readToolCallsFromText}) and counted in `toolCallsFromText`. Untouched when the request offered no tools
 * (or `toolChoice: 'none'`), when the model made real tool calls, or when the text holds none.
 */
export function withToolCallsFromText(result: LlmResult, request: Pick<LlmCallOptions, 'tools' | 'toolChoice'>): LlmResult {
  if (!request.tools || request.tools.length === 0 || request.toolChoice === 'none') return result;
  if (result.toolCalls.length > 0 || !result.text) return result;
  const found = readToolCallsFromText(
    result.text,
    request.tools.map((t) => t.function.name),
  );
  if (!found) return result;
  return {
    ...result,
    text: found.text,
    toolCalls: found.toolCalls,
    finishReason: 'tool_calls',
    toolCallsFromText: found.toolCalls.length,
  };
}

/** A made-up id for a call read from text. */
function textCallId(): string {
  return `call_text_${randomBytes(6).toString('hex')}`;
}

/**
 * The calls of a fence's or tag's content: one or more JSON values (each a call or a list of calls, each possibly
 * in its own `<tool_call>` tags), separated by blanks or commas, and nothing else; undefined otherwise. With
 * `leading`, only the calls at the start count and whatever follows them is left (`end` says where they stop).
 */
function readCallSequence(
  content: string,
  resolve: NameResolver,
  newId: () => string,
  leading = false,
): { calls: LlmToolCall[]; end: number } | undefined {
  const calls: LlmToolCall[] = [];
  let i = 0;
  const skip = (): void => {
    for (;;) {
      while (i < content.length && /[\s,]/.test(content[i]!)) i++;
      if (content.startsWith(OPEN_TAG, i)) i += OPEN_TAG.length;
      else if (content.startsWith(CLOSE_TAG, i)) i += CLOSE_TAG.length;
      else return;
    }
  };
  skip();
  let last = 0;
  while (i < content.length) {
    const more = content[i] === '{' || content[i] === '[' ? jsonCallsAt(content, i, resolve, newId) : undefined;
    if (!more) {
      if (leading) break;
      return undefined;
    }
    calls.push(...more.calls);
    i = last = more.end;
    skip();
  }
  if (calls.length === 0) return undefined;
  return { calls, end: leading ? last : content.length };
}

/** The calls of the JSON value starting at `start`, and where it ends; undefined when it is not JSON or not calls. */
function jsonCallsAt(
  text: string,
  start: number,
  resolve: NameResolver,
  newId: () => string,
): { calls: LlmToolCall[]; end: number } | undefined {
  const end = balancedEnd(text, start);
  if (end < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end));
  } catch {
    return undefined;
  }
  const calls = callsOf(value, resolve, newId);
  return calls ? { calls, end } : undefined;
}

/** A call or a non-empty list of calls, every one to an offered tool; undefined for anything else. */
function callsOf(value: unknown, resolve: NameResolver, newId: () => string): LlmToolCall[] | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const calls: LlmToolCall[] = [];
    for (const item of value) {
      const call = callOf(item, resolve, newId);
      if (!call) return undefined;
      calls.push(call);
    }
    return calls;
  }
  const call = callOf(value, resolve, newId);
  return call ? [call] : undefined;
}

function callOf(value: unknown, resolve: NameResolver, newId: () => string): LlmToolCall | undefined {
  if (!isPlainObject(value)) return undefined;
  let call = value;
  // OpenAI's shape written out: { id?, type: 'function', function: { name, arguments } }.
  if (isPlainObject(value.function) && Object.keys(value).every((k) => k === 'function' || k === 'type' || k === 'id')) {
    if (value.type !== undefined && value.type !== 'function') return undefined;
    call = { ...value.function, ...(value.id !== undefined ? { id: value.id } : {}) };
  }
  if (!Object.keys(call).every((k) => CALL_KEYS.has(k))) return undefined;
  if (call.type !== undefined && call.type !== 'function') return undefined;
  if (call.arguments !== undefined && call.parameters !== undefined) return undefined;
  if (typeof call.name !== 'string') return undefined;
  const name = resolve(call.name);
  if (!name) return undefined;
  let args: unknown = call.arguments ?? call.parameters ?? {};
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : (JSON.parse(args) as unknown);
    } catch {
      return undefined;
    }
  }
  if (!isPlainObject(args)) return undefined;
  const id = typeof call.id === 'string' && call.id.trim() !== '' ? call.id : newId();
  return { id, name, arguments: JSON.stringify(args) };
}

type NameResolver = (name: string) => string | undefined;

/**
 * Maps a written name onto an offered one: exactly, else without a `functions.` prefix, else ignoring case and
 * separators (`Write-File`, `writeFile`, `WRITE_FILE` → `write_file`) when that picks one offered tool only.
 */
function nameResolver(offered: readonly string[]): NameResolver {
  const exact = new Set(offered);
  const byKey = new Map<string, string | null>();
  for (const name of offered) {
    const key = looseKey(name);
    byKey.set(key, byKey.has(key) ? null : name);
  }
  return (written) => {
    const name = written.trim().replace(/^functions\./, '');
    if (exact.has(name)) return name;
    const key = looseKey(name);
    return key ? (byKey.get(key) ?? undefined) : undefined;
  };
}

function looseKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The index just past the JSON object or array starting at `start` (strings and escapes respected), or -1. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
