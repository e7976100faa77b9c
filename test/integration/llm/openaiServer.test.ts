import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

/** The loopback test server, exercised through the real `openai` SDK. */
describe('test support: loopback OpenAI-compatible server', () => {
  let server: OpenAITestServer;
  let sdk: OpenAI;

  beforeEach(async () => {
    server = await startOpenAIServer({ models: ['m1', 'm2'] });
    sdk = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test-server-key-123', maxRetries: 0, timeout: 5000 });
  });
  afterEach(async () => {
    await server.close();
  });

  it('answers a non-streamed completion and records the request', async () => {
    server.enqueue({ text: 'hello there', usage: { prompt_tokens: 7, completion_tokens: 2 } });
    const res = await sdk.chat.completions.create({
      model: 'ft:gpt-4o-mini:org::abc',
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.equal(res.object, 'chat.completion');
    assert.equal(res.model, 'ft:gpt-4o-mini:org::abc');
    assert.equal(res.choices[0]!.message.content, 'hello there');
    assert.equal(res.choices[0]!.finish_reason, 'stop');
    assert.deepEqual(res.usage, { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
    const [req] = server.chatRequests();
    assert.equal(req!.body.messages[0].content, 'hi');
    assert.equal(req!.headers.authorization, 'Bearer sk-test-server-key-123');
  });

  it('reports finish_reason length and a model override', async () => {
    server.enqueue({ text: 'cut', finishReason: 'length', model: 'other' });
    const res = await sdk.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(res.choices[0]!.finish_reason, 'length');
    assert.equal(res.model, 'other');
  });

  it('returns tool calls, non-streamed', async () => {
    server.enqueue({ toolCalls: [{ id: 'call_a', name: 'read_file', arguments: { path: 'a.ts' } }] });
    const res = await sdk.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'x' }] });
    const call = res.choices[0]!.message.tool_calls![0]!;
    assert.equal(res.choices[0]!.finish_reason, 'tool_calls');
    assert.equal(call.id, 'call_a');
    assert.ok(call.type === 'function');
    assert.equal(call.function.name, 'read_file');
    assert.deepEqual(JSON.parse(call.function.arguments), { path: 'a.ts' });
  });

  it('streams text as several chunks, a usage chunk and [DONE]', async () => {
    server.enqueue({ text: 'one two three four' });
    const stream = await sdk.chat.completions.create({
      model: 'm1',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let finish: string | null = null;
    let usage: unknown;
    for await (const c of stream) {
      assert.equal(c.object, 'chat.completion.chunk');
      const choice = c.choices[0];
      if (choice?.delta.content) deltas.push(choice.delta.content);
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (c.usage) usage = c.usage;
    }
    assert.deepEqual(deltas, ['one ', 'two ', 'three ', 'four']);
    assert.equal(finish, 'stop');
    assert.ok(usage && typeof usage === 'object' && 'total_tokens' in usage);
  });

  it('streams tool-call arguments as fragments with id and name on the first', async () => {
    server.enqueue({
      toolCalls: [
        { name: 'write_file', arguments: { path: 'src/a.ts', content: 'export const a = 1;' } },
        { name: 'run_tests', arguments: '{}' },
      ],
    });
    const stream = await sdk.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'x' }], stream: true });
    const calls: Array<{ id?: string; name?: string; args: string; fragments: number }> = [];
    let finish: string | null = null;
    for await (const c of stream) {
      const choice = c.choices[0]!;
      if (choice.finish_reason) finish = choice.finish_reason;
      for (const tc of choice.delta.tool_calls ?? []) {
        const entry = (calls[tc.index] ??= { args: '', fragments: 0 });
        if (tc.id) entry.id = tc.id;
        if (tc.function?.name) entry.name = tc.function.name;
        if (tc.function?.arguments) {
          entry.args += tc.function.arguments;
          entry.fragments++;
        }
      }
    }
    assert.equal(finish, 'tool_calls');
    assert.equal(calls.length, 2);
    assert.equal(calls[0]!.name, 'write_file');
    assert.ok(calls[0]!.id);
    assert.ok(calls[0]!.fragments > 1);
    assert.deepEqual(JSON.parse(calls[0]!.args), { path: 'src/a.ts', content: 'export const a = 1;' });
    assert.equal(calls[1]!.name, 'run_tests');
  });

  it('serves json and fenced json content', async () => {
    server.enqueue({ json: { answer: 42 } }, { fencedJson: { answer: 43 } });
    const a = await sdk.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'x' }] });
    const b = await sdk.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'x' }] });
    assert.deepEqual(JSON.parse(a.choices[0]!.message.content!), { answer: 42 });
    assert.match(b.choices[0]!.message.content!, /^```json\n\{\n {2}"answer": 43\n\}\n```$/);
  });

  it('injects errors with status, type, code and headers', async () => {
    server.enqueue(
      { error: { status: 429, headers: { 'retry-after-ms': '5' } } },
      { error: { status: 400, code: 'context_length_exceeded', message: 'too long' } },
    );
    await assert.rejects(sdk.chat.completions.create({ model: 'm1', messages: [] }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.RateLimitError);
      assert.equal(e.headers.get('retry-after-ms'), '5');
      return true;
    });
    await assert.rejects(sdk.chat.completions.create({ model: 'm1', messages: [] }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.BadRequestError);
      assert.equal(e.code, 'context_length_exceeded');
      assert.equal(e.type, 'invalid_request_error');
      return true;
    });
  });

  it('falls back to a 500 when nothing is scripted, or to the configured fallback', async () => {
    await assert.rejects(
      sdk.chat.completions.create({ model: 'm1', messages: [] }),
      (e: unknown) => e instanceof OpenAI.InternalServerError,
    );
    server.setFallback({ text: 'always' });
    const r = await sdk.chat.completions.create({ model: 'm1', messages: [] });
    assert.equal(r.choices[0]!.message.content, 'always');
    server.setFallback(undefined);
    await assert.rejects(
      sdk.chat.completions.create({ model: 'm1', messages: [] }),
      (e: unknown) => e instanceof OpenAI.InternalServerError,
    );
  });

  it('lets a function decide the reply from the request', async () => {
    server.enqueue((req) => ({ text: `you said ${req.body.messages[0].content}` }));
    const r = await sdk.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'ping' }] });
    assert.equal(r.choices[0]!.message.content, 'you said ping');
  });

  it('hangs until the client times out, and close() still finishes', async () => {
    server.enqueue({ hang: true });
    const quick = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, timeout: 150 });
    await assert.rejects(
      quick.chat.completions.create({ model: 'm1', messages: [] }),
      (e: unknown) => e instanceof OpenAI.APIConnectionTimeoutError,
    );
    server.enqueue({ hang: true });
    const pending = sdk.chat.completions.create({ model: 'm1', messages: [] }).catch((e: unknown) => e);
    while (server.chatRequests().length < 2) await new Promise((r) => setTimeout(r, 5));
    await server.close();
    assert.ok((await pending) instanceof OpenAI.APIConnectionError);
  });

  it('pauses a stream after N words until told to go on; a request the client aborts is recorded as aborted', async () => {
    let go: () => void = () => undefined;
    server.enqueue({ text: 'one two three four', pauseAfter: { words: 2, until: new Promise<void>((r) => (go = r)) } });
    const stream = await sdk.chat.completions.create({ model: 'm1', messages: [], stream: true });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const part of stream) seen.push(part.choices[0]?.delta?.content ?? '');
    })();
    while (seen.join('') !== 'one two ') await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen.join(''), 'one two ', 'nothing more while paused');
    go();
    await reading;
    assert.equal(seen.join(''), 'one two three four');
    assert.equal(server.chatRequests()[0]!.aborted, undefined, 'answered in full');

    server.enqueue({ hang: true });
    const abort = new AbortController();
    const pending = sdk.chat.completions.create({ model: 'm1', messages: [] }, { signal: abort.signal }).catch((e: unknown) => e);
    while (server.chatRequests().length < 2) await new Promise((r) => setTimeout(r, 5));
    abort.abort();
    assert.ok((await pending) instanceof OpenAI.APIUserAbortError);
    while (server.chatRequests()[1]!.aborted !== true) await new Promise((r) => setTimeout(r, 5));
  });

  it('resets the connection', async () => {
    server.enqueue({ reset: true });
    await assert.rejects(
      sdk.chat.completions.create({ model: 'm1', messages: [] }),
      (e: unknown) => e instanceof OpenAI.APIConnectionError,
    );
  });

  it('cuts a stream after N chunks without [DONE], and a plain body mid-JSON', async () => {
    server.enqueue({ cutStreamAfter: 2, text: 'a b c d e' });
    const stream = await sdk.chat.completions.create({ model: 'm1', messages: [], stream: true });
    const deltas: string[] = [];
    let finish: string | null = null;
    for await (const c of stream) {
      if (c.choices[0]?.delta.content) deltas.push(c.choices[0].delta.content);
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    assert.deepEqual(deltas, ['a ', 'b ']);
    assert.equal(finish, null);
    server.enqueue({ cutStreamAfter: 2, text: 'a b c d e' });
    await assert.rejects(sdk.chat.completions.create({ model: 'm1', messages: [] }));
  });

  it('serves a malformed JSON body with status 200', async () => {
    server.enqueue({ malformed: '{"id": "x", "choices": [' });
    await assert.rejects(sdk.chat.completions.create({ model: 'm1', messages: [] }));
  });

  it('lists models and plays Ollama unless told not to', async () => {
    const list = await sdk.models.list();
    assert.deepEqual(
      list.data.map((m) => m.id),
      ['m1', 'm2'],
    );
    const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as { models: Array<{ name: string }> };
    assert.deepEqual(
      tags.models.map((m) => m.name),
      ['m1', 'm2'],
    );
    assert.equal((await fetch(`${server.url}/api/version`)).status, 200);
    server.ollama = false;
    assert.equal((await fetch(`${server.url}/api/tags`)).status, 404);
    assert.equal((await fetch(`${server.url}/api/version`)).status, 404);
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/v1/models', '/api/tags', '/api/version', '/api/tags', '/api/version'],
    );
  });
});
