import assert from 'node:assert/strict';
import { AgentError } from '../../../src/core/errors/agentError';
import { createOpenAIClient, LlmError, type LlmCallOptions, type OpenAIClientOptions } from '../../../src/core/llm';
import { setLogLevel, setLogSink, type LogLevel, type LogRecord, type LogSink } from '../../../src/core/logging/logger';
import { closedPort } from '../../support/deadEndpoints';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

const USER = [{ role: 'user' as const, content: 'hi' }];

/** Runs `fn`, expecting an LlmError; returns it. */
async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof LlmError, `expected LlmError, got ${String(error)}`);
    assert.ok(error instanceof AgentError);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('llm: OpenAI-compatible client against the loopback server', () => {
  let server: OpenAITestServer;
  let logs: LogRecord[];
  let previousSink: LogSink;
  let previousLevel: LogLevel;

  const client = (extra: Partial<OpenAIClientOptions> = {}) =>
    createOpenAIClient({ baseURL: server.baseURL, apiKey: 'test-key-abcdef', retryBaseDelayMs: 1, retryMaxDelayMs: 5, ...extra });
  const ask = (extra: Partial<LlmCallOptions> = {}): LlmCallOptions => ({ model: 'm1', messages: USER, ...extra });

  beforeEach(async () => {
    server = await startOpenAIServer({ models: ['m1'] });
    logs = [];
    previousSink = setLogSink((r) => logs.push(r));
    previousLevel = setLogLevel('debug');
  });
  afterEach(async () => {
    setLogSink(previousSink);
    setLogLevel(previousLevel);
    await server.close();
  });

  describe('answers', () => {
    it('returns the normalised result of a plain completion and sends the call options', async () => {
      server.enqueue({ text: 'Hello!', usage: { prompt_tokens: 11, completion_tokens: 3 } });
      const result = await client().call(
        ask({
          temperature: 0.2,
          maxTokens: 50,
          responseFormat: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
        }),
      );
      assert.equal(result.text, 'Hello!');
      assert.deepEqual(result.toolCalls, []);
      assert.equal(result.finishReason, 'stop');
      assert.deepEqual(result.usage, { promptTokens: 11, completionTokens: 3, totalTokens: 14 });
      assert.equal(result.model, 'm1');
      assert.ok(result.latencyMs >= 0);
      const [req] = server.chatRequests();
      assert.equal(req!.body.model, 'm1');
      assert.deepEqual(req!.body.messages, USER);
      assert.equal(req!.body.temperature, 0.2);
      assert.equal(req!.body.max_tokens, 50);
      assert.equal(req!.body.response_format.json_schema.name, 'answer');
      assert.equal(req!.body.stream, undefined);
      assert.equal(req!.headers.authorization, 'Bearer test-key-abcdef');
    });

    it('passes fine-tuned model ids through and reports the model the server names', async () => {
      server.enqueue({ text: 'a' }, { text: 'b', model: 'served-model' });
      const c = client();
      assert.equal((await c.call(ask({ model: 'ft:gpt-4o-mini:acme::x1' }))).model, 'ft:gpt-4o-mini:acme::x1');
      assert.equal(server.chatRequests()[0]!.body.model, 'ft:gpt-4o-mini:acme::x1');
      assert.equal((await c.call(ask())).model, 'served-model');
    });

    it('reports finish reason length', async () => {
      server.enqueue({ text: 'trunc', finishReason: 'length' });
      assert.equal((await client().call(ask())).finishReason, 'length');
    });

    it('returns tool calls and sends tools and tool_choice', async () => {
      server.enqueue({
        toolCalls: [
          { id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } },
          { name: 'run_tests', arguments: '{}' },
        ],
      });
      const tools = [
        { type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object', properties: {} } } },
      ];
      const result = await client().call(ask({ tools, toolChoice: 'required' }));
      assert.equal(result.finishReason, 'tool_calls');
      assert.equal(result.toolCalls.length, 2);
      assert.deepEqual(result.toolCalls[0], { id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' });
      assert.equal(result.toolCalls[1]!.name, 'run_tests');
      assert.ok(result.toolCalls[1]!.id.length > 0);
      const [req] = server.chatRequests();
      assert.deepEqual(req!.body.tools, tools);
      assert.equal(req!.body.tool_choice, 'required');
    });

    it('returns JSON and fenced JSON content verbatim', async () => {
      server.enqueue({ json: { a: 1 } }, { fencedJson: { a: 2 } });
      const c = client();
      assert.deepEqual(JSON.parse((await c.call(ask())).text), { a: 1 });
      assert.ok((await c.call(ask())).text.startsWith('```json\n'));
    });

    it('streams text deltas to onDelta and asks for usage', async () => {
      server.enqueue({ text: 'one two three', usage: { prompt_tokens: 5, completion_tokens: 3 } });
      const deltas: string[] = [];
      const result = await client().call(ask({ onDelta: (d) => deltas.push(d) }));
      assert.deepEqual(deltas, ['one ', 'two ', 'three']);
      assert.equal(result.text, 'one two three');
      assert.equal(result.finishReason, 'stop');
      assert.deepEqual(result.usage, { promptTokens: 5, completionTokens: 3, totalTokens: 8 });
      const [req] = server.chatRequests();
      assert.equal(req!.body.stream, true);
      assert.deepEqual(req!.body.stream_options, { include_usage: true });
    });

    it('assembles streamed tool-call fragments', async () => {
      server.enqueue({
        text: 'Let me look.',
        toolCalls: [
          { id: 'call_x', name: 'write_file', arguments: { path: 'src/a.ts', content: 'export const a = 1;\n' } },
          { id: 'call_y', name: 'run_tests', arguments: { filter: 'a' } },
        ],
      });
      const deltas: string[] = [];
      const result = await client().call(ask({ onDelta: (d) => deltas.push(d) }));
      assert.equal(result.finishReason, 'tool_calls');
      assert.equal(result.text, 'Let me look.');
      assert.equal(deltas.join(''), 'Let me look.');
      assert.deepEqual(result.toolCalls, [
        { id: 'call_x', name: 'write_file', arguments: JSON.stringify({ path: 'src/a.ts', content: 'export const a = 1;\n' }) },
        { id: 'call_y', name: 'run_tests', arguments: '{"filter":"a"}' },
      ]);
    });

    it('talks to Ollama without a key and sends default headers', async () => {
      server.enqueue({ text: 'ok' });
      const c = createOpenAIClient({ baseURL: `${server.url}/v1/`, provider: 'ollama', defaultHeaders: { 'x-agent': 'qa/v1' } });
      assert.equal(c.provider, 'ollama');
      assert.equal((await c.call(ask())).text, 'ok');
      const [req] = server.chatRequests();
      assert.equal(req!.headers.authorization, 'Bearer ollama');
      assert.equal(req!.headers['x-agent'], 'qa/v1');
    });
  });

  describe('retries', () => {
    const retryLogs = () => logs.filter((r) => r.message === 'model call failed, retrying');

    it('honours retry-after-ms on 429, then succeeds', async () => {
      server.enqueue({ error: { status: 429, headers: { 'retry-after-ms': '7' } } }, { text: 'finally' });
      const result = await client().call(ask());
      assert.equal(result.text, 'finally');
      assert.equal(server.chatRequests().length, 2);
      const [retry] = retryLogs();
      assert.equal(retry!.fields!.delayMs, 7);
      assert.equal(retry!.fields!.code, 'RATE_LIMIT');
    });

    it('honours retry-after in seconds', async () => {
      server.enqueue({ error: { status: 503, headers: { 'retry-after': '0.02' } } }, { text: 'ok' });
      assert.equal((await client().call(ask())).text, 'ok');
      assert.equal(retryLogs()[0]!.fields!.delayMs, 20);
    });

    it('retries 408, 409, 500 and 503 and a connection reset with capped backoff', async () => {
      server.enqueue(
        { error: { status: 408 } },
        { error: { status: 409 } },
        { error: { status: 500 } },
        { reset: true },
        { text: 'survived' },
      );
      const result = await client({ maxRetries: 4, retryBaseDelayMs: 2, retryMaxDelayMs: 4 }).call(ask());
      assert.equal(result.text, 'survived');
      assert.equal(server.chatRequests().length, 5);
      const delays = retryLogs().map((r) => r.fields!.delayMs as number);
      assert.equal(delays.length, 4);
      for (const d of delays) assert.ok(d >= 1 && d <= 4, `delay ${d} outside the capped range`);
    });

    it('gives up after maxRetries with the status and the retry count', async () => {
      server.setFallback({ error: { status: 500, message: 'boom' } });
      const error = await failure(client({ maxRetries: 2 }).call(ask()));
      assert.equal(error.error_code, 'UNKNOWN');
      assert.equal(error.details.status, 500);
      assert.equal(error.details.retries, 2);
      assert.equal(error.details.serverMessage, 'boom');
      assert.match(error.message, /failed \(HTTP 500\) after 2 retries: boom\. Try again later/);
      assert.equal(server.chatRequests().length, 3);
    });

    it('ends a persistent 429 in RATE_LIMIT', async () => {
      server.setFallback({ error: { status: 429, headers: { 'retry-after-ms': '1' } } });
      const error = await failure(client({ maxRetries: 1 }).call(ask()));
      assert.equal(error.error_code, 'RATE_LIMIT');
      assert.match(error.message, /rate limiting/);
      assert.equal(server.chatRequests().length, 2);
    });

    it('does not retry an exhausted quota, nor when the server says x-should-retry: false', async () => {
      server.enqueue(
        { error: { status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota' } },
        { error: { status: 503, headers: { 'x-should-retry': 'false' } } },
      );
      const c = client();
      const quota = await failure(c.call(ask()));
      assert.equal(quota.error_code, 'RATE_LIMIT');
      assert.equal(quota.details.reason, 'insufficient_quota');
      assert.match(quota.message, /billing/);
      const noRetry = await failure(c.call(ask()));
      assert.equal(noRetry.details.status, 503);
      assert.equal(server.chatRequests().length, 2);
    });

    it('retries a 400 when the server says x-should-retry: true', async () => {
      server.enqueue({ error: { status: 400, headers: { 'x-should-retry': 'true' } } }, { text: 'ok' });
      assert.equal((await client().call(ask())).text, 'ok');
    });

    it('retries a stream that failed before any text, but not one that already delivered text', async () => {
      server.enqueue({ cutStreamAfter: 0, text: 'lost' }, { text: 'second try' });
      const deltas: string[] = [];
      const result = await client().call(ask({ onDelta: (d) => deltas.push(d) }));
      assert.equal(result.text, 'second try');
      assert.equal(deltas.join(''), 'second try');

      server.enqueue({ cutStreamAfter: 2, text: 'a b c d' }, { text: 'never used' });
      const partial: string[] = [];
      const error = await failure(client().call(ask({ onDelta: (d) => partial.push(d) })));
      assert.equal(error.error_code, 'CONNECTION');
      assert.equal(error.details.reason, 'stream_incomplete');
      assert.equal(error.details.partial, true);
      assert.deepEqual(partial, ['a ', 'b ']);
      assert.equal(server.chatRequests().length, 3);
    });
  });

  describe('failures become typed errors', () => {
    it('401 → AUTH, telling how to set the key, without retrying', async () => {
      server.setFallback({ error: { status: 401, message: 'Incorrect API key provided' } });
      const error = await failure(client().call(ask()));
      assert.equal(error.error_code, 'AUTH');
      assert.equal(error.name, 'LlmError');
      assert.match(error.message, /Check the API key: set OPENAI_API_KEY or run 'Set API key'/);
      assert.equal(error.details.status, 401);
      assert.equal(error.details.provider, 'openai');
      assert.equal(error.details.baseURL, server.baseURL);
      assert.equal(error.details.retries, 0);
      assert.equal(server.chatRequests().length, 1);
    });

    it('403 → AUTH naming the model', async () => {
      server.enqueue({ error: { status: 403, message: 'not allowed' } });
      const error = await failure(client().call(ask()));
      assert.equal(error.error_code, 'AUTH');
      assert.match(error.message, /may use model 'm1'/);
    });

    it('400 invalid_request_error → INVALID_REQUEST with the server words', async () => {
      server.enqueue({ error: { status: 400, message: "Invalid value for 'temperature'" } });
      const error = await failure(client().call(ask()));
      assert.equal(error.error_code, 'INVALID_REQUEST');
      assert.equal(error.details.serverType, 'invalid_request_error');
      assert.match(error.message, /Invalid value for 'temperature'.*Check the model name and the call options/);
      assert.equal(server.chatRequests().length, 1);
    });

    it('context_length_exceeded, by code or by message → CONTEXT_LENGTH', async () => {
      server.enqueue(
        { error: { status: 400, code: 'context_length_exceeded', message: 'too long' } },
        {
          error: {
            status: 400,
            message: "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens",
          },
        },
      );
      const c = client();
      for (let i = 0; i < 2; i++) {
        const error = await failure(c.call(ask()));
        assert.equal(error.error_code, 'CONTEXT_LENGTH');
        assert.match(error.message, /Shorten the input/);
      }
    });

    it('an unknown model → INVALID_REQUEST model_not_found, with ollama pull for Ollama', async () => {
      server.enqueue({ error: { status: 404, type: 'api_error', message: "model 'nope' not found" } });
      const error = await failure(
        createOpenAIClient({ baseURL: server.baseURL, provider: 'ollama' }).call(ask({ model: 'nope' })),
      );
      assert.equal(error.error_code, 'INVALID_REQUEST');
      assert.equal(error.details.reason, 'model_not_found');
      assert.match(error.message, /ollama pull nope/);
    });

    it('a base URL without /v1 → INVALID_REQUEST saying to check the base URL', async () => {
      const error = await failure(createOpenAIClient({ baseURL: server.url }).call(ask()));
      assert.equal(error.error_code, 'INVALID_REQUEST');
      assert.equal(error.details.reason, 'not_found');
      assert.match(error.message, /end in \/v1/);
    });

    it('a hanging server → TIMEOUT (per attempt, retried), also when streaming', async () => {
      server.setFallback({ hang: true });
      const error = await failure(client({ timeoutMs: 100, maxRetries: 1 }).call(ask()));
      assert.equal(error.error_code, 'TIMEOUT');
      assert.equal(error.details.timeoutMs, 100);
      assert.equal(error.details.retries, 1);
      assert.match(error.message, /did not answer within 100 ms after 1 retry/);
      assert.equal(server.chatRequests().length, 2);
      const streamed = await failure(client({ maxRetries: 0 }).call(ask({ timeoutMs: 100, onDelta: () => undefined })));
      assert.equal(streamed.error_code, 'TIMEOUT');
    });

    it('a stream that stalls after some text → TIMEOUT, partial', async () => {
      server.enqueue({ cutStreamAfter: 1, text: 'first second', then: 'hang' });
      const deltas: string[] = [];
      const error = await failure(client({ timeoutMs: 150 }).call(ask({ onDelta: (d) => deltas.push(d) })));
      assert.equal(error.error_code, 'TIMEOUT');
      assert.equal(error.details.partial, true);
      assert.deepEqual(deltas, ['first ']);
      assert.equal(server.chatRequests().length, 1);
    });

    it('a reset mid-stream → CONNECTION', async () => {
      server.enqueue({ cutStreamAfter: 1, text: 'first second', then: 'reset' });
      const error = await failure(client().call(ask({ onDelta: () => undefined })));
      assert.equal(error.error_code, 'CONNECTION');
      assert.equal(error.details.partial, true);
    });

    it('a refused connection → CONNECTION naming the base URL and how to fix it', async () => {
      const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
      const error = await failure(createOpenAIClient({ baseURL, maxRetries: 1, retryBaseDelayMs: 1 }).call(ask()));
      assert.equal(error.error_code, 'CONNECTION');
      assert.equal(error.details.retries, 1);
      assert.ok(error.message.includes(baseURL));
      assert.match(error.message, /OPENAI_BASE_URL or --base-url/);
    });

    it('malformed JSON and a body cut mid-JSON → UNKNOWN malformed_response, not retried', async () => {
      server.enqueue({ malformed: '{"choices": [oops' }, { cutStreamAfter: 1, text: 'a b c' }, { malformed: '"just a string"' });
      const c = client();
      for (let i = 0; i < 3; i++) {
        const error = await failure(c.call(ask()));
        assert.equal(error.error_code, 'UNKNOWN');
        assert.equal(error.details.reason, 'malformed_response');
        assert.match(error.message, /OpenAI-compatible API/);
      }
      assert.equal(server.chatRequests().length, 3);
    });

    it('an abort before the call → CANCELLED without a request', async () => {
      const controller = new AbortController();
      controller.abort();
      const error = await failure(client().call(ask({ signal: controller.signal })));
      assert.equal(error.error_code, 'CANCELLED');
      assert.equal(server.chatRequests().length, 0);
    });

    it('an abort while the server hangs → CANCELLED, not TIMEOUT', async () => {
      server.setFallback({ hang: true });
      const controller = new AbortController();
      const pending = failure(client({ timeoutMs: 30_000 }).call(ask({ signal: controller.signal })));
      while (server.chatRequests().length === 0) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      const error = await pending;
      assert.equal(error.error_code, 'CANCELLED');
      assert.equal(server.chatRequests().length, 1);
    });

    it('an abort mid-stream → CANCELLED', async () => {
      server.enqueue({ cutStreamAfter: 1, text: 'first second', then: 'hang' });
      const controller = new AbortController();
      const error = await failure(
        client({ timeoutMs: 30_000 }).call(ask({ signal: controller.signal, onDelta: () => controller.abort() })),
      );
      assert.equal(error.error_code, 'CANCELLED');
    });

    it('an abort during the retry wait → CANCELLED without another attempt', async () => {
      server.setFallback({ error: { status: 429, headers: { 'retry-after-ms': '20000' } } });
      const controller = new AbortController();
      const pending = failure(client().call(ask({ signal: controller.signal })));
      while (!logs.some((r) => r.message === 'model call failed, retrying')) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      const error = await pending;
      assert.equal(error.error_code, 'CANCELLED');
      assert.equal(server.chatRequests().length, 1);
    });

    it('passes an onDelta exception through untouched, without retrying', async () => {
      server.enqueue({ text: 'a b' });
      const mine = new Error('ui went away');
      await assert.rejects(
        client().call(
          ask({
            onDelta: () => {
              throw mine;
            },
          }),
        ),
        (e: unknown) => e === mine,
      );
      assert.equal(server.chatRequests().length, 1);
    });

    it('rejects bad client options with CONFIG errors', () => {
      for (const bad of [
        { baseURL: 'not a url' },
        { baseURL: 'ftp://example.com/v1' },
        { baseURL: 'http://127.0.0.1:1/v1', timeoutMs: -5 },
        { baseURL: 'http://127.0.0.1:1/v1', maxRetries: Number.NaN },
      ]) {
        assert.throws(
          () => createOpenAIClient(bad),
          (e: unknown) => e instanceof AgentError && e.error_code === 'CONFIG',
        );
      }
    });

    it('rejects a bad per-call timeout with a CONFIG error', async () => {
      await assert.rejects(
        client().call(ask({ timeoutMs: 0 })),
        (e: unknown) => e instanceof AgentError && e.error_code === 'CONFIG',
      );
    });

    it('keeps credentials in the base URL out of errors', async () => {
      const port = await closedPort();
      const error = await failure(
        createOpenAIClient({ baseURL: `http://user:pw-secret-123@127.0.0.1:${port}/v1?key=q-secret-456`, maxRetries: 0 }).call(
          ask(),
        ),
      );
      const text = JSON.stringify(error) + error.message;
      assert.ok(!text.includes('pw-secret-123'));
      assert.ok(!text.includes('q-secret-456'));
      assert.equal(error.details.baseURL, `http://127.0.0.1:${port}/v1`);
    });
  });
});
