/**
 * The small schemas every part of the panel protocol builds on (counts, times, ids). Browser-safe: zod/mini only.
 */
import * as z from 'zod/mini';

/** A whole number, 0 or more. */
export const count = z.int().check(z.nonnegative());
/** A time in epoch milliseconds. */
export const epochMs = z.number().check(z.nonnegative());
/** Any text. */
export const text = z.string();
/** Text that is not empty. */
export const nonEmpty = z.string().check(z.minLength(1));
/** The id of a request, question, history entry or answer the panel sends back. */
export const requestId = z.string().check(z.minLength(1), z.maxLength(200));
/** A 0..1 confidence. */
export const confidence = z.number().check(z.gte(0), z.lte(1));

const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
/** A session id as the core makes them (`<kata>-<YYYYMMDD-HHMMSS>`): no path separators, no leading dot or dash. */
export const sessionId = z.string().check(z.regex(SESSION_ID_PATTERN));

/** True for a string the protocol accepts as a session id (the host drops anything else rather than send an invalid snapshot). */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID_PATTERN.test(value);
}
