import assert from 'node:assert/strict';
import {
  computeRetryDelay,
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  parseRetryAfter,
  sleep,
} from '../../../src/core/llm/retryPolicy';

const headers = (h: Record<string, string>) => new Headers(h);

describe('llm: retry policy', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    assert.deepEqual([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 599].map(isRetryableStatus), [
      false,
      false,
      false,
      false,
      true,
      true,
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it('reads retry-after-ms before retry-after, seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter(undefined), undefined);
    assert.equal(parseRetryAfter(headers({})), undefined);
    assert.equal(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
    assert.equal(parseRetryAfter(headers({ 'retry-after-ms': 'soon', 'retry-after': '2' })), 2000);
    assert.equal(parseRetryAfter(headers({ 'retry-after': '1.5' })), 1500);
    assert.equal(parseRetryAfter(headers({ 'retry-after': '-3' })), undefined);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:04 GMT' }), now), 4000);
    assert.equal(parseRetryAfter(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now), 0);
    assert.equal(parseRetryAfter(headers({ 'retry-after': 'whenever' })), undefined);
  });

  it('uses the server delay when it is sensible, else capped exponential backoff with jitter', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
    assert.equal(computeRetryDelay(0, 1234, policy), 1234);
    assert.equal(computeRetryDelay(0, 0, policy), 0);
    const noJitter = () => 0;
    const fullJitter = () => 1;
    assert.equal(computeRetryDelay(0, 99_999, policy, noJitter), 100); // absurd retry-after ignored
    assert.deepEqual(
      [0, 1, 2, 3, 4, 10].map((n) => computeRetryDelay(n, undefined, policy, noJitter)),
      [100, 200, 400, 800, 1000, 1000],
    );
    assert.equal(computeRetryDelay(2, undefined, policy, fullJitter), 300);
    assert.equal(
      computeRetryDelay(2, undefined, policy, () => 7),
      300,
    ); // random outside [0,1] is clamped
  });

  it('sleeps until the time is up, or rejects at once on abort', async () => {
    await sleep(1);
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await assert.rejects(pending, /stop/);
    await assert.rejects(sleep(1, controller.signal), /stop/);
  });
});
