import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setLogSink } from '../../../src/core/logging/logger';
import { McpServerError, McpToolError } from '../../../src/core/mcp/errors';
import { McpServerConnection } from '../../../src/core/mcp/mcpServerConnection';

/**
 * A hostile MCP server over streamable HTTP on loopback: it answers `initialize` and `tools/list` like a real one,
 * then answers a tool call with an endless body, as JSON or as one endless server-sent event, and keeps writing until
 * the client closes the socket. The call timeout is far longer than the test's, so only the client's message bound
 * can end these calls in time. A third mode sends many small events whose total is past the bound, then the result:
 * a long event stream is fine, only one message may not be huge.
 */
const LIMIT = 64 * 1024;

interface Hostile {
  url: string;
  /** Resolves when the flood's response is closed (the client cut the connection). */
  floodClosed: Promise<void>;
  close(): Promise<void>;
}

async function startHostileServer(): Promise<Hostile> {
  let markClosed: () => void = () => undefined;
  const floodClosed = new Promise<void>((resolve) => (markClosed = resolve));
  const flood = (res: ServerResponse, contentType: string, opening: string) => {
    res.writeHead(200, { 'content-type': contentType });
    res.write(opening);
    res.on('close', markClosed);
    const chunk = 'x'.repeat(16 * 1024);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') return void res.writeHead(405).end();
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const msg = JSON.parse(raw) as { id?: number; method: string; params?: Record<string, any> };
      const reply = (result: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      };
      if (msg.id === undefined) return void res.writeHead(202).end();
      if (msg.method === 'initialize')
        return reply({
          protocolVersion: msg.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'hostile', version: '1.0.0' },
        });
      if (msg.method === 'tools/list')
        return reply({ tools: [{ name: 'flood', inputSchema: { type: 'object', properties: { mode: { type: 'string' } } } }] });
      if (msg.method !== 'tools/call') return reply({});
      const mode = msg.params?.arguments?.mode;
      if (mode === 'json')
        return flood(res, 'application/json', `{"jsonrpc":"2.0","id":${msg.id},"result":{"content":[{"type":"text","text":"`);
      if (mode === 'event') return flood(res, 'text/event-stream', 'event: message\ndata: ');
      // Many small events (log notifications the client ignores), then the result: more than LIMIT in all.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 200; i++)
        res.write(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'n'.repeat(1024) } })}\n\n`,
        );
      const result = { content: [{ type: 'text', text: 'done after 200 events' }] };
      res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result })}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    floodClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('MCP over HTTP: a server that sends a message past the bound', function () {
  this.timeout(20_000);
  let server: Hostile;
  let connection: McpServerConnection;
  let restoreSink: ReturnType<typeof setLogSink>;

  beforeEach(async () => {
    restoreSink = setLogSink(() => undefined);
    server = await startHostileServer();
    connection = new McpServerConnection(
      { name: 'hostile', transport: 'http', url: server.url, callTimeoutMs: 120_000 },
      { maxHttpMessageBytes: LIMIT },
    );
    await connection.connect();
  });

  afterEach(async () => {
    await connection.close();
    await server.close();
    setLogSink(restoreSink);
  });

  for (const [mode, what] of [
    ['json', 'a response'],
    ['event', 'a server-sent event'],
  ] as const) {
    it(`an endless ${mode === 'json' ? 'JSON body' : 'event'}: the call fails at once, the connection is cut and marked failed`, async () => {
      const failures: McpServerError[] = [];
      connection.onFailure((error) => failures.push(error));
      const error = await connection.callTool('flood', { mode }).then(
        () => assert.fail('the flood call resolved'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof McpToolError, String(error));
      assert.equal(error.error_code, 'TOOL_FAILED');
      assert.match(
        error.message,
        new RegExp(`MCP server "hostile" \\(http://127\\.0\\.0\\.1:\\d+/mcp\\) sent ${what} of more than 64 KB`),
      );
      await server.floodClosed; // the server saw its socket closed: nothing more is read
      assert.equal(connection.state, 'failed');
      assert.ok(connection.error instanceof McpServerError);
      assert.equal(connection.error.details.limitBytes, LIMIT);
      assert.equal(failures.length, 1, 'the hub is told once, and unregisters the tools');
    });
  }

  it('a long event stream of small messages is fine: only one message may not be huge', async () => {
    const output = await connection.callTool('flood', { mode: 'many' });
    assert.equal(output.content, 'done after 200 events');
    assert.equal(connection.state, 'connected');
  });
});
