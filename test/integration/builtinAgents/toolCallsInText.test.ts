import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '../../../src/core/agentRuntime/events';
import { FROM_TEXT_NOTE } from '../../../src/core/agentRuntime/strategies/toolLoop';
import { type RecordedMessage, useWorkspaceLoopback } from './workspaceLoopback';

// A model without a tool parser writes its calls as text: they run, the model is told in one line that its call was
// read from its text, and the run counts them.
describe('ReActAgent: tool calls written in the text (loopback server, real workspace tools)', function () {
  this.timeout(60_000);
  const lb = useWorkspaceLoopback('text-calls');

  const agent = () => lb.agent();

  for (const streamText of [false, true]) {
    it(`runs a <tool_call> written in the text and says so in its tool message (${streamText ? 'streamed' : 'not streamed'})`, async () => {
      lb.server.enqueue(
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
      assert.equal(readFileSync(join(lb.workspace, 'a.txt'), 'utf8'), 'a\n');
      assert.equal(readFileSync(join(lb.workspace, 'b.txt'), 'utf8'), 'b\n');
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
      const messages = (lb.server.chatRequests()[1]!.body as { messages: RecordedMessage[] }).messages;
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
    lb.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'a\n' } }] }, { text: 'Done.' });
    const result = await agent().execute({ task: 'write a file' });
    assert.equal(result.metadata.toolCallsFromText, undefined);
    const messages = (lb.server.chatRequests()[1]!.body as { messages: RecordedMessage[] }).messages;
    const tool = messages.find((m) => m.role === 'tool')!;
    assert.ok(!String(tool.content).includes(FROM_TEXT_NOTE));
  });
});
