import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReActAgent } from '../../../src/core/builtinAgents/reactAgent';
import { ControlProtocol } from '../../../src/core/control/controlProtocol';
import { InMemoryTransport } from '../../../src/core/control/inMemoryTransport';
import type { ApprovalRequestMessage } from '../../../src/core/control/messages';
import { createOpenAIClient } from '../../../src/core/llm';
import { setLogSink } from '../../../src/core/logging/logger';
import { McpHub } from '../../../src/core/mcp/mcpHub';
import { createBuiltinTools } from '../../../src/core/tools/builtin';
import { ToolExecutor } from '../../../src/core/tools/executor';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolAuditRecord } from '../../../src/core/tools/toolAudit';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

const EVERYTHING = join(
  __dirname,
  '..',
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

/**
 * A ReAct run end to end: the loopback OpenAI server issues tool_calls, the agent runs them through
 * the real ToolExecutor (real built-in tools on a temp workspace, a real MCP server, approvals over
 * the control protocol), feeds the results back and finishes.
 */
describe('ReActAgent with the tool executor, approvals and MCP (loopback OpenAI server)', function () {
  this.timeout(30_000);
  let server: OpenAITestServer;
  let workspace: string;
  let hub: McpHub;
  let restoreSink: ReturnType<typeof setLogSink>;

  before(async () => {
    restoreSink = setLogSink(() => undefined);
    server = await startOpenAIServer();
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'react-tools-')));
    writeFileSync(join(workspace, 'notes.txt'), 'the answer is 42\n');
  });
  after(async () => {
    await hub?.close();
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
    setLogSink(restoreSink);
  });

  it('runs good, hallucinated, malformed, invalid, denied and MCP tool calls, keeps going, and finishes', async () => {
    const registry = new ToolRegistry().register(...createBuiltinTools());
    hub = new McpHub(registry, { closeGraceMs: 200 });
    const [mcp] = await hub.connectAll([
      { name: 'everything', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
    ]);
    assert.equal(mcp!.state, 'connected', mcp!.error?.message);

    // The person: approves writes to answer.txt and MCP calls, denies anything touching secret.txt.
    const transport = new InMemoryTransport();
    const requests: ApprovalRequestMessage[] = [];
    transport.onAgentMessage((m) => {
      if (m.type !== 'approval_request') return;
      requests.push(m);
      const path = (m.params as { path?: string }).path;
      if (path === 'secret.txt') transport.deny(m.id, 'leave that file alone', 'panel');
      else transport.approve(m.id, 'panel');
    });
    const audit: ToolAuditRecord[] = [];
    const executor = new ToolExecutor({
      registry,
      workspaceRoot: workspace,
      control: new ControlProtocol(transport),
      audit: (r) => void audit.push(r),
    });

    server.enqueue(
      {
        text: 'Let me look around.',
        toolCalls: [
          { id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } },
          { id: 'c2', name: 'delete_everything', arguments: {} },
        ],
      },
      {
        toolCalls: [
          { id: 'c3', name: 'write_file', arguments: '{"path": "answer.txt", "content": ' },
          { id: 'c4', name: 'read_file', arguments: { file: 'notes.txt' } },
        ],
      },
      {
        toolCalls: [
          { id: 'c5', name: 'write_file', arguments: { path: 'answer.txt', content: '42\n' } },
          { id: 'c6', name: 'write_file', arguments: { path: 'secret.txt', content: 'pwned' } },
          { id: 'c7', name: 'everything__echo', arguments: { message: 'done' } },
        ],
      },
      { text: 'The answer (42) is in answer.txt.' },
    );

    const llm = createOpenAIClient({
      baseURL: server.baseURL,
      apiKey: 'sk-loopback-test-key-000',
      maxRetries: 0,
      timeoutMs: 5000,
    });
    const agent = new ReActAgent({ llm, toolbox: executor, config: { model: 'loopback-model' } });
    const result = await agent.execute({ task: 'Find the answer in notes.txt and write it to answer.txt.' });

    assert.equal(result.final_answer, 'The answer (42) is in answer.txt.');
    assert.equal(result.metadata.terminationReason, 'finish');
    const history = result.action_history as Array<{ action: string; observation: string }>;
    assert.deepEqual(
      history.map((h) => h.action),
      ['read_file', 'delete_everything', 'write_file', 'read_file', 'write_file', 'write_file', 'everything__echo'],
    );
    const [read, unknown, malformed, invalid, written, denied, echoed] = history.map((h) => h.observation);
    assert.equal(read, 'the answer is 42\n');
    assert.match(
      unknown!,
      /Unknown tool "delete_everything"\. Nothing was executed or changed\. Available tools: read_file, write_file/,
    );
    assert.match(malformed!, /The arguments for write_file are not valid JSON/);
    assert.match(invalid!, /Invalid arguments for read_file:\n {2}- path: Invalid input: expected string, received undefined/);
    assert.match(written!, /answer\.txt/);
    assert.match(
      denied!,
      /Nothing was executed or changed\. write_file was not approved: denied by panel: leave that file alone/,
    );
    assert.equal(echoed, 'Echo: done');

    // The real effects: one file written, the denied one never created.
    assert.equal(readFileSync(join(workspace, 'answer.txt'), 'utf8'), '42\n');
    assert.equal(existsSync(join(workspace, 'secret.txt')), false);

    // Only valid calls of tools needing approval were asked, with a diff preview for the write.
    assert.deepEqual(
      requests.map((r) => `${r.tool}:${r.dangerLevel}`),
      ['write_file:MEDIUM', 'write_file:MEDIUM', 'everything__echo:MEDIUM'],
    );
    const preview = requests[0]!.preview;
    assert.ok(preview?.kind === 'diff', JSON.stringify(preview));
    assert.match(preview.diff, /\+42/);

    // The model saw every result as a tool message and the specs of the built-in and MCP tools.
    const chats = server.chatRequests();
    const toolNames = (chats[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.ok(toolNames.includes('read_file') && toolNames.includes('everything__echo'));
    const lastMessages = chats.at(-1)!.body.messages as Array<{ role: string; tool_call_id?: string; content: string }>;
    const toolMessages = lastMessages.filter((m) => m.role === 'tool');
    assert.deepEqual(
      toolMessages.map((m) => m.tool_call_id),
      ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'],
    );

    // The audit trail has one record per call, with who approved.
    assert.deepEqual(
      audit.map((r) => `${r.tool}:${r.approval}:${r.approvedBy ?? '-'}:${r.ok}`),
      [
        'read_file:auto:policy:true',
        'delete_everything:denied:-:false',
        'write_file:denied:-:false',
        'read_file:denied:-:false',
        'write_file:approved:panel:true',
        'write_file:denied:panel:false',
        'everything__echo:approved:panel:true',
      ],
    );
    assert.ok(audit.every((r) => r.requestedBy === agent.id));
  });
});
