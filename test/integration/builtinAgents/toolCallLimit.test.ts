import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import type { ExecutionStrategy } from '../../../src/core/agentRuntime/strategies/types';
import { MultiCycleStrategy } from '../../../src/core/agentRuntime/strategies/multiCycle';
import { ReActAgent } from '../../../src/core/builtinAgents/reactAgent';
import { createBuiltinTools } from '../../../src/core/tools/builtin';
import { useWorkspaceLoopback } from './workspaceLoopback';

/** `count` write_file calls, one file each: f000.txt, f001.txt, ... */
function writeCalls(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const name = `f${String(i).padStart(3, '0')}.txt`;
    return { id: `call_${i}`, name: 'write_file', arguments: { path: name, content: `file ${i}\n` } };
  });
}

/** The tool messages of a recorded chat request. */
function toolMessages(body: { messages: Array<{ role: string; tool_call_id?: string; content?: string }> }) {
  return body.messages.filter((m) => m.role === 'tool');
}

describe('ReActAgent: a cap on the tool calls executed per model message (loopback server, real write_file)', function () {
  this.timeout(60_000);
  const lb = useWorkspaceLoopback('tool-call-cap');

  const executor = () => lb.executor(createBuiltinTools());
  const llm = () => lb.llm();

  it('runs the first 32 of 200 write_file calls; every call gets a tool message, 168 say they were not executed', async () => {
    lb.server.enqueue({ toolCalls: writeCalls(200) }, { text: 'Done.' });
    const agent = new ReActAgent({ llm: llm(), toolbox: executor(), config: { model: 'm' } });
    const result = await agent.execute({ task: 'write the files' });

    assert.equal(result.final_answer, 'Done.');
    const written = readdirSync(lb.workspace).sort();
    assert.equal(written.length, 32);
    assert.deepEqual(
      written,
      writeCalls(32).map((c) => c.arguments.path),
    );

    const second = lb.server.chatRequests()[1]!.body;
    const tools = toolMessages(second);
    assert.equal(tools.length, 200, 'every tool_call id is answered');
    assert.deepEqual(
      tools.map((m) => m.tool_call_id),
      writeCalls(200).map((c) => c.id),
    );
    const refused = tools.filter((m) => /not executed/i.test(String(m.content)));
    assert.equal(refused.length, 168);
    assert.deepEqual(
      refused.map((m) => m.tool_call_id),
      writeCalls(200)
        .slice(32)
        .map((c) => c.id),
    );
    for (const m of refused) {
      assert.match(String(m.content), /one message may make at most 32 tool calls/);
      assert.match(String(m.content), /Nothing was changed/);
      assert.match(String(m.content), /later message/);
    }
    const assistant = second.messages.find(
      (m: { role: string; tool_calls?: unknown[] }) => m.role === 'assistant' && m.tool_calls,
    );
    assert.equal(assistant.tool_calls.length, 200);
  });

  it('takes its cap from the multi-cycle strategy', async () => {
    class ThreeCallsAgent extends ReActAgent {
      protected override createExecutionStrategy(): ExecutionStrategy {
        return new MultiCycleStrategy({ maxCycles: 5, maxToolCallsPerMessage: 3 });
      }
    }
    lb.server.enqueue({ toolCalls: writeCalls(5) }, { text: 'Done.' });
    const agent = new ThreeCallsAgent({ llm: llm(), toolbox: executor(), config: { model: 'm' } });
    await agent.execute({ task: 'write the files' });
    assert.deepEqual(readdirSync(lb.workspace).sort(), ['f000.txt', 'f001.txt', 'f002.txt']);
    const refused = toolMessages(lb.server.chatRequests()[1]!.body).filter((m) => /not executed/i.test(String(m.content)));
    assert.equal(refused.length, 2);
    assert.match(String(refused[0]!.content), /at most 3 tool calls/);
  });

  it('refuses a cap that is not a whole number of at least 1', () => {
    for (const bad of [0, -1, 2.5]) {
      assert.throws(
        () => new MultiCycleStrategy({ maxCycles: 5, maxToolCallsPerMessage: bad }),
        (e: any) => e.error_code === 'CONFIG' && /maxToolCallsPerMessage/.test(e.message),
      );
    }
  });
});
