import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlProtocol } from '../../../src/core/control/controlProtocol';
import { InMemoryTransport } from '../../../src/core/control/inMemoryTransport';
import { setLogSink, type LogRecord } from '../../../src/core/logging/logger';
import { McpHub, type McpServerStatus } from '../../../src/core/mcp/mcpHub';
import { McpServerConnection } from '../../../src/core/mcp/mcpServerConnection';
import { ToolExecutor } from '../../../src/core/tools/executor';
import { ToolRegistry } from '../../../src/core/tools/registry';

/**
 * Real MCP servers from npm (not written by this project) over stdio and streamable HTTP,
 * plus a crashing, a silent and a missing server.
 */
const modules = join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol');
const EVERYTHING = join(modules, 'server-everything', 'dist', 'index.js');
const FILESYSTEM = join(modules, 'server-filesystem', 'dist', 'index.js');
const node = process.execPath;

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('MCP servers (real npm servers over stdio)', function () {
  this.timeout(30_000);
  let dir: string;
  let registry: ToolRegistry;
  let hub: McpHub;
  let statuses: McpServerStatus[];
  let executor: ToolExecutor;
  let transport: InMemoryTransport;
  let approvals: string[];
  let restoreSink: ReturnType<typeof setLogSink>;
  const logs: LogRecord[] = [];
  const savedKey = process.env.OPENAI_API_KEY;

  before(async () => {
    restoreSink = setLogSink((r) => logs.push(r));
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-fs-')));
    writeFileSync(join(dir, 'notes.txt'), 'first line\nsecond line\n');
    mkdirSync(join(dir, 'sub'));
    // A key in our own environment must not reach MCP children.
    process.env.OPENAI_API_KEY = 'sk-test-must-not-leak-0123456789';
    registry = new ToolRegistry();
    hub = new McpHub(registry, { closeGraceMs: 200 });
    statuses = await hub.connectAll([
      {
        name: 'everything',
        transport: 'stdio',
        command: node,
        args: [EVERYTHING, 'stdio'],
        env: { TDD_AGENT_PROBE: 'visible-to-server' },
        toolDangerLevels: { echo: 'SAFE' },
      },
      { name: 'fs', transport: 'stdio', command: node, args: [FILESYSTEM, dir], dangerLevel: 'LOW' },
      {
        name: 'crashes',
        transport: 'stdio',
        command: node,
        args: ['-e', 'console.error("fatal: no config file"); process.exit(1)'],
      },
      { name: 'silent', transport: 'stdio', command: node, args: ['-e', 'setInterval(() => {}, 1000)'], connectTimeoutMs: 800 },
      { name: 'missing', transport: 'stdio', command: join(dir, 'no-such-binary') },
      { name: 'bad name!', transport: 'stdio', command: node },
      { name: 'everything', transport: 'stdio', command: node, args: [EVERYTHING] },
      { name: 'off', transport: 'stdio', command: node, enabled: false },
    ]);
    transport = new InMemoryTransport();
    approvals = [];
    transport.onAgentMessage((m) => {
      if (m.type !== 'approval_request') return;
      approvals.push(m.tool);
      transport.approve(m.id, 'panel');
    });
    executor = new ToolExecutor({ registry, workspaceRoot: dir, control: new ControlProtocol(transport) });
  });

  after(async () => {
    await hub?.close();
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
    setLogSink(restoreSink);
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the good servers and reports a clear error for each bad one', () => {
    const byName = (name: string) => statuses.find((s) => s.name === name)!;
    assert.equal(statuses.length, 8);
    assert.equal(byName('everything').state, 'connected');
    assert.equal(byName('everything').serverInfo?.name, 'mcp-servers/everything');
    assert.equal(byName('fs').state, 'connected');

    const crashed = byName('crashes');
    assert.deepEqual([crashed.state, crashed.error?.error_code], ['failed', 'CONNECTION']);
    assert.match(
      crashed.error!.message,
      /MCP server "crashes" closed the connection during startup\. Its stderr ends with: fatal: no config file/,
    );

    const silent = byName('silent');
    assert.deepEqual([silent.state, silent.error?.error_code], ['failed', 'TIMEOUT']);
    assert.match(silent.error!.message, /did not answer within 0\.8 s \(connect\)/);

    assert.match(byName('missing').error!.message, /could not be started: .*no-such-binary.* \(ENOENT\)/);
    assert.match(byName('bad name!').error!.message, /misconfigured:\n {2}- name: use 1-32 letters/);
    const duplicate = statuses[6]!;
    assert.match(duplicate.error!.message, /Two MCP servers are named "everything"/);
    assert.equal(byName('off').state, 'disabled');
    assert.ok(logs.some((r) => r.level === 'warn' && /continuing without it/.test(r.message)));
  });

  it('registers MCP tools as category mcp with prefixed names, configured danger levels and the server schema', () => {
    const echo = registry.get('everything__echo')!;
    assert.equal(echo.category, 'mcp');
    assert.equal(echo.dangerLevel, 'SAFE');
    assert.equal(registry.get('everything__get-sum')!.dangerLevel, 'MEDIUM');
    assert.equal(registry.get('fs__read_text_file')!.dangerLevel, 'LOW');
    assert.deepEqual(echo.inputJsonSchema, {
      type: 'object',
      properties: { message: { type: 'string', description: 'Message to echo' } },
      required: ['message'],
    });
    const spec = executor.toolSpecs().find((s) => s.function.name === 'everything__echo')!;
    assert.deepEqual(spec.function.parameters, echo.inputJsonSchema);
    assert.ok(registry.discoverTools({ category: 'mcp' }).length >= 20);
    assert.ok(registry.names().every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n)));
  });

  it('calls MCP tools through the executor and approvals', async () => {
    const safe = await executor.executeCall({ id: 'c1', name: 'everything__echo', arguments: '{"message":"hi"}' });
    assert.deepEqual([safe.ok, safe.content, safe.approval], [true, 'Echo: hi', 'auto']);
    const sum = await executor.executeTool('everything__get-sum', { a: 2, b: 3 });
    assert.equal(sum.ok, true, sum.content);
    assert.match(sum.content, /5/);
    assert.equal(sum.approval, 'approved');
    assert.deepEqual(approvals, ['everything__get-sum']);
  });

  it('turns structured content, images and server-side errors into tool results', async () => {
    const weather = await executor.executeTool('everything__get-structured-content', { location: 'Chicago' });
    assert.equal(weather.ok, true, weather.content);
    assert.equal(typeof (weather.data as { temperature: number }).temperature, 'number');
    const image = await executor.executeTool('everything__get-tiny-image', {});
    assert.match(image.content, /\[image image\/png, \d+ bytes\]/);
    const invalid = await executor.executeTool('everything__get-sum', { a: 'two', b: 3 });
    assert.equal(invalid.ok, false);
    assert.equal(invalid.error?.error_code, 'TOOL_FAILED');
    assert.match(invalid.content, /MCP tool get-sum on server "everything" reported an error: .*(invalid|expected number)/i);
  });

  it("passes configured env to the server but none of this process's API keys", async () => {
    const env = await executor.executeTool('everything__get-env', {});
    assert.equal(env.ok, true, env.content);
    assert.match(env.content, /TDD_AGENT_PROBE/);
    assert.doesNotMatch(env.content, /OPENAI_API_KEY|sk-test-must-not-leak/);
  });

  it('an MCP call past the executor timeout is cancelled and the server stays usable', async () => {
    const slow = await executor.executeTool(
      'everything__trigger-long-running-operation',
      { duration: 5, steps: 5 },
      { timeout: 300 },
    );
    assert.equal(slow.error?.error_code, 'TIMEOUT');
    const again = await executor.executeTool('everything__echo', { message: 'still here' });
    assert.equal(again.content, 'Echo: still here');
  });

  it('reads a file and lists a folder through server-filesystem, which refuses paths outside its root', async () => {
    const read = await executor.executeTool('fs__read_text_file', { path: join(dir, 'notes.txt') });
    assert.equal(read.ok, true, read.content);
    assert.equal(read.content, 'first line\nsecond line\n');
    const list = await executor.executeTool('fs__list_directory', { path: dir });
    assert.match(list.content, /\[FILE\] notes\.txt/);
    assert.match(list.content, /\[DIR\] sub/);
    const outside = await executor.executeTool('fs__read_text_file', { path: '/etc/hostname' });
    assert.equal(outside.ok, false);
    assert.match(outside.content, /Access denied|outside allowed directories/i);
  });

  it('a server that dies after connecting loses its tools; the agent goes on without it', async () => {
    const reg = new ToolRegistry();
    const ownHub = new McpHub(reg, { closeGraceMs: 200 });
    const [status] = await ownHub.connectAll([
      { name: 'doomed', transport: 'stdio', command: node, args: [EVERYTHING, 'stdio'] },
    ]);
    assert.equal(status!.state, 'connected');
    const stale = reg.get('doomed__echo')!;
    const pid = ownHub.connection('doomed')!.pid!;
    process.kill(pid, 'SIGKILL');
    await until(() => reg.size === 0, 'tools to be unregistered');
    const [after] = ownHub.status();
    assert.deepEqual([after!.state, after!.error?.error_code, after!.tools], ['failed', 'CONNECTION', []]);
    assert.match(after!.error!.message, /closed the connection unexpectedly/);
    const ex = new ToolExecutor({ registry: reg, workspaceRoot: dir });
    const gone = await ex.executeTool('doomed__echo', { message: 'x' });
    assert.equal(gone.error?.error_code, 'TOOL_NOT_FOUND');
    // A stale reference held elsewhere fails clearly too.
    await assert.rejects(
      stale.execute({ message: 'x' }, { workspaceRoot: dir, signal: new AbortController().signal, logger: undefined as never }),
      /MCP server "doomed" is not available \(MCP server "doomed" closed the connection unexpectedly/,
    );
    await ownHub.close();
  });

  it('close() leaves no child process behind, also for a server that never answered', async () => {
    const silent = new McpServerConnection(
      { name: 'silent2', transport: 'stdio', command: node, args: ['-e', 'setInterval(() => {}, 1000)'], connectTimeoutMs: 500 },
      { closeGraceMs: 100 },
    );
    await assert.rejects(silent.connect(), /did not answer within 0\.5 s/);
    assert.equal(silent.state, 'failed');
    assert.ok(silent.pid, 'the silent child had a pid');
    assert.equal(isAlive(silent.pid), false, 'the silent child was killed');
    await assert.rejects(silent.connect(), /already started/);

    const reg = new ToolRegistry();
    const ownHub = new McpHub(reg, { closeGraceMs: 200 });
    await ownHub.connectAll([{ name: 'short', transport: 'stdio', command: node, args: [EVERYTHING, 'stdio'] }]);
    const pid = ownHub.connection('short')!.pid;
    assert.equal(isAlive(pid), true);
    await ownHub.close();
    assert.equal(isAlive(pid), false, 'the child process is gone after close');
    assert.equal(reg.size, 0);
    assert.equal(ownHub.status()[0]!.state, 'closed');
    await ownHub.close();
  });
});

describe('MCP server over streamable HTTP (server-everything)', function () {
  this.timeout(30_000);
  let child: ChildProcess | undefined;
  let port: number;

  before(async () => {
    port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    child = spawn(node, [EVERYTHING, 'streamableHttp'], {
      env: { PATH: process.env.PATH, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let err = '';
      child!.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        if (/listening on port/.test(err)) resolve();
      });
      child!.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${err}`)));
    });
  });

  after(() => {
    child?.kill('SIGKILL');
  });

  it('connects by URL, lists and calls tools, and closes', async () => {
    const registry = new ToolRegistry();
    const hub = new McpHub(registry);
    const [status] = await hub.connectAll([
      {
        name: 'remote',
        transport: 'http',
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { Authorization: 'Bearer remote-token-0123456789' },
      },
    ]);
    assert.equal(status!.state, 'connected', status!.error?.message);
    assert.equal(status!.transport, 'http');
    const executor = new ToolExecutor({ registry, workspaceRoot: tmpdir(), policy: undefined });
    const denied = await executor.executeTool('remote__echo', { message: 'over http' });
    assert.equal(denied.approval, 'denied', 'MEDIUM by default: asked, and nobody can answer here');
    const connection = hub.connection('remote')!;
    const output = await connection.callTool('echo', { message: 'over http' });
    assert.equal(output.content, 'Echo: over http');
    await hub.close();
    assert.equal(registry.size, 0);
  });

  it('reports an unreachable URL as a clear error', async () => {
    const hub = new McpHub(new ToolRegistry());
    const [status] = await hub.connectAll([
      { name: 'nowhere', transport: 'http', url: `http://127.0.0.1:1/mcp`, connectTimeoutMs: 2000 },
    ]);
    assert.equal(status!.state, 'failed');
    assert.match(status!.error!.message, /MCP server "nowhere" \(http:\/\/127\.0\.0\.1:1\/mcp\) failed to connect: /);
    const [bad] = await hub.connectAll([{ name: 'badurl', transport: 'http', url: 'ftp://example.com' }]);
    assert.match(bad!.error!.message, /misconfigured/);
    await hub.close();
  });
});
