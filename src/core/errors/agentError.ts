import { redactSecrets, redactValue } from '../security/redact';

/**
 * Every error code the core can produce. One list, so the CLI, the panel and the
 * audit trail can switch on `error_code` without guessing.
 */
export const ERROR_CODES = [
  // model provider
  'AUTH',
  'RATE_LIMIT',
  'TIMEOUT',
  'CONNECTION',
  'INVALID_REQUEST',
  'CONTEXT_LENGTH',
  'RESPONSE_TOO_LARGE',
  'PROVIDER_NOT_CONFIGURED',
  // agents
  'CONFIG',
  'VALIDATION',
  'OUTPUT_VALIDATION_FAILED',
  'HOOK_REJECTED',
  // tools
  'TOOL_NOT_FOUND',
  'TOOL_DENIED',
  'SANDBOX_VIOLATION',
  'SANDBOX_UNAVAILABLE',
  'TOOL_FAILED',
  // sessions
  'KATA_NOT_APPROVED',
  'REPLAY_DIVERGED',
  'GIT_FAILED',
  'SESSION_STATE_INVALID',
  // generic
  'CANCELLED',
  'UNKNOWN',
] as const;
/** One of {@link ERROR_CODES}: the stable, machine-readable kind of an {@link AgentError}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

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
    super(redactSecrets(message), options);
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

/** Turns anything thrown into an AgentError without leaking secrets; AgentErrors pass through. */
export function toAgentError(value: unknown, fallback: ErrorCode = 'UNKNOWN'): AgentError {
  if (value instanceof AgentError) return value;
  if (value instanceof Error && value.name === 'AbortError') {
    return new AgentError('CANCELLED', 'The operation was cancelled.', {}, { cause: value });
  }
  const message = value instanceof Error ? value.message : String(value);
  return new AgentError(fallback, message || 'An unexpected error occurred.', {}, { cause: value });
}
