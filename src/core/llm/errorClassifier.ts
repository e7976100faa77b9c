import OpenAI from 'openai';
import { withoutClosingStop, type LlmFailure } from './llmError';
import { findResponseTooLarge } from './responseSizeLimit';
import { isRetryableStatus, parseRetryAfter } from './retryPolicy';
import { withoutInternalPaths } from '../errors/internalPaths';

/** Thrown by the client when a 200 answer is not a usable chat completion. */
export class MalformedResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedResponseError';
  }
}

/** Thrown by the client when a stream ends without a finish reason (cut off mid-way). */
export class IncompleteStreamError extends Error {
  constructor() {
    super('stream ended without a finish reason');
    this.name = 'IncompleteStreamError';
  }
}

/** Why the attempt's own abort signal fired, if it did. */
export type AbortCause = 'cancelled' | 'timeout' | undefined;

const CONTEXT_LENGTH_PATTERN =
  /context[_ ]length|context window|maximum context|too many tokens|prompt is too long|exceeds the (?:maximum|context)/i;
const MAX_SERVER_MESSAGE = 300;

/**
 * Sorts anything a model call threw into an LlmFailure. `abortCause` wins: an abort the
 * caller asked for is CANCELLED, one from the client's own timer is TIMEOUT, whatever the
 * SDK made of it.
 */
export function classifyFailure(error: unknown, abortCause: AbortCause): LlmFailure {
  if (abortCause === 'cancelled') return { code: 'CANCELLED', retryable: false };
  if (abortCause === 'timeout') return { code: 'TIMEOUT', retryable: true };

  const tooLarge = findResponseTooLarge(error);
  if (tooLarge)
    return { code: 'RESPONSE_TOO_LARGE', retryable: false, reason: 'response_too_large', receivedBytes: tooLarge.receivedBytes };

  if (error instanceof OpenAI.APIUserAbortError) return { code: 'CANCELLED', retryable: false };
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { code: 'TIMEOUT', retryable: true };
  if (error instanceof OpenAI.APIConnectionError) {
    return { code: 'CONNECTION', retryable: true, serverMessage: describeCause(error) };
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') return classifyStatus(error);

  if (error instanceof IncompleteStreamError) return { code: 'CONNECTION', retryable: true, reason: 'stream_incomplete' };
  if (error instanceof MalformedResponseError || error instanceof SyntaxError) {
    return { code: 'UNKNOWN', retryable: false, reason: 'malformed_response', serverMessage: shorten(error.message) };
  }
  if (error instanceof Error && error.name === 'AbortError') return { code: 'CANCELLED', retryable: false };
  // undici reports a body cut off while reading as TypeError('terminated') and friends.
  if (
    error instanceof TypeError &&
    /terminated|fetch failed|socket|ECONNRESET|other side closed/i.test(`${error.message} ${String(error.cause ?? '')}`)
  ) {
    return { code: 'CONNECTION', retryable: true, serverMessage: shorten(error.message) };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'UNKNOWN', retryable: false, serverMessage: shorten(message) };
}

function classifyStatus(error: InstanceType<typeof OpenAI.APIError>): LlmFailure {
  const status = error.status as number;
  const body = (error.error ?? {}) as { message?: unknown; type?: unknown; code?: unknown };
  const serverMessage = shorten(typeof body.message === 'string' ? body.message : stripStatus(error.message));
  const serverType = typeof body.type === 'string' ? body.type : undefined;
  const serverCode = typeof body.code === 'string' ? body.code : typeof body.code === 'number' ? String(body.code) : undefined;
  const base = { status, serverMessage, serverType, serverCode };
  const shouldRetry = error.headers?.get('x-should-retry');
  const retryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : isRetryableStatus(status);
  const retryAfterMs = parseRetryAfter(error.headers);

  if (status === 401 || status === 403) return { ...base, code: 'AUTH', retryable: false };
  if (status === 429) {
    const quota = serverCode === 'insufficient_quota' || serverType === 'insufficient_quota';
    return {
      ...base,
      code: 'RATE_LIMIT',
      retryable: quota ? false : retryable,
      retryAfterMs,
      reason: quota ? 'insufficient_quota' : undefined,
    };
  }
  if (status === 408) return { ...base, code: 'TIMEOUT', retryable, retryAfterMs };
  if (serverCode === 'context_length_exceeded' || (status < 500 && CONTEXT_LENGTH_PATTERN.test(serverMessage ?? ''))) {
    return { ...base, code: 'CONTEXT_LENGTH', retryable: false };
  }
  if (status === 404) {
    const modelMissing = serverCode === 'model_not_found' || /model/i.test(serverMessage ?? '');
    return { ...base, code: 'INVALID_REQUEST', retryable: false, reason: modelMissing ? 'model_not_found' : 'not_found' };
  }
  if (status >= 400 && status < 500 && status !== 409) return { ...base, code: 'INVALID_REQUEST', retryable };
  return { ...base, code: 'UNKNOWN', retryable, retryAfterMs };
}

/** The SDK prefixes messages with the status ("401 Incorrect API key"); keep the server's words. */
function stripStatus(message: string): string {
  return message.replace(/^\d{3}\s+/, '');
}

function describeCause(error: Error): string | undefined {
  const cause = (error as { cause?: unknown }).cause;
  const code = cause && typeof cause === 'object' ? (cause as { code?: unknown; cause?: { code?: unknown } }) : undefined;
  const errno = typeof code?.code === 'string' ? code.code : typeof code?.cause?.code === 'string' ? code.cause.code : undefined;
  // "Connection error (ECONNREFUSED)", not "Connection error. (ECONNREFUSED)".
  return shorten(errno ? `${withoutClosingStop(error.message)} (${errno})` : error.message);
}

function shorten(text: string | undefined): string | undefined {
  if (!text) return undefined;
  // A server's stack trace and file paths never reach a user-facing message (NFR-015).
  const oneLine = withoutInternalPaths(text).replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_SERVER_MESSAGE ? `${oneLine.slice(0, MAX_SERVER_MESSAGE)}…` : oneLine;
}
