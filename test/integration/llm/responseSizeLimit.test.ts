import { findResponseTooLarge, limitResponseBytes } from '../../../src/core/llm/responseSizeLimit';
import assert from 'node:assert/strict';
import { createOpenAIClient, LlmError, type OpenAIClientOptions } from '../../../src/core/llm';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

const MB = 1024 * 1024;
const USER = [{ role: 'user' as const, content: 'hi' }];

/** What the server saw of one huge reply. */
interface HugeEnd {
  bytesWritten: number;
  complete: boolean;
}

/** Queues a 100 MB reply and returns a promise of how it ended on the server's side. */
function enqueueHuge(server: OpenAITestServer, options: { contentLength?: boolean } = {}): Promise<HugeEnd> {
  return new Promise((resolve) => server.enqueue({ hugeBody: { bytes: 100 * MB, ...options, onEnd: resolve } }));
}

async function rejection(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof LlmError, `expected LlmError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('llm: bounded model responses (loopback server sending 100 MB)', function () {
  this.timeout(60_000);
  let server: OpenAITestServer;
  const client = (extra: Partial<OpenAIClientOptions> = {}) =>
    createOpenAIClient({ baseURL: server.baseURL, maxRetries: 3, retryBaseDelayMs: 1, ...extra });

  beforeEach(async () => {
    server = await startOpenAIServer({ models: ['m1'] });
  });
  afterEach(async () => {
    await server.close();
  });

  it('stops reading a plain JSON body past the default 8 MB, closes the connection and says how to raise the limit', async () => {
    const ended = enqueueHuge(server);
    const error = await rejection(client().call({ model: 'm1', messages: USER }));
    assert.equal(error.error_code, 'RESPONSE_TOO_LARGE');
    assert.match(error.message, /8 MB/);
    assert.match(error.message, /maxResponseBytes/);
    assert.equal(error.details.maxResponseBytes, 8 * MB);
    const end = await ended;
    assert.equal(end.complete, false, 'the client closed the connection before the body was complete');
    assert.ok(end.bytesWritten < 32 * MB, `server wrote ${end.bytesWritten} bytes`);
    assert.equal(server.chatRequests().length, 1, 'a too-large answer is not retried');
  });

  it('stops reading an SSE stream past the limit in the same way', async () => {
    const ended = enqueueHuge(server);
    let delivered = 0;
    const error = await rejection(client().call({ model: 'm1', messages: USER, onDelta: (d) => (delivered += d.length) }));
    assert.equal(error.error_code, 'RESPONSE_TOO_LARGE');
    assert.match(error.message, /8 MB/);
    assert.ok(delivered <= 8 * MB, `delivered ${delivered} characters`);
    const end = await ended;
    assert.equal(end.complete, false);
    assert.ok(end.bytesWritten < 32 * MB, `server wrote ${end.bytesWritten} bytes`);
    assert.equal(server.chatRequests().length, 1);
  });

  it('refuses a body whose content-length is over the limit before reading it, with a custom maxResponseBytes', async () => {
    const ended = enqueueHuge(server, { contentLength: true });
    const error = await rejection(client({ maxResponseBytes: 2 * MB }).call({ model: 'm1', messages: USER }));
    assert.equal(error.error_code, 'RESPONSE_TOO_LARGE');
    assert.match(error.message, /2 MB/);
    assert.equal(error.details.maxResponseBytes, 2 * MB);
    const end = await ended;
    assert.equal(end.complete, false);
    assert.ok(end.bytesWritten < 32 * MB, `server wrote ${end.bytesWritten} bytes`);
  });

  it('lets an answer under the limit through and the same client keeps working after a refused one', async () => {
    const c = client({ maxResponseBytes: 1 * MB });
    const ended = enqueueHuge(server);
    await rejection(c.call({ model: 'm1', messages: USER }));
    await ended;
    server.enqueue({ hugeBody: { bytes: 512 * 1024 } }, { text: 'small' });
    const big = await c.call({ model: 'm1', messages: USER });
    assert.ok(big.text.length > 400 * 1024);
    assert.equal((await c.call({ model: 'm1', messages: USER, onDelta: () => undefined })).text, 'small');
  });

  it('counts a compressed body after decompression even when its content-length is small; a plain one within the limit passes as is', async () => {
    const big = 'x'.repeat(4096);
    const compressed = limitResponseBytes(
      async () => new Response(big, { headers: { 'content-length': '20', 'content-encoding': 'gzip' } }),
      1024,
    );
    await assert.rejects((await compressed('http://127.0.0.1/')).text(), (e: unknown) => findResponseTooLarge(e) !== undefined);
    const plain = limitResponseBytes(async () => new Response('{"ok":true}', { headers: { 'content-length': '11' } }), 1024);
    assert.equal(await (await plain('http://127.0.0.1/')).text(), '{"ok":true}');
  });

  it('rejects a maxResponseBytes that is not a positive number as CONFIG', () => {
    for (const bad of [0, -1, Number.NaN]) {
      assert.throws(
        () => client({ maxResponseBytes: bad }),
        (e: any) => e.error_code === 'CONFIG' && /maxResponseBytes/.test(e.message),
      );
    }
  });
});
