import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isAgentError } from '../../../../src/core/errors/agentError';
import {
  createHttpRequestTool,
  DEFAULT_MAX_RESPONSE_BYTES,
  type HttpResponseData,
} from '../../../../src/core/tools/builtin/httpRequest';
import { callTool, createTempWorkspace, type TempWorkspace } from './support/workspace';

/** A real loopback server; `/hang` never answers, `/big` streams `size` bytes. */
async function startServer(): Promise<{
  port: number;
  requests: Array<{ method: string; url: string; body: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}> {
  const requests: Array<{ method: string; url: string; body: string; headers: http.IncomingHttpHeaders }> = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, body, headers: req.headers });
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/hang') return; // never answers
      if (url.pathname === '/big') {
        const size = Number(url.searchParams.get('size'));
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'z');
        let sent = 0;
        const pump = (): void => {
          while (sent < size) {
            const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
            sent += piece.length;
            if (!res.write(piece)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      if (url.pathname === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/' });
        return res.end();
      }
      if (url.pathname === '/image') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      }
      res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': 'session=secret', 'x-internal': 'hidden' });
      res.end(JSON.stringify({ method: req.method, body, auth: req.headers['x-test'] ?? null }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function refusedBeforeSending(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(isAgentError(e), String(e));
    assert.equal(e.error_code, 'SANDBOX_VIOLATION');
    assert.match(e.message, pattern);
    assert.match(e.message, /Nothing was sent\./);
    return true;
  });
}

describe('builtin http_request (real loopback HTTP server)', () => {
  let ws: TempWorkspace;
  let server: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    ws = await createTempWorkspace('c1-http-');
    server = await startServer();
  });
  after(async () => {
    await server.close();
    await ws.cleanup();
  });

  it('refuses SSRF targets and sends nothing: 127.0.0.1, localhost, 10.0.0.1, 169.254.169.254, [::1]', async () => {
    const tool = createHttpRequestTool();
    const before = server.requests.length;
    await refusedBeforeSending(callTool(tool, { url: `http://127.0.0.1:${server.port}/` }, ws.context()), /loopback/);
    await refusedBeforeSending(
      callTool(tool, { url: `http://localhost:${server.port}/` }, ws.context()),
      /'localhost' resolves to .* loopback/,
    );
    await refusedBeforeSending(callTool(tool, { url: 'http://10.0.0.1/' }, ws.context()), /private network/);
    await refusedBeforeSending(
      callTool(tool, { url: 'http://169.254.169.254/latest/meta-data/' }, ws.context()),
      /cloud metadata/,
    );
    await refusedBeforeSending(callTool(tool, { url: `http://[::1]:${server.port}/` }, ws.context()), /loopback/);
    await refusedBeforeSending(callTool(tool, { url: 'file:///etc/passwd' }, ws.context()), /only http and https/);
    assert.equal(server.requests.length, before);
  });

  it('reaches an allow-listed loopback server: status, chosen headers and body', async () => {
    const tool = createHttpRequestTool({ allowHosts: ['127.0.0.1'] });
    const out = await callTool(
      tool,
      { method: 'POST', url: `http://127.0.0.1:${server.port}/echo`, headers: { 'x-test': 'yes' }, body: '{"a":1}' },
      ws.context(),
    );
    const data = out.data as HttpResponseData;
    assert.equal(data.status, 201);
    assert.deepEqual(JSON.parse(data.body), { method: 'POST', body: '{"a":1}', auth: 'yes' });
    assert.equal(data.headers['content-type'], 'application/json');
    assert.equal(data.headers['set-cookie'], undefined, 'cookies are not passed to the model');
    assert.equal(data.truncated, false);
    assert.match(out.content, /^HTTP 201 Created\ncontent-type: application\/json\n/);
    assert.ok(!out.content.includes('session=secret'));
  });

  it('pins the connection to the vetted address: a name only the guard resolved still reaches it', async () => {
    // 'pinned.invalid' does not exist in real DNS; the request only works if the socket uses the vetted address.
    const tool = createHttpRequestTool({ allowHosts: ['pinned.invalid'] });
    const resolving = createHttpRequestTool({
      allowHosts: ['pinned.invalid'],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    await assert.rejects(
      callTool(tool, { url: `http://pinned.invalid:${server.port}/` }, ws.context()),
      (e: unknown) => isAgentError(e) && e.error_code === 'CONNECTION',
    );
    const out = await callTool(resolving, { url: `http://pinned.invalid:${server.port}/echo` }, ws.context());
    assert.equal((out.data as HttpResponseData).status, 201);
    assert.equal(server.requests.at(-1)!.headers.host, `pinned.invalid:${server.port}`);
  });

  it('cuts a large response at the limit with a marker (default limit 1 MiB)', async () => {
    assert.equal(DEFAULT_MAX_RESPONSE_BYTES, 1024 * 1024);
    const small = createHttpRequestTool({ allowHosts: ['127.0.0.1'], maxResponseBytes: 1000 });
    const out = await callTool(small, { url: `http://127.0.0.1:${server.port}/big?size=500000` }, ws.context());
    const data = out.data as HttpResponseData;
    assert.equal(data.truncated, true);
    assert.equal(data.bytes, 1000);
    assert.match(out.content, /…\[response truncated at 1000 bytes\]$/);
    const byDefault = await callTool(
      createHttpRequestTool({ allowHosts: ['127.0.0.1'] }),
      { url: `http://127.0.0.1:${server.port}/big?size=3000000` },
      ws.context(),
    );
    assert.equal((byDefault.data as HttpResponseData).bytes, 1024 * 1024);
    assert.equal((byDefault.data as HttpResponseData).truncated, true);
    const exact = await callTool(small, { url: `http://127.0.0.1:${server.port}/big?size=1000` }, ws.context());
    assert.equal((exact.data as HttpResponseData).truncated, false);
  });

  it('gives up after the time limit', async () => {
    const tool = createHttpRequestTool({ allowHosts: ['127.0.0.1'], timeoutMs: 300 });
    await assert.rejects(callTool(tool, { url: `http://127.0.0.1:${server.port}/hang` }, ws.context()), (e: unknown) => {
      return isAgentError(e) && e.error_code === 'TIMEOUT' && /No complete response .* within 300 ms/.test(e.message);
    });
  });

  it('stops when cancelled', async () => {
    const tool = createHttpRequestTool({ allowHosts: ['127.0.0.1'] });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    await assert.rejects(
      callTool(tool, { url: `http://127.0.0.1:${server.port}/hang` }, ws.context({ signal: ac.signal })),
      (e: unknown) => {
        return isAgentError(e) && e.error_code === 'CANCELLED';
      },
    );
  });

  it('does not follow redirects and does not show binary bodies', async () => {
    const tool = createHttpRequestTool({ allowHosts: ['127.0.0.1'] });
    const redirect = await callTool(tool, { url: `http://127.0.0.1:${server.port}/redirect` }, ws.context());
    assert.match(redirect.content, /^HTTP 302 Found/);
    assert.match(redirect.content, /\(redirect to http:\/\/169\.254\.169\.254\/ not followed\)/);
    const image = await callTool(tool, { url: `http://127.0.0.1:${server.port}/image` }, ws.context());
    assert.match(image.content, /\(binary body of 4 bytes not shown\)/);
  });

  it('reports connection failures and invalid headers clearly', async () => {
    const tool = createHttpRequestTool({ allowHosts: ['127.0.0.1'] });
    await assert.rejects(
      callTool(tool, { url: 'http://127.0.0.1:1/' }, ws.context()),
      (e: unknown) => isAgentError(e) && e.error_code === 'CONNECTION',
    );
    await assert.rejects(
      callTool(tool, { url: `http://127.0.0.1:${server.port}/`, headers: { 'bad header': 'x' } }, ws.context()),
      (e: unknown) => isAgentError(e) && e.error_code === 'VALIDATION' && /Nothing was sent/.test(e.message),
    );
  });
});
