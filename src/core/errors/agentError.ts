import { redactSecrets, redactValue } from '../security/redact';
import type { ErrorCode } from '../vocabulary';

export { ERROR_CODES, type ErrorCode } from '../vocabulary';

/** The plain shape of an error as it crosses a boundary (JSON, panel, audit trail). */
export interface ErrorInfo {
  error_code: ErrorCode;
  message: string;
  details: Record<string, unknown>;
}

/**
 * Base class of every error the core throws on purpose. The message says what a
 * person can do next; message and details are redacted of secrets at construction,
 * so an AgentError can be logged or shown anywhere.
 */
export class AgentError extends Error {
  readonly error_code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(redactSecrets(message), options && 'cause' in options ? { cause: redactCause(options.cause) } : undefined);
    this.name = 'AgentError';
    this.error_code = code;
    this.details = redactValue(details ?? {});
  }

  /** The plain `{ error_code, message, details }` shape (already redacted) for JSON, the panel and the audit trail. */
  toJSON(): ErrorInfo {
    return { error_code: this.error_code, message: this.message, details: this.details };
  }
}

/** A headline followed by one `  - problem` line per problem: the layout of every error that lists problems. */
export function formatProblemList(headline: string, problems: readonly string[]): string {
  return [headline, ...problems.map((p) => `  - ${p}`)].join('\n');
}

/** True for errors produced by the core (any subclass of AgentError). */
export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError;
}

/**
 * The `cause` an AgentError keeps: AgentErrors as they are (already redacted); other errors as a copy with the
 * same name and a redacted message and stack (the original, which may hold secrets, is not referenced); any
 * other value redacted with {@link redactValue}.
 */
function redactCause(cause: unknown): unknown {
  if (cause instanceof AgentError || cause === undefined) return cause;
  if (cause instanceof Error) {
    const copy = new Error(redactSecrets(cause.message));
    copy.name = cause.name;
    copy.stack = cause.stack === undefined ? undefined : redactSecrets(cause.stack);
    return copy;
  }
  return redactValue(cause);
}

/**
 * How a thrown value reads in a message: an Error's message, a string as itself, anything else as JSON
 * (`{"reason":"x"}`, `42`), never `[object Object]`. Shortened to `max` characters.
 */
export function describeThrown(value: unknown, max = 500): string {
  let text: string;
  if (value instanceof Error) text = value.message;
  else if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
    if (text === '{}' && value !== null && typeof value === 'object' && value.constructor && value.constructor !== Object) {
      text = `a ${value.constructor.name} object`;
    }
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Turns anything thrown into an AgentError without leaking secrets; AgentErrors pass through. */
export function toAgentError(value: unknown, fallback: ErrorCode = 'UNKNOWN'): AgentError {
  if (value instanceof AgentError) return value;
  if (value instanceof Error && value.name === 'AbortError') {
    return new AgentError('CANCELLED', 'The operation was cancelled.', {}, { cause: value });
  }
  const message = describeThrown(value);
  return new AgentError(fallback, message || 'An unexpected error occurred.', {}, { cause: value });
}
