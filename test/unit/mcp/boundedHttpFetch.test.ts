import { strict as assert } from 'node:assert';
import { boundedMessageFetch, HttpMessageLimitError } from '../../../src/core/mcp/boundedHttpFetch';

const encoder = new TextEncoder();

/** A fetch answering with `chunks` as the body (streamed, no content-length unless given) and records cancels. */
function fakeFetch(chunks: string[], headers: Record<string, string>, status = 200) {
  const seen = { cancelled: false, pulled: 0 };
  const fetchImpl = async () => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        seen.pulled++;
        if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]!));
        else controller.close();
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return new Response(status === 204 ? null : body, { status, headers });
  };
  return { fetchImpl, seen };
}

async function readAll(response: Response): Promise<string> {
  return new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()));
}

describe('boundedMessageFetch (the MCP HTTP client bound)', () => {
  it('passes a JSON response within the bound through unchanged', async () => {
    const limits: HttpMessageLimitError[] = [];
    const { fetchImpl } = fakeFetch(['{"jsonrpc":"2.0",', '"id":1,"result":{}}'], { 'content-type': 'application/json' });
    const response = await boundedMessageFetch(100, (e) => limits.push(e), fetchImpl)('http://x/mcp');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(await readAll(response), '{"jsonrpc":"2.0","id":1,"result":{}}');
    assert.equal(limits.length, 0);
  });

  it('cuts a JSON response that grows past the bound, cancels the body and says so once', async () => {
    const limits: HttpMessageLimitError[] = [];
    const { fetchImpl, seen } = fakeFetch(
      Array.from({ length: 50 }, () => 'x'.repeat(40)),
      {
        'content-type': 'application/json',
      },
    );
    const response = await boundedMessageFetch(100, (e) => limits.push(e), fetchImpl)('http://x/mcp');
    await assert.rejects(readAll(response), (e: unknown) => e instanceof HttpMessageLimitError && e.kind === 'response');
    assert.equal(limits.length, 1);
    assert.equal(limits[0]!.limitBytes, 100);
    assert.equal(seen.cancelled, true, 'the body was cancelled (the connection closes)');
    assert.ok(seen.pulled < 10, `read on after the bound: ${seen.pulled} pulls`);
  });

  it('refuses at once a response whose content-length is past the bound', async () => {
    const limits: HttpMessageLimitError[] = [];
    const { fetchImpl } = fakeFetch(['{}'], { 'content-type': 'application/json', 'content-length': '5000' });
    const response = await boundedMessageFetch(100, (e) => limits.push(e), fetchImpl)('http://x/mcp');
    await assert.rejects(readAll(response), HttpMessageLimitError);
    assert.equal(limits.length, 1);
  });

  it('bounds each event of an event stream, not the stream: many small events pass, whatever their total', async () => {
    const limits: HttpMessageLimitError[] = [];
    const event = (n: number) => `event: message\r\ndata: {"n":${n},"pad":"${'p'.repeat(40)}"}\r\n\r\n`;
    const chunks = Array.from({ length: 40 }, (_, n) => event(n));
    // Split one CRLF CRLF across chunks too: the boundary must still count.
    chunks.splice(3, 1, event(3).slice(0, -3), event(3).slice(-3));
    const { fetchImpl } = fakeFetch(chunks, { 'content-type': 'text/event-stream' });
    const response = await boundedMessageFetch(100, (e) => limits.push(e), fetchImpl)('http://x/mcp');
    const text = await readAll(response);
    assert.ok(text.length > 2000, 'the whole stream came through');
    assert.equal(text, chunks.join(''));
    assert.equal(limits.length, 0);
  });

  it('cuts an event stream at an event past the bound, even when it arrives in small pieces', async () => {
    const limits: HttpMessageLimitError[] = [];
    const chunks = ['data: {"ok":1}\n\n', 'data: ', ...Array.from({ length: 30 }, () => 'y'.repeat(10))];
    const { fetchImpl, seen } = fakeFetch(chunks, { 'content-type': 'text/event-stream; charset=utf-8' });
    const response = await boundedMessageFetch(100, (e) => limits.push(e), fetchImpl)('http://x/mcp');
    await assert.rejects(readAll(response), (e: unknown) => e instanceof HttpMessageLimitError && e.kind === 'event');
    assert.equal(limits.length, 1);
    assert.equal(seen.cancelled, true);
  });

  it('leaves a response that cannot have a body as it is', async () => {
    const { fetchImpl } = fakeFetch([], {}, 204);
    const response = await boundedMessageFetch(100, () => assert.fail('no limit'), fetchImpl)('http://x/mcp');
    assert.equal(response.status, 204);
  });
});
