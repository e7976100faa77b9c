import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agentRuntime/events';
import { HookRejectedError } from '../../../src/core/agentRuntime/errors';
import { HookAction } from '../../../src/core/agentRuntime/lifecycle';
import { AgentError } from '../../../src/core/errors/agentError';
import { ReActAgent } from '../../../src/core/builtinAgents/reactAgent';
import type { LlmToolCall } from '../../../src/core/llm/types';
import type { AgentToolbox, ToolCallResult, ToolCallWrapper } from '../../../src/core/tools/types';
import type { RecordedRequest } from '../../support/openaiServer';
import { systemText, useLoopback } from '../agentRuntime/loopback';

/** A tiny real toolbox (an implementation of the interface, not a mock): `add` and `shout`. */
function makeToolbox(log: string[] = []): AgentToolbox & { calls: Array<{ call: LlmToolCall; requestedBy?: string }> } {
  const calls: Array<{ call: LlmToolCall; requestedBy?: string }> = [];
  const fail = (call: LlmToolCall, content: string): ToolCallResult => ({
    toolName: call.name,
    callId: call.id,
    ok: false,
    content,
    approval: 'auto',
    durationMs: 0,
  });
  return {
    calls,
    toolSpecs: () => [
      {
        type: 'function',
        function: {
          name: 'add',
          description: 'Adds a and b',
          parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        },
      },
      {
        type: 'function',
        function: {
          name: 'shout',
          description: 'Upper-cases text',
          parameters: { type: 'object', properties: { text: { type: 'string' } } },
        },
      },
    ],
    async executeCall(call, options: { signal?: AbortSignal; wrap?: ToolCallWrapper; requestedBy?: string } = {}) {
      calls.push({ call, requestedBy: options.requestedBy });
      let params: any;
      try {
        params = JSON.parse(call.arguments);
      } catch {
        return fail(call, `Arguments of ${call.name} are not valid JSON; nothing was executed.`);
      }
      const run = async (): Promise<ToolCallResult> => {
        log.push(`run:${call.name}`);
        if (call.name === 'add')
          return {
            toolName: 'add',
            callId: call.id,
            ok: true,
            content: String(params.a + params.b),
            approval: 'auto',
            durationMs: 1,
          };
        if (call.name === 'shout')
          return {
            toolName: 'shout',
            callId: call.id,
            ok: true,
            content: String(params.text).toUpperCase(),
            approval: 'auto',
            durationMs: 1,
          };
        return fail(call, `Unknown tool ${call.name}; nothing was executed.`);
      };
      return options.wrap ? options.wrap(call.name, run, params) : run();
    },
  };
}

describe('ReActAgent against the loopback server', () => {
  const lb = useLoopback();
  beforeEach(() => lb.server.setFallback(undefined));

  it('acts through tool calls, feeds results back, and finishes with the answer', async () => {
    const toolbox = makeToolbox();
    const events: AgentEvent[] = [];
    const agent = new ReActAgent({ llm: lb.llm, toolbox, config: { model: 'm' }, onEvent: (e) => events.push(e) });
    lb.server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }], text: 'I will add.' },
      {
        toolCalls: [
          { id: 'c2', name: 'shout', arguments: { text: 'five' } },
          { id: 'c3', name: 'add', arguments: { a: 1, b: 1 } },
        ],
      },
      { text: 'The answer is FIVE.' },
    );
    const before = lb.server.chatRequests().length;
    const result = await agent.execute({ task: 'add 2 and 3, shout it', context: 'math' });
    assert.equal(result.final_answer, 'The answer is FIVE.');
    assert.equal(result.metadata.terminationReason, 'finish');
    assert.equal(result.metadata.strategy, 'multi_cycle');
    assert.equal(result.metadata.cycles, 3);
    const history = result.action_history as any[];
    assert.deepEqual(
      history.map((h) => [h.cycle, h.action, h.observation]),
      [
        [1, 'add', '5'],
        [2, 'shout', 'FIVE'],
        [2, 'add', '2'],
      ],
    );
    assert.deepEqual(history[0].action_input, { a: 2, b: 3 });
    assert.equal(history[0].thought, 'I will add.');
    assert.ok(!Number.isNaN(Date.parse(history[0].timestamp)));
    assert.deepEqual(result.observations, ['5', 'FIVE', '2']);
    assert.equal(toolbox.calls[0]!.requestedBy, agent.id);

    const requests = lb.server.chatRequests().slice(before);
    assert.equal(requests.length, 3);
    assert.match(systemText(requests[0]!.body), /^agent: react\/v1\n/);
    assert.deepEqual(
      requests[0]!.body.tools.map((t: any) => t.function.name),
      ['add', 'shout'],
    );
    const third = requests[2]!.body.messages;
    const toolMsgs = third.filter((m: any) => m.role === 'tool');
    assert.deepEqual(
      toolMsgs.map((m: any) => [m.tool_call_id, m.content]),
      [
        ['c1', '5'],
        ['c2', 'FIVE'],
        ['c3', '2'],
      ],
    );
    assert.equal(third.filter((m: any) => m.role === 'assistant' && m.tool_calls).length, 2);

    const types = events.map((e) => e.type);
    assert.deepEqual(types.slice(0, 5), ['run_started', 'cycle_started', 'model_called', 'tool_started', 'tool_called']);
    assert.equal(types.at(-1), 'finished');
    const toolCalled = events.find((e) => e.type === 'tool_called') as Extract<AgentEvent, { type: 'tool_called' }>;
    assert.deepEqual(toolCalled.params, { a: 2, b: 3 });
    assert.equal(toolCalled.result.content, '5');
    assert.equal(toolCalled.cycle, 1);
  });

  it('without a toolbox it sends no tools and finishes by answering; a hallucinated call gets a tool error and the run goes on', async () => {
    const agent = new ReActAgent({ llm: lb.llm, config: { model: 'm' } });
    lb.server.enqueue({ toolCalls: [{ id: 'x1', name: 'read_file', arguments: '{"path":' }] }, { text: 'done without tools' });
    const before = lb.server.chatRequests().length;
    const result = await agent.execute({ task: 'do it' });
    assert.equal(result.final_answer, 'done without tools');
    const [first, second] = lb.server.chatRequests().slice(before);
    assert.equal(first!.body.tools, undefined);
    const tool = second!.body.messages.find((m: any) => m.role === 'tool');
    assert.match(tool.content, /No tools are available.*nothing was executed/);
    assert.equal((result.action_history as any[])[0].action_input, '{"path":', 'malformed arguments are kept as raw text');
  });

  it('malformed JSON arguments and unknown tools come back as tool errors and the run continues', async () => {
    const agent = new ReActAgent({ llm: lb.llm, toolbox: makeToolbox(), config: { model: 'm' } });
    lb.server.enqueue(
      {
        toolCalls: [
          { id: 'a', name: 'add', arguments: '{bad json' },
          { id: 'b', name: 'nope', arguments: {} },
        ],
      },
      { text: 'recovered' },
    );
    const result = await agent.execute({ task: 't' });
    assert.equal(result.final_answer, 'recovered');
    assert.deepEqual(result.observations, [
      'Arguments of add are not valid JSON; nothing was executed.',
      'Unknown tool nope; nothing was executed.',
    ]);
  });

  it('ends with max_cycles and keeps the partial history', async () => {
    const agent = new ReActAgent({ llm: lb.llm, toolbox: makeToolbox(), config: { model: 'm', maxCycles: 3 } });
    lb.server.setFallback({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] });
    const result = await agent.execute({ task: 'loop forever' });
    assert.equal(result.metadata.terminationReason, 'max_cycles');
    assert.equal(result.metadata.cycles, 3);
    assert.equal((result.action_history as unknown[]).length, 3);
    assert.equal(result.final_answer, '');
    assert.equal(result.incomplete, true);
    assert.equal(result.error, undefined);
  });

  it('an afterModel reject ends the run with hook_rejected and the error naming the hook', async () => {
    const agent = new ReActAgent({
      llm: lb.llm,
      toolbox: makeToolbox(),
      config: { model: 'm', errorHandling: true },
    }).withLifecycle({
      name: 'no-shouting',
      afterModel: (r) =>
        r.toolCalls.some((c) => c.name === 'shout') ? HookAction.reject('shouting is not allowed') : HookAction.continue(),
    });
    lb.server.enqueue(
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
      { toolCalls: [{ name: 'shout', arguments: { text: 'x' } }] },
    );
    const result = await agent.execute({ task: 't' });
    assert.equal(result.metadata.terminationReason, 'hook_rejected');
    assert.equal(result.error?.error_code, 'HOOK_REJECTED');
    assert.match(result.error!.message, /no-shouting.*shouting is not allowed/);
    assert.equal((result.action_history as unknown[]).length, 1, 'the work done before the rejection is kept');
  });

  it('with errorHandling, a model failure mid-run ends with error; an abort ends with cancelled (partial output kept)', async () => {
    const agent = new ReActAgent({ llm: lb.llm, toolbox: makeToolbox(), config: { model: 'm', errorHandling: true } });
    lb.server.enqueue(
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
      { error: { status: 400, message: 'bad request' } },
    );
    const failed = await agent.execute({ task: 't' });
    assert.equal(failed.metadata.terminationReason, 'error');
    assert.equal(failed.error?.error_code, 'INVALID_REQUEST');

    const controller = new AbortController();
    lb.server.enqueue({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }, { hang: true });
    const pending = agent.execute(
      { task: 't' },
      { signal: controller.signal, onEvent: (e) => e.type === 'tool_called' && setTimeout(() => controller.abort(), 20) },
    );
    const cancelled = await pending;
    assert.equal(cancelled.metadata.terminationReason, 'cancelled');
    assert.equal(cancelled.error?.error_code, 'CANCELLED');
    assert.equal((cancelled.action_history as unknown[]).length, 1);
  });

  it('without errorHandling a failed run throws the typed error, like a single-shot agent (docs/extending.md)', async () => {
    const events: string[] = [];
    const agent = new ReActAgent({ llm: lb.llm, toolbox: makeToolbox(), config: { model: 'm' } });
    lb.server.enqueue(
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
      { error: { status: 400, message: 'bad request' } },
    );
    await assert.rejects(
      agent.execute({ task: 't' }, { onEvent: (e) => e.type === 'finished' && events.push(e.terminationReason) }),
      (error: unknown) =>
        error instanceof AgentError && error.error_code === 'INVALID_REQUEST' && /bad request/.test(error.message),
    );
    assert.deepEqual(events, ['error'], 'the finished event still reports how the run ended');

    const rejecting = new ReActAgent({ llm: lb.llm, toolbox: makeToolbox(), config: { model: 'm' } }).withLifecycle({
      name: 'no',
      afterModel: () => HookAction.reject('never'),
    });
    lb.server.enqueue({ text: 'anything' });
    await assert.rejects(
      rejecting.execute({ task: 't' }),
      (error: unknown) => error instanceof HookRejectedError && error.hook === 'no',
    );
  });

  it('defaults to 10 cycles (FR-011)', async () => {
    const agent = new ReActAgent({ llm: lb.llm, toolbox: makeToolbox(), config: { model: 'm' } });
    assert.equal(agent.config.maxCycles, 10);
    lb.server.setFallback({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] });
    try {
      const result = await agent.execute({ task: 'loop forever' });
      assert.equal(result.metadata.terminationReason, 'max_cycles');
      assert.equal(result.metadata.cycles, 10);
    } finally {
      lb.server.setFallback(undefined);
    }
  });

  it('wrapToolCall hooks wrap every tool call, first registered outermost, and may replace the result', async () => {
    const order: string[] = [];
    const agent = new ReActAgent({ llm: lb.llm, toolbox: makeToolbox(order), config: { model: 'm' } })
      .withLifecycle({
        name: 'outer',
        wrapToolCall: async (name, next, params) => {
          order.push(`outer:${name}:${JSON.stringify(params)}`);
          return next();
        },
      })
      .withLifecycle({
        name: 'inner',
        wrapToolCall: async (_name, next) => {
          order.push('inner');
          const r = await next();
          return { ...r, content: `[checked] ${r.content}` };
        },
      });
    lb.server.enqueue({ toolCalls: [{ name: 'add', arguments: { a: 2, b: 2 } }] }, { text: 'four' });
    const result = await agent.execute({ task: 't' });
    assert.deepEqual(order, ['outer:add:{"a":2,"b":2}', 'inner', 'run:add']);
    assert.deepEqual(result.observations, ['[checked] 4']);
  });

  it('stays stable for 60 cycles with a bounded, marked-truncated prompt', async function () {
    this.timeout(60_000);
    const agent = new ReActAgent({ llm: lb.llm, toolbox: makeToolbox(), config: { model: 'm', maxCycles: 60 } });
    let n = 0;
    lb.server.setFallback((req: RecordedRequest) => {
      n++;
      return n < 60
        ? { toolCalls: [{ name: 'shout', arguments: { text: `observation number ${n} `.repeat(20) } }] }
        : { text: `finished after ${req.body.messages.length} messages` };
    });
    const before = lb.server.chatRequests().length;
    const result = await agent.execute({ task: 'keep going' });
    lb.server.setFallback(undefined);
    assert.equal(result.metadata.terminationReason, 'finish');
    assert.equal(result.metadata.cycles, 60);
    assert.equal((result.action_history as unknown[]).length, 59);
    const sizes = lb.server
      .chatRequests()
      .slice(before)
      .map((r) => JSON.stringify(r.body.messages).length);
    assert.equal(sizes.length, 60);
    const plateau = Math.max(...sizes.slice(25, 30));
    assert.ok(Math.max(...sizes.slice(30)) <= plateau * 1.1, `prompt keeps growing: ${sizes.slice(25).join(',')}`);
    assert.ok(sizes[59]! < sizes[10]! * 3, 'prompt size bounded');
    const last = lb.server.chatRequests().at(-1)!.body.messages;
    const marker = last.find((m: any) => m.role === 'user' && /Context truncated: \d+ earlier cycle/.test(m.content));
    assert.ok(marker, 'truncation is marked');
    assert.match(marker.content, /older cycle summaries omitted/);
  });

  it('takes its system prompt and allowed tools from an agent config (TDD roles)', async () => {
    const toolbox = makeToolbox();
    const agent = new ReActAgent({
      llm: lb.llm,
      toolbox,
      agentConfig: { agent: 'tester', version: 'v1' },
      config: { model: 'local-model' },
    });
    lb.server.enqueue(
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      { text: 'returns fizz for three\nwrote one test' },
    );
    const before = lb.server.chatRequests().length;
    const result = await agent.execute({ context: 'kata: fizzbuzz' });
    assert.equal(result.final_answer, 'returns fizz for three\nwrote one test');
    assert.equal(result.metadata.prompt, 'tester/v1');
    const first = lb.server.chatRequests()[before]!.body;
    assert.match(systemText(first), /^agent: tester\/v1\n/);
    assert.equal(first.model, 'local-model');
    assert.equal(first.tools, undefined, 'none of the toolbox tools are in the tester config tools list');
    assert.match((result.observations as string[])[0]!, /not available to this agent.*nothing was executed/);
    assert.equal(toolbox.calls.length, 0);
  });

  it('validates a final answer against a config output schema, repairing once, then failing with error', async () => {
    const agent = new ReActAgent({
      llm: lb.llm,
      agentConfig: { agent: 'qa', version: 'v1' },
      config: { model: 'm', errorHandling: true },
    });
    lb.server.enqueue({ text: 'plain words' }, { json: { answer: 'yes', confidence: 0.5 } });
    const ok = await agent.execute({ question: 'q?', context: '' });
    assert.equal(ok.metadata.terminationReason, 'finish');
    assert.equal(ok.answer, 'yes');
    assert.equal(ok.metadata.repairAttempts, 1);
    assert.equal((ok.action_history as any[])[0].action, 'repair_output');

    lb.server.enqueue({ text: 'plain words' }, { text: 'still plain' });
    const bad = await agent.execute({ question: 'q?', context: '' });
    assert.equal(bad.metadata.terminationReason, 'error');
    assert.equal(bad.error?.error_code, 'OUTPUT_VALIDATION_FAILED');
    assert.ok(Array.isArray(bad.error?.details.violations));
  });

  it('a toolbox that throws becomes a TOOL_FAILED observation; long tool output is capped with a marker', async () => {
    const toolbox: AgentToolbox = {
      toolSpecs: () => makeToolbox().toolSpecs(),
      async executeCall(call) {
        if (call.name === 'add') throw new Error('executor crashed');
        return { toolName: call.name, callId: call.id, ok: true, content: 'y'.repeat(500), approval: 'auto', durationMs: 0 };
      },
    };
    const agent = new ReActAgent({ llm: lb.llm, toolbox, maxObservationChars: 100, config: { model: 'm' } });
    lb.server.enqueue(
      {
        toolCalls: [
          { id: 't1', name: 'add', arguments: {} },
          { id: 't2', name: 'shout', arguments: {} },
        ],
      },
      { text: 'ok' },
    );
    const result = await agent.execute({ task: 't' });
    assert.equal(result.final_answer, 'ok');
    assert.match((result.observations as string[])[0]!, /Tool add failed: executor crashed/);
    const tools = lb.server
      .chatRequests()
      .at(-1)!
      .body.messages.filter((m: any) => m.role === 'tool');
    assert.match(tools[1].content, /^y{100} \[\.\.\. truncated 400 chars\]$/);
    assert.equal((result.observations as string[])[1]!.length, 500, 'the full observation stays in the history');
  });

  it('goalCheck ends the run after a tool round without another model call; false lets it go on', async () => {
    const checked: string[][] = [];
    const agent = new ReActAgent({
      llm: lb.llm,
      toolbox: makeToolbox(),
      config: { model: 'm' },
      // The first round does not reach the goal; the second does.
      goalCheck: (steps) => checked.push(steps.map((s) => s.action)) === 2,
    });
    lb.server.enqueue(
      { text: 'adding first', toolCalls: [{ id: 'g1', name: 'add', arguments: '{"a":1,"b":2}' }] },
      { text: 'now shouting', toolCalls: [{ id: 'g2', name: 'shout', arguments: '{"text":"done"}' }] },
    );
    const before = lb.server.chatRequests().length;
    const result = await agent.execute({ task: 'add, then shout' });
    assert.equal(lb.server.chatRequests().length - before, 2, 'no request after the goal was reached');
    assert.deepEqual(checked, [['add'], ['shout']]);
    assert.equal(result.goal_reached, true);
    assert.equal(result.final_answer, 'now shouting', 'the words of its last message');
    assert.equal(result.metadata.terminationReason, 'finish');
  });

  it('compactMessages rewrites what each model call sends, and only that', async () => {
    const agent = new ReActAgent({
      llm: lb.llm,
      toolbox: makeToolbox(),
      config: { model: 'm' },
      compactMessages: (messages) =>
        messages.map((m) => (m.role === 'tool' ? { ...m, content: `[compacted] ${String(m.content)}` } : m)),
    });
    lb.server.enqueue({ toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":2,"b":2}' }] }, { text: 'four' });
    const before = lb.server.chatRequests().length;
    const result = await agent.execute({ task: 'add' });
    const second = lb.server.chatRequests()[before + 1]!;
    assert.equal(second.body.messages.find((m: any) => m.role === 'tool').content, '[compacted] 4');
    assert.equal((result.observations as string[])[0], '4', 'the run keeps the real observation');
  });

  it('rejects an empty task before any model call', async () => {
    const agent = new ReActAgent({ llm: lb.llm, config: { model: 'm' } });
    const before = lb.server.chatRequests().length;
    await assert.rejects(agent.execute({ task: '  ' }), (e: any) => e.error_code === 'VALIDATION' && /task/.test(e.message));
    assert.equal(lb.server.chatRequests().length, before);
  });
});
