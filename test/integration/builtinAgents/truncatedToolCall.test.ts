import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RecordedMessage, useWorkspaceLoopback } from './workspaceLoopback';

// A model that runs out of output tokens half-way through a tool call (finish_reason "length"): the cut-off
// call never runs, and the next request says so and how to make the change fit.
describe('ReActAgent: a tool call cut off at the output limit (loopback server, real workspace tools)', function () {
  this.timeout(60_000);
  const lb = useWorkspaceLoopback('truncated-call');

  const agent = () => lb.agent();

  for (const streamText of [false, true]) {
    it(`does not run the cut-off write_file; the complete call before it runs; the next request says why (${streamText ? 'streamed' : 'not streamed'})`, async () => {
      const cutOff = '{"path":"test/big.test.js","content":"import { test } from \'node:test\';\\ntest(\'one\', () => {';
      lb.server.enqueue(
        {
          toolCalls: [
            { id: 'call_ok', name: 'write_file', arguments: { path: 'notes.txt', content: 'complete\n' } },
            { id: 'call_cut', name: 'write_file', arguments: cutOff },
          ],
          finishReason: 'length',
        },
        { text: 'Done.' },
      );
      const result = await agent().execute({ task: 'add a test' }, { streamText });

      assert.equal(result.final_answer, 'Done.');
      assert.equal(readFileSync(join(lb.workspace, 'notes.txt'), 'utf8'), 'complete\n', 'the complete call ran');
      assert.equal(existsSync(join(lb.workspace, 'test', 'big.test.js')), false, 'the cut-off call did not run');

      const messages = (lb.server.chatRequests()[1]!.body as { messages: RecordedMessage[] }).messages;
      const tools = messages.filter((m) => m.role === 'tool');
      assert.deepEqual(
        tools.map((m) => m.tool_call_id),
        ['call_ok', 'call_cut'],
      );
      const notice = String(tools[1]!.content);
      assert.match(notice, /^Not executed: your message reached the output token limit while writing this write_file call/);
      assert.match(notice, /Nothing was changed by this call\./);
      assert.match(notice, /use edit_file with only the lines that change/);
      const assistant = messages.find((m) => m.role === 'assistant' && m.tool_calls)!;
      assert.deepEqual(
        assistant.tool_calls!.map((c) => c.function.arguments),
        [JSON.stringify({ path: 'notes.txt', content: 'complete\n' }), '{}'],
        'the cut-off arguments are not sent back',
      );
    });
  }

  it('a complete call answered with finish_reason "tool_calls" still runs', async () => {
    lb.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'a\n' } }] }, { text: 'Done.' });
    await agent().execute({ task: 'write a' });
    assert.equal(readFileSync(join(lb.workspace, 'a.txt'), 'utf8'), 'a\n');
  });
});
