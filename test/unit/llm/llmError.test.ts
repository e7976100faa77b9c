import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { AgentError, ERROR_CODES } from '../../../src/core/errors/agentError';
import { classifyFailure, IncompleteStreamError, MalformedResponseError } from '../../../src/core/llm/errorClassifier';
import { buildLlmError, isLlmError, LlmError, type LlmCallContext, type LlmErrorCode } from '../../../src/core/llm/llmError';

const ctx: LlmCallContext = { provider: 'openai', baseURL: 'http://127.0.0.1:1/v1', model: 'm1', timeoutMs: 1000, retries: 0 };
const apiError = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { error: body }, undefined, new Headers(headers));

describe('llm: typed errors', () => {
  it('every LlmError code exists in ERROR_CODES and every message says what to do', () => {
    const codes: LlmErrorCode[] = [
      'AUTH',
      'RATE_LIMIT',
      'TIMEOUT',
      'CONNECTION',
      'INVALID_REQUEST',
      'CONTEXT_LENGTH',
      'CANCELLED',
      'UNKNOWN',
    ];
    for (const code of codes) {
      assert.ok((ERROR_CODES as readonly string[]).includes(code));
      const error = buildLlmError({ code, retryable: false }, ctx);
      assert.ok(error instanceof AgentError && isLlmError(error));
      assert.equal(error.name, 'LlmError');
      assert.equal(error.error_code, code);
      assert.deepEqual(error.toJSON().details, {
        provider: 'openai',
        baseURL: ctx.baseURL,
        model: 'm1',
        retries: 0,
        ...(code === 'TIMEOUT' ? { timeoutMs: 1000 } : {}),
      });
      if (code !== 'CANCELLED') assert.match(error.message, /Check|Try|Wait|Shorten|raise/);
    }
    assert.equal(isLlmError(new Error('x')), false);
    assert.ok(new LlmError('UNKNOWN', 'x', { ...ctx }) instanceof Error);
  });

  it('classifies SDK status errors', () => {
    const cases: Array<[InstanceType<typeof OpenAI.APIError>, string, boolean, string?]> = [
      [apiError(401, { message: 'bad key' }), 'AUTH', false],
      [apiError(403, { message: 'nope' }), 'AUTH', false],
      [apiError(429, { message: 'slow down' }, { 'retry-after': '2' }), 'RATE_LIMIT', true],
      [apiError(429, { type: 'insufficient_quota' }), 'RATE_LIMIT', false, 'insufficient_quota'],
      [apiError(408, {}), 'TIMEOUT', true],
      [apiError(409, {}), 'UNKNOWN', true],
      [apiError(400, { code: 'context_length_exceeded' }), 'CONTEXT_LENGTH', false],
      [apiError(413, { message: 'prompt is too long' }), 'CONTEXT_LENGTH', false],
      [apiError(404, { code: 'model_not_found' }), 'INVALID_REQUEST', false, 'model_not_found'],
      [apiError(404, { message: 'no such route' }), 'INVALID_REQUEST', false, 'not_found'],
      [apiError(422, { message: 'bad field', code: 12 }), 'INVALID_REQUEST', false],
      [apiError(502, {}), 'UNKNOWN', true],
    ];
    for (const [error, code, retryable, reason] of cases) {
      const f = classifyFailure(error, undefined);
      assert.equal(f.code, code, `${error.status}`);
      assert.equal(f.retryable, retryable, `${error.status} retryable`);
      if (reason) assert.equal(f.reason, reason);
    }
    assert.equal(classifyFailure(apiError(429, {}, { 'retry-after': '2' }), undefined).retryAfterMs, 2000);
    assert.equal(classifyFailure(apiError(422, { code: 12 }), undefined).serverCode, '12');
  });

  it('classifies aborts, connection problems and broken bodies', () => {
    assert.equal(classifyFailure(new Error('x'), 'cancelled').code, 'CANCELLED');
    assert.equal(classifyFailure(new Error('x'), 'timeout').code, 'TIMEOUT');
    assert.equal(classifyFailure(new OpenAI.APIUserAbortError(), undefined).code, 'CANCELLED');
    assert.equal(classifyFailure(new OpenAI.APIConnectionTimeoutError(), undefined).code, 'TIMEOUT');
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const conn = classifyFailure(new OpenAI.APIConnectionError({ cause: refused }), undefined);
    assert.equal(conn.code, 'CONNECTION');
    assert.match(conn.serverMessage!, /ECONNREFUSED/);
    assert.equal(classifyFailure(new IncompleteStreamError(), undefined).reason, 'stream_incomplete');
    assert.equal(classifyFailure(new SyntaxError('Unexpected token'), undefined).reason, 'malformed_response');
    assert.equal(classifyFailure(new MalformedResponseError('x'), undefined).reason, 'malformed_response');
    assert.equal(classifyFailure(Object.assign(new Error('aborted'), { name: 'AbortError' }), undefined).code, 'CANCELLED');
    assert.equal(classifyFailure(new TypeError('terminated'), undefined).code, 'CONNECTION');
    assert.equal(classifyFailure(new TypeError('x is not a function'), undefined).code, 'UNKNOWN');
    const odd = classifyFailure('x'.repeat(1000), undefined);
    assert.equal(odd.code, 'UNKNOWN');
    assert.ok(odd.serverMessage!.length <= 301);
    // An SSE error event inside a stream carries no status.
    assert.equal(
      classifyFailure(new OpenAI.APIError(undefined, { message: 'overloaded' }, undefined, undefined), undefined).code,
      'UNKNOWN',
    );
  });

  it('words messages by situation', () => {
    const retried = { ...ctx, retries: 2, provider: 'ollama' as const };
    assert.match(buildLlmError({ code: 'RATE_LIMIT', retryable: true, status: 429 }, retried).message, /after 2 retries/);
    assert.match(
      buildLlmError({ code: 'INVALID_REQUEST', retryable: false, reason: 'model_not_found' }, retried).message,
      /ollama pull m1/,
    );
    assert.doesNotMatch(
      buildLlmError({ code: 'INVALID_REQUEST', retryable: false, reason: 'model_not_found' }, ctx).message,
      /ollama/,
    );
    assert.match(
      buildLlmError({ code: 'UNKNOWN', retryable: false, serverMessage: 'weird' }, ctx).message,
      /failed unexpectedly: weird/,
    );
    assert.match(
      buildLlmError({ code: 'CONNECTION', retryable: true, reason: 'stream_incomplete' }, ctx).message,
      /ended the answer before it was complete/,
    );
    // The SDK's own words end in a full stop ("Connection error."): the message ends that sentence once.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const retries = { ...ctx, retries: 3 };
    for (const [error, said] of [
      [new OpenAI.APIConnectionError({}), 'Connection error. Check'],
      [new OpenAI.APIConnectionError({ cause: refused }), 'Connection error (ECONNREFUSED). Check'],
    ] as const) {
      const message = buildLlmError(classifyFailure(error, undefined), retries).message;
      assert.ok(message.includes(`at http://127.0.0.1:1/v1 after 3 retries: ${said} that the server is running`), message);
      assert.doesNotMatch(message, /\.\.|\. \(/);
    }
    const partial = buildLlmError(
      { code: 'CONNECTION', retryable: true, serverType: 't', serverCode: 'c' },
      { ...ctx, partial: true },
    );
    assert.deepEqual([partial.details.partial, partial.details.serverType, partial.details.serverCode], [true, 't', 'c']);
  });
});
