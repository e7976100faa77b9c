/**
 * When and how long the LLM client waits before trying a model call again.
 *
 * The client runs its own retry loop (the SDK's is switched off with `maxRetries: 0`) so
 * that the delays are configurable for tests, every retry is logged, the retry count ends
 * up in the error details, and a stream that already delivered text is never replayed.
 */
import { settleOnce } from '../async/settleOnce';

/** Knobs of the retry loop. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** First backoff delay in ms (default 500); doubles each retry. */
  baseDelayMs: number;
  /** Upper bound of the computed backoff in ms (default 8000). */
  maxDelayMs: number;
  /** A server's retry-after above this (ms, default 60000) is ignored in favour of the backoff. */
  maxRetryAfterMs: number;
}

/** The defaults: 3 retries, 0.5 s doubling up to 8 s, retry-after honoured up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** HTTP statuses worth another try: request timeout, conflict/lock, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Minimal header access, satisfied by the fetch `Headers` class. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * Reads `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date) and returns
 * the wait in ms, or undefined when absent, unparsable or negative.
 */
export function parseRetryAfter(headers: HeaderSource | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after');
  if (after !== null && after.trim() !== '') {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return undefined;
}

/**
 * The wait before retry number `retry` (0-based): the server's retry-after when given and
 * not absurd, otherwise `baseDelayMs * 2^retry` capped at `maxDelayMs`, minus up to 25 %
 * jitter so that many clients do not retry in lockstep.
 */
export function computeRetryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0 && retryAfterMs <= policy.maxRetryAfterMs) {
    return Math.round(retryAfterMs);
  }
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jitter = 1 - 0.25 * Math.min(1, Math.max(0, random()));
  return Math.max(0, Math.round(backoff * jitter));
}

/** Waits `ms`, or rejects as soon as `signal` aborts (the caller maps that to CANCELLED). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    settleOnce({
      timeoutMs: ms,
      onTimeout: (wait) => wait.settle(resolve),
      signal,
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with the caller's own abort reason, as fetch does
      onAbort: (wait) => wait.settle(() => reject(signal!.reason)),
    });
  });
}
