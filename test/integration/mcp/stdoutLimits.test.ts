import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { setLogSink } from '../../../src/core/logging/logger';
import { McpServerError } from '../../../src/core/mcp/errors';
import { McpServerConnection } from '../../../src/core/mcp/mcpServerConnection';

/**
 * Child processes that are not MCP servers and flood stdout: one with endless bytes and no newline, one
 * with a single 10 MB line, one with endless short log lines. Each ignores SIGTERM and stdin EOF, so only
 * a kill ends it. The connect timeout is far longer than the test's, so only the stdout bounds can end
 * these connects in time.
 */
const fixtures = join(__dirname, 'fixtures');
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

async function connectFailure(connection: McpServerConnection): Promise<McpServerError> {
  try {
    await connection.connect();
  } catch (error) {
    assert.ok(error instanceof McpServerError, `expected McpServerError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected connect() to fail');
}

describe('MCP stdio: bounded stdout from a misbehaving child process', function () {
  this.timeout(20_000);
  let restoreSink: ReturnType<typeof setLogSink>;
  const connections: McpServerConnection[] = [];

  before(() => {
    restoreSink = setLogSink(() => undefined);
  });
  after(async () => {
    for (const c of connections) await c.close();
    setLogSink(restoreSink);
  });

  const connection = (name: string, script: string): McpServerConnection => {
    const c = new McpServerConnection(
      { name, transport: 'stdio', command: node, args: [join(fixtures, script)], connectTimeoutMs: 120_000 },
      { closeGraceMs: 100 },
    );
    connections.push(c);
    return c;
  };

  it('endless stdout without a newline: connect fails with an over-long-line error and the child is killed', async () => {
    const c = connection('garbage', 'garbageStdout.js');
    const error = await connectFailure(c);
    assert.equal(error.error_code, 'CONNECTION');
    assert.equal(error.server, 'garbage');
    assert.match(error.message, /MCP server "garbage" wrote a line of more than 4 MB to stdout/);
    assert.match(error.message, /one JSON-RPC message per line/);
    assert.equal(error.details.limitBytes, 4 * 1024 * 1024);
    assert.equal(c.state, 'failed');
    assert.ok(c.pid !== undefined, 'the child was started');
    assert.equal(isAlive(c.pid), false, 'the child is gone');
  });

  it('one 10 MB JSON-RPC line: connect fails with the same clear error and the child is killed', async () => {
    const c = connection('longline', 'longLine.js');
    const error = await connectFailure(c);
    assert.match(error.message, /MCP server "longline" wrote a line of more than 4 MB to stdout/);
    assert.equal(isAlive(c.pid), false);
  });

  it('endless short non-JSON lines on stdout: connect fails with a non-protocol-output error and the child is killed', async () => {
    const c = connection('chatty', 'chattyStdout.js');
    const error = await connectFailure(c);
    assert.equal(error.error_code, 'CONNECTION');
    assert.match(error.message, /MCP server "chatty" wrote more than 1 MB to stdout that is not MCP/);
    assert.match(error.message, /stderr/);
    assert.equal(isAlive(c.pid), false);
  });
});
