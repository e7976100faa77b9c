import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '../../../src/core/agentRuntime/events';
import { FROM_TEXT_NOTE } from '../../../src/core/agentRuntime/strategies/toolLoop';
import { ReActAgent } from '../../../src/core/builtinAgents/reactAgent';
import { createOpenAIClient } from '../../../src/core/llm';
import { setLogSink } from '../../../src/core/logging/logger';
import { ApprovalPolicy } from '../../../src/core/tools/approvalPolicy';
import { createWorkspaceTools } from '../../../src/core/tools/builtin';
import { ToolExecutor } from '../../../src/core/tools/executor';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

type Message = {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
};

// A model without a tool parser writes its calls as text: they run, the model is told in one line that its call was
// read from its text, and the run counts them.
describe('ReActAgent: tool calls written in the text (loopback server, real workspace tools)', function () {
  this.timeout(60_000);
  let server: OpenAITestServer;
  let workspace: string;
  let restoreSink: ReturnType<typeof setLogSink>;

  beforeEach(async () => {
    restoreSink = setLogSink(() => undefined);
    server = await startOpenAIServer();
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'text-calls-')));
  });
  afterEach(async () => {
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
    setLogSink(restoreSink);
  });

  const agent = () =>
    new ReActAgent({
      llm: createOpenAIClient({ baseURL: server.baseURL, maxRetries: 0 }),
      toolbox: new ToolExecutor({
        registry: new ToolRegistry().register(...createWorkspaceTools()),
        workspaceRoot: workspace,
        policy: new ApprovalPolicy({ levels: { MEDIUM: 'allow' } }),
      }),
      config: { model: 'm' },
    });

  for (const streamText of [false, true]) {
    it(`runs a <tool_call> written in the text and says so in its tool message (${streamText ? 'streamed' : 'not streamed'})`, async () => {
      server.enqueue(
        {
          text:
            'Writing two files.\n<tool_call>\n{"name": "write_file", "arguments": {"path": "a.txt", "content": "a\\n"}}\n</tool_call>\n' +
            '<tool_call>\n{"name": "Write-File", "arguments": "{\\"path\\": \\"b.txt\\", \\"content\\": \\"b\\\\n\\"}"}\n</tool_call>',
        },
        { text: 'Done.' },
      );
      const events: AgentEvent[] = [];
      const result = await agent().execute({ task: 'write two files' }, { streamText, onEvent: (e) => events.push(e) });

      assert.equal(result.error, undefined);
      assert.equal(result.final_answer, 'Done.');
      assert.equal(readFileSync(join(workspace, 'a.txt'), 'utf8'), 'a\n');
      assert.equal(readFileSync(join(workspace, 'b.txt'), 'utf8'), 'b\n');
      assert.equal(result.metadata.toolCallsFromText, 2);
      const calls = events.filter((e) => e.type === 'model_called');
      assert.deepEqual(
        calls.map((e) => e.type === 'model_called' && [e.toolCalls, e.toolCallsFromText, e.text]),
        [
          [2, 2, 'Writing two files.'],
          [0, undefined, 'Done.'],
        ],
      );

      // The next request: the calls as real tool calls, each tool message opening with the one-line note.
      const messages = (server.chatRequests()[1]!.body as { messages: Message[] }).messages;
      const assistant = messages.find((m) => m.role === 'assistant')!;
      assert.equal(assistant.content, 'Writing two files.');
      assert.deepEqual(
        assistant.tool_calls!.map((c) => c.function.name),
        ['write_file', 'write_file'],
      );
      const tools = messages.filter((m) => m.role === 'tool');
      assert.deepEqual(
        tools.map((m) => m.tool_call_id),
        assistant.tool_calls!.map((c) => c.id),
      );
      for (const tool of tools) {
        const [first, ...rest] = String(tool.content).split('\n');
        assert.equal(first, FROM_TEXT_NOTE);
        assert.ok(rest.join('\n').length > 0, 'the tool result follows the note');
      }
    });
  }

  it('a real tool call gets no note', async () => {
    server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'a\n' } }] }, { text: 'Done.' });
    const result = await agent().execute({ task: 'write a file' });
    assert.equal(result.metadata.toolCallsFromText, undefined);
    const messages = (server.chatRequests()[1]!.body as { messages: Message[] }).messages;
    const tool = messages.find((m) => m.role === 'tool')!;
    assert.ok(!String(tool.content).includes(FROM_TEXT_NOTE));
  });
});
