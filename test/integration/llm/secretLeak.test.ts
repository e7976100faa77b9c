import assert from 'node:assert/strict';
import { createOpenAIClient, LlmError, type LlmCallOptions } from '../../../src/core/llm';
import { setLogLevel, setLogSink, type LogLevel, type LogRecord, type LogSink } from '../../../src/core/logging/logger';
import { startOpenAIServer, type OpenAITestServer, type ScriptedReply } from '../../support/openaiServer';

/**
 * Feeds a recognisable API key through every failure path of the client and searches
 * everything a person could see for it. The key has no well-known shape (no `sk-`), so
 * only the client's registration of the secret can hide it.
 */
describe('llm: the API key never leaks', () => {
  const KEY = 'tddkey-Q7x9Zr2mW4pL8vN3';
  let server: OpenAITestServer;
  let logs: LogRecord[];
  let previousSink: LogSink;
  let previousLevel: LogLevel;

  before(async () => {
    server = await startOpenAIServer();
    logs = [];
    previousSink = setLogSink((r) => logs.push(r));
    previousLevel = setLogLevel('debug');
  });
  after(async () => {
    setLogSink(previousSink);
    setLogLevel(previousLevel);
    await server.close();
  });

  const echo = `Incorrect API key provided: ${KEY}. Authorization: Bearer ${KEY}`;
  const cases: Array<{ name: string; reply: ScriptedReply; stream?: boolean; cancel?: boolean; code: string }> = [
    { name: '401', reply: { error: { status: 401, message: echo } }, code: 'AUTH' },
    {
      name: '429',
      reply: { error: { status: 429, message: echo, headers: { 'retry-after-ms': '1', 'x-echo': KEY } } },
      code: 'RATE_LIMIT',
    },
    { name: '500', reply: { error: { status: 500, message: echo } }, code: 'UNKNOWN' },
    { name: '400', reply: { error: { status: 400, message: echo, code: KEY } }, code: 'INVALID_REQUEST' },
    { name: 'timeout', reply: { hang: true }, code: 'TIMEOUT' },
    { name: 'reset', reply: { reset: true }, code: 'CONNECTION' },
    { name: 'malformed', reply: { malformed: `{"error": "${KEY}"` }, code: 'UNKNOWN' },
    { name: 'cut stream', reply: { cutStreamAfter: 1, text: `${KEY} more` }, stream: true, code: 'CONNECTION' },
    { name: 'cancelled', reply: { hang: true }, cancel: true, code: 'CANCELLED' },
  ];

  for (const c of cases) {
    it(`${c.name} → ${c.code} without the key`, async () => {
      server.setFallback(c.reply);
      const client = createOpenAIClient({
        baseURL: server.baseURL,
        apiKey: KEY,
        // Short only where the server hangs: a loaded machine can take longer than that to answer a 400.
        timeoutMs: c.code === 'TIMEOUT' ? 150 : 10_000,
        maxRetries: 1,
        retryBaseDelayMs: 1,
      });
      const controller = new AbortController();
      const options: LlmCallOptions = { model: 'm1', messages: [{ role: 'user', content: 'hi' }], signal: controller.signal };
      if (c.stream) options.onDelta = () => undefined;
      const before = server.chatRequests().length;
      const pending = client.call(options);
      if (c.cancel) {
        while (server.chatRequests().length === before) await new Promise((r) => setTimeout(r, 5));
        controller.abort();
      }
      let caught: unknown;
      try {
        await pending;
      } catch (error) {
        caught = error;
      }
      assert.ok(caught instanceof LlmError, `expected LlmError, got ${String(caught)}`);
      assert.equal(caught.error_code, c.code);
      // The key did reach the server: the test is not vacuous.
      assert.equal(server.chatRequests().at(-1)!.headers.authorization, `Bearer ${KEY}`);
      const seen = [
        caught.message,
        String(caught),
        caught.stack ?? '',
        JSON.stringify(caught),
        JSON.stringify(caught.details),
        String((caught as { cause?: unknown }).cause),
        JSON.stringify(logs),
      ].join('\n');
      assert.ok(!seen.includes(KEY), `the key leaked in the ${c.name} path`);
      assert.equal((caught as { cause?: unknown }).cause, undefined);
    });
  }

  it('logged something for these failures (the log check above is not vacuous)', () => {
    assert.ok(logs.some((r) => r.message === 'model call failed'));
    assert.ok(logs.some((r) => r.message === 'model call failed, retrying'));
  });
});
