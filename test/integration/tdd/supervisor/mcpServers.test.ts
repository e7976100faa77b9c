import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AgentFactory } from '../../../../src/core/agentsAsData';
import { setLogSink, type LogRecord } from '../../../../src/core/logging/logger';
import type { McpServerConfig } from '../../../../src/core/mcp/config';
import type { McpServerStatus } from '../../../../src/core/mcp/mcpHub';
import type { SupervisorEvent } from '../../../../src/core/tdd/events';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import type { RecordedRequest, ScriptedReply } from '../../../support/openaiServer';
import { scriptedKataModel } from '../../../support/scriptedKataModel';
import { runWithReply, SessionHarness, turnOfRequest } from './sessionHarness';

/**
 * MCP servers in kata sessions: the real `@modelcontextprotocol/server-filesystem` from npm over stdio,
 * role configs from a person's agents folder, the loopback model playing the roles.
 */
const ROOT = resolve(__dirname, '..', '..', '..', '..');
const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
/** The tools the shipped role configs list: the five workspace tools and ask_person. */
const WORKSPACE_TOOLS = ['list_files', 'read_file', 'write_file', 'edit_file', 'run_tests', 'ask_person'];
const ROLES = ['tester', 'implementer', 'refactorer'] as const;

/** Process ids whose command line mentions `marker` (a unique temp path an MCP child was given). */
function processesMentioning(marker: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(marker) && line.includes('server-filesystem'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** Tool names offered in one chat request. */
function offered(req: RecordedRequest): string[] {
  return ((req.body?.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
}

/** Copies the shipped role configs into `dir`, adding `extraTools` to the tester's list. */
async function agentsFolder(dir: string, extraTools: string[]): Promise<void> {
  for (const role of ROLES) {
    const config = JSON.parse(await readFile(join(ROOT, 'config', 'agents', role, 'v1.json'), 'utf8'));
    if (role === 'tester') config.tools = [...config.tools, ...extraTools];
    await mkdir(join(dir, role), { recursive: true });
    await writeFile(join(dir, role, 'v1.json'), JSON.stringify(config, null, 2));
  }
}

const MCP_CALL_ID = 'call_mcp_notes';

/**
 * The scripted model, except that the Tester's first turn starts with one MCP call; the call and its
 * result are hidden from the script afterwards so its own steps stay in order.
 */
function withMcpCall(reply: (req: RecordedRequest) => ScriptedReply, call: { name: string; arguments: Record<string, unknown> }) {
  return (req: RecordedRequest): ScriptedReply => {
    const turn = turnOfRequest(req);
    if (turn.role !== 'tester' || turn.cycle !== 1 || turn.attempt !== 1) return reply(req);
    if (turn.step === 0) return { toolCalls: [{ id: MCP_CALL_ID, ...call }] };
    const messages = (
      req.body.messages as Array<{ role: string; tool_call_id?: string; tool_calls?: Array<{ id: string }> }>
    ).filter(
      (m) => !(m.role === 'assistant' && m.tool_calls?.some((c) => c.id === MCP_CALL_ID)) && m.tool_call_id !== MCP_CALL_ID,
    );
    return reply({ ...req, body: { ...req.body, messages } });
  };
}

describe('kata sessions with MCP servers (real server-filesystem, loopback model)', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  let scratch: string;
  let docs: string;
  let logs: LogRecord[];
  let restoreSink: ReturnType<typeof setLogSink>;

  beforeEach(async () => {
    await h.setUp();
    scratch = await realpath(await mkdtemp(join(tmpdir(), 'tdd-mcp-')));
    docs = join(scratch, 'docs');
    await mkdir(docs);
    await writeFile(join(docs, 'notes.md'), 'FizzBuzz notes: start with the number itself.\n');
    logs = [];
    restoreSink = setLogSink((r) => logs.push(r));
    AgentFactory.clearCache();
  });

  afterEach(async () => {
    setLogSink(restoreSink);
    await h.cleanup();
    await rm(scratch, { recursive: true, force: true });
  });

  const filesServer = (): McpServerConfig => ({
    name: 'files',
    transport: 'stdio',
    command: process.execPath,
    args: [FILESYSTEM, docs],
    dangerLevel: 'LOW',
  });

  it('offers a role the files__* tools its config matches, and its call goes through the executor', async () => {
    const agentsDir = join(scratch, 'agents');
    await agentsFolder(agentsDir, ['files__*']);
    const { reply } = scriptedKataModel({ cycles: fizzbuzzJs(1) });
    let childrenDuringSession: number[] = [];
    let statuses: McpServerStatus[] = [];
    const { summary, events } = await runWithReply(
      h,
      withMcpCall(reply, { name: 'files__read_text_file', arguments: { path: join(docs, 'notes.md') } }),
      {
        mcpServers: [filesServer()],
        agentsDir,
        onMcpServers: (s) => {
          statuses = s;
          childrenDuringSession = processesMentioning(docs);
        },
      },
    );

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      statuses.map((s) => [s.name, s.state]),
      [['files', 'connected']],
    );
    assert.ok(childrenDuringSession.length > 0, 'the MCP server ran during the session');

    const requests = h.server.chatRequests();
    const testerTools = offered(requests.find((r) => turnOfRequest(r).role === 'tester')!);
    assert.deepEqual(testerTools.slice(0, WORKSPACE_TOOLS.length), WORKSPACE_TOOLS);
    assert.ok(
      testerTools.includes('files__read_text_file') && testerTools.includes('files__list_directory'),
      testerTools.join(', '),
    );
    assert.ok(
      testerTools.every((name) => WORKSPACE_TOOLS.includes(name) || name.startsWith('files__')),
      testerTools.join(', '),
    );
    for (const role of ['implementer', 'refactorer']) {
      for (const req of requests.filter((r) => turnOfRequest(r).role === role))
        assert.deepEqual(offered(req), WORKSPACE_TOOLS, `${role} sees only its six tools`);
    }

    const call = events.find(
      (e): e is Extract<SupervisorEvent, { type: 'tool_called' }> =>
        e.type === 'tool_called' && e.tool === 'files__read_text_file',
    );
    assert.ok(call, 'the MCP call was reported as a tool call');
    assert.equal(call.role, 'tester');
    assert.equal(call.ok, true, call.summary);
    assert.equal(call.approval, 'auto', "LOW is within the session's auto-approval");
    const next = requests.find((r) =>
      (r.body.messages as Array<{ tool_call_id?: string }>).some((m) => m.tool_call_id === MCP_CALL_ID),
    )!;
    const toolMessage = next.body.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === MCP_CALL_ID);
    assert.match(String(toolMessage.content), /FizzBuzz notes: start with the number itself\./);

    assert.deepEqual(processesMentioning(docs), [], 'no MCP child process is left after the session');
  });

  it('the shipped role configs get exactly the five workspace tools and ask_person; a server that fails is a warning and the session completes', async () => {
    const broken: McpServerConfig = {
      name: 'broken',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'console.error("fatal: no config file"); process.exit(1)'],
    };
    const { reply } = scriptedKataModel({ cycles: fizzbuzzJs(1) });
    let statuses: McpServerStatus[] = [];
    const { summary } = await runWithReply(h, reply, {
      mcpServers: [filesServer(), broken],
      onMcpServers: (s) => (statuses = s),
    });

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      statuses.map((s) => [s.name, s.state]),
      [
        ['files', 'connected'],
        ['broken', 'failed'],
      ],
    );
    const requests = h.server.chatRequests();
    assert.ok(requests.length >= 3);
    for (const req of requests) assert.deepEqual(offered(req), WORKSPACE_TOOLS);

    const warnings = logs.filter((r) => r.level === 'warn' && r.message.includes('"broken"'));
    assert.equal(warnings.length, 1, logs.map((r) => `${r.level} ${r.message}`).join('\n'));
    assert.match(
      warnings[0]!.message,
      /^MCP server "broken" is not available; the session goes on without its tools\. .*fatal: no config file/s,
    );
    assert.deepEqual(processesMentioning(docs), []);
  });

  it('stops the MCP servers when the session is cancelled', async () => {
    const { reply } = scriptedKataModel({ cycles: fizzbuzzJs(2) });
    const abort = new AbortController();
    let alive: number[] = [];
    const cancelling = (req: RecordedRequest): ScriptedReply => {
      if (turnOfRequest(req).role === 'implementer') {
        alive = processesMentioning(docs);
        abort.abort();
      }
      return reply(req);
    };
    const { summary } = await runWithReply(h, cancelling, { mcpServers: [filesServer()], signal: abort.signal });
    assert.equal(summary.status, 'cancelled');
    assert.ok(alive.length > 0, 'the server ran until the cancel');
    assert.deepEqual(processesMentioning(docs), []);
  });

  it('an agents folder without the role configs is a CONFIG error before anything changes', async () => {
    const empty = join(scratch, 'no-agents');
    await mkdir(empty);
    await assert.rejects(
      runWithReply(h, () => ({ text: 'unused' }), { agentsDir: empty, mcpServers: [filesServer()] }),
      (error: { error_code?: string; message?: string }) => {
        assert.equal(error.error_code, 'CONFIG');
        assert.match(error.message!, /No agent config tester\/v1 \(expected .*no-agents\/tester\/v1\.json\)/);
        return true;
      },
    );
    assert.equal(h.server.chatRequests().length, 0);
    assert.deepEqual(processesMentioning(docs), [], 'no server was started');
  });
});
