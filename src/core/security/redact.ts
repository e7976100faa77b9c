import { homedir } from 'node:os';

/**
 * Secret redaction used by every place that turns data into text for a person or a
 * file: errors, logs, the audit trail, the panel. Known secret values are registered
 * once (the LLM client registers its API key); common key shapes are caught by pattern.
 */
const knownSecrets = new Set<string>();
const REDACTED = '[REDACTED]';

/** Remembers a secret value (e.g. an API key) so that it is redacted wherever it appears. */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 6) knownSecrets.add(value);
}

const PATTERNS: RegExp[] = [
  /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{6,}/gi,
  /\b(authorization|api[-_]?key|x-api-key|token|secret|password)(["']?\s*[:=]\s*["']?)[^\s"',}]{6,}/gi,
  /\bsk-[A-Za-z0-9_-]{10,}/g,
  /\b(gh[pousr]_[A-Za-z0-9]{20,})/g,
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/g,
];

let homePath: string | undefined;
function home(): string | undefined {
  if (homePath === undefined) {
    try {
      homePath = homedir();
    } catch {
      homePath = '';
    }
  }
  return homePath && homePath.length > 1 ? homePath : undefined;
}

/**
 * True for any text one of PATTERNS could match: each pattern starts with one of these words or prefixes. One test
 * instead of five replaces for the text most calls carry (tool results, log fields), which has none of them.
 */
const MAY_HOLD_KEY = /\b(?:bearer|authorization|api[-_]?key|x-api-key|token|secret|password|sk-|gh[pousr]_|xox[abpr]-)/i;

/** Returns `text` with registered secrets, key-shaped tokens and the home folder path removed. */
export function redactSecrets(text: string): string {
  if (!text) return text;
  let out = text;
  for (const secret of knownSecrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  if (MAY_HOLD_KEY.test(out))
    out = out
      .replace(PATTERNS[0]!, (_m, bearer: string) => `${bearer} ${REDACTED}`)
      .replace(PATTERNS[1]!, (_m, key: string, sep: string) => `${key}${sep}${REDACTED}`)
      .replace(PATTERNS[2]!, REDACTED)
      .replace(PATTERNS[3]!, REDACTED)
      .replace(PATTERNS[4]!, REDACTED);
  const h = home();
  if (h && out.includes(h)) out = out.split(h).join('~');
  return out;
}

/** Object keys whose string values are secrets whatever they look like (`{ "apiKey": "..." }`). */
const SECRET_KEY = /^(authorization|api[-_]?key|x-api-key|token|access[-_]?token|secret|client[-_]?secret|password)$/i;

/**
 * Deep-redacts a value: every string through {@link redactSecrets}, and the string value of a
 * secret-named key (`apiKey`, `authorization`, `token`, ...) replaced whole. Works on any value —
 * circular references become `[circular]`, errors become `{ name, message }` — and returns a copy.
 */
export function redactValue<T>(value: T): T {
  const flat = redactFlatObject(value);
  if (flat !== undefined) return flat as T;
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactSecrets(v);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[circular]';
    seen.add(v);
    if (v instanceof Error) return { name: v.name, message: redactSecrets(v.message) };
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v))
      out[key] = typeof item === 'string' && SECRET_KEY.test(key) ? REDACTED : walk(item);
    return out;
  };
  return walk(value) as T;
}

/**
 * {@link redactValue} of a plain object whose values are all strings, numbers, booleans or null (most tool
 * parameters), without the walk's bookkeeping; undefined for any other value.
 */
function redactFlatObject(value: unknown): Record<string, unknown> | undefined {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  for (const key of keys) {
    const item = source[key];
    if (item !== null && typeof item === 'object') return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const item = source[key];
    out[key] = typeof item === 'string' ? (SECRET_KEY.test(key) ? REDACTED : redactSecrets(item)) : item;
  }
  return out;
}
