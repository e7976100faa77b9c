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

/** Returns `text` with registered secrets, key-shaped tokens and the home folder path removed. */
export function redactSecrets(text: string): string {
  if (!text) return text;
  let out = text;
  for (const secret of knownSecrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
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

/** Deep-redacts a JSON-compatible value (strings inside objects and arrays). */
export function redactValue<T>(value: T): T {
  if (value === null || value === undefined) return value;
  try {
    return JSON.parse(redactSecrets(JSON.stringify(value))) as T;
  } catch {
    return value;
  }
}
