import assert from 'node:assert/strict';
import { z } from 'zod';
import { BaseAgent } from '../../../src/core/agentRuntime/baseAgent';
import { createSignature } from '../../../src/core/agentRuntime/signature';
import type { AgentEvent } from '../../../src/core/agentRuntime/events';
import { setLogLevel, setLogSink, type LogRecord } from '../../../src/core/logging/logger';
import { systemText, useLoopback } from './loopback';

const answerSignature = createSignature({
  name: 'answerer',
  instructions: 'Answer the question.',
  inputs: { question: { type: z.string().min(1), description: 'The question' } },
  outputs: {
    answer: { type: z.string(), description: 'The answer' },
    score: { type: z.number().min(0).max(10), description: 'A score' },
  },
});

describe('BaseAgent against the loopback server', () => {
  const lb = useLoopback({ apiKey: 'sk-loopbacktestkey1234567890' });
  beforeEach(() => lb.server.setFallback(undefined));

  it('config.provider and config.baseURL must agree with the client: a mismatch is refused before any call', async () => {
    const before = lb.server.chatRequests().length;
    // Agreeing settings (the trailing slash aside) are accepted, and the calls go where they say.
    const agreeing = new BaseAgent({ llm: lb.llm, config: { model: 'm', provider: 'openai', baseURL: `${lb.server.baseURL}/` } });
    lb.server.enqueue({ text: 'ok' });
    assert.equal((await agreeing.execute({ prompt: 'hi' })).response, 'ok');
    assert.throws(
      () => new BaseAgent({ llm: lb.llm, config: { model: 'm', provider: 'ollama' } }),
      (e: Error & { error_code?: string }) =>
        e.error_code === 'CONFIG' &&
        /provider: the agent is configured for ollama, but its llm client talks to openai/.test(e.message),
    );
    assert.throws(
      () => new BaseAgent({ llm: lb.llm, config: { model: 'm', baseURL: 'http://127.0.0.1:1/v1' } }),
      (e: Error & { error_code?: string }) =>
        e.error_code === 'CONFIG' &&
        /baseURL: the agent is configured for http:\/\/127\.0\.0\.1:1\/v1, but its llm client calls/.test(e.message),
    );
    assert.equal(lb.server.chatRequests().length, before + 1, 'only the agreeing agent called the server');
  });

  it('the settings are frozen once validated: a change afterwards throws instead of skipping validation', async () => {
    class TunedAgent extends BaseAgent {
      protected override configExtensions() {
        return { generation_config: { top_k: 3 } };
      }
    }
    const agent = new TunedAgent({ llm: lb.llm, config: { model: 'm' } });
    assert.ok(Object.isFrozen(agent.config));
    assert.throws(() => {
      (agent.config as { temperature?: number }).temperature = 99;
    }, TypeError);
    lb.server.enqueue({ text: 'ok' });
    await agent.execute({ prompt: 'hi' });
    const body = lb.server.chatRequests().at(-1)!.body as { temperature?: number; generation_config?: unknown };
    assert.equal(body.temperature, undefined);
    assert.deepEqual(body.generation_config, { top_k: 3 }, 'the request extensions, read once, still reach the request');
  });

  it('fallback mode: plain prompt in, { response } out, with metadata', async () => {
    const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm-1' } });
    lb.server.enqueue({ text: 'hello there', usage: { prompt_tokens: 7, completion_tokens: 3 } });
    const before = lb.server.chatRequests().length;
    const result = await agent.execute({ prompt: 'say hello' });
    assert.equal(result.response, 'hello there');
    const req = lb.server.chatRequests()[before]!;
    assert.deepEqual(req.body.messages, [{ role: 'user', content: 'say hello' }]);
    assert.equal(req.body.model, 'm-1');
    assert.equal(result.metadata.agentId, agent.id);
    assert.match(agent.id, /^agent-\d+$/);
    assert.equal(result.metadata.model, 'm-1');
    assert.equal(result.metadata.strategy, 'single_shot');
    assert.equal(result.metadata.prompt, 'fallback');
    assert.equal(result.metadata.terminationReason, 'finish');
    assert.deepEqual(result.metadata.usage, { promptTokens: 7, completionTokens: 3, totalTokens: 10 });
    assert.equal(result.metadata.modelCalls, 1);
    assert.ok(result.metadata.executionTimeMs >= 0);
    assert.equal(result.metadata.cycles, undefined);
    assert.equal(agent.promptKind, 'fallback');
  });

  it('fallback mode renders several inputs as key: value lines', async () => {
    const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm' } });
    lb.server.enqueue({ text: 'ok' });
    await agent.execute({ a: 'x', b: 2 });
    assert.equal(lb.server.chatRequests().at(-1)!.body.messages[0].content, 'a: x\nb: 2');
  });

  it('signature mode: system prompt with agent line, JSON schema response format, validated output', async () => {
    const agent = new BaseAgent({
      llm: lb.llm,
      signature: answerSignature,
      config: { model: 'm', temperature: 0.3, maxTokens: 50 },
    });
    lb.server.enqueue({ json: { answer: '42', score: 7 } });
    const result = await agent.execute({ question: 'life?' });
    assert.equal(result.answer, '42');
    assert.equal(result.score, 7);
    assert.equal(result.metadata.prompt, 'answerer/v1');
    const body = lb.server.chatRequests().at(-1)!.body;
    assert.match(systemText(body), /^agent: answerer\/v1\n/);
    assert.equal(body.messages[1].content, 'question: life?');
    assert.equal(body.response_format.type, 'json_schema');
    assert.deepEqual(Object.keys(body.response_format.json_schema.schema.properties), ['answer', 'score']);
    assert.equal(body.temperature, 0.3);
    assert.equal(agent.promptKind, 'signature');
  });

  it('rejects invalid inputs against the signature before any model call', async () => {
    const agent = new BaseAgent({ llm: lb.llm, signature: answerSignature, config: { model: 'm' } });
    const before = lb.server.chatRequests().length;
    await assert.rejects(
      agent.execute({ question: '' }),
      (e: any) => e.error_code === 'VALIDATION' && /question/.test(e.message),
    );
    await assert.rejects(agent.execute('nope' as never), (e: any) => e.error_code === 'VALIDATION' && /inputs/.test(e.message));
    assert.equal(lb.server.chatRequests().length, before);
  });

  it('without any model configured fails with a CONFIG error naming model', async () => {
    const agent = new BaseAgent({ llm: lb.llm });
    await assert.rejects(agent.execute({ prompt: 'x' }), (e: any) => e.error_code === 'CONFIG' && /model/.test(e.message));
  });

  it('errorHandling returns a structured error without secrets instead of throwing', async () => {
    const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm', errorHandling: true } });
    lb.server.enqueue({ error: { status: 401, message: 'Incorrect API key provided: sk-loopbacktestkey1234567890' } });
    const result = await agent.execute({ prompt: 'x' });
    assert.equal(result.error?.error_code, 'AUTH');
    assert.ok(result.error?.message);
    assert.ok(!JSON.stringify(result).includes('sk-loopbacktestkey1234567890'));
    assert.equal(result.metadata.terminationReason, 'error');
    assert.equal(result.response, undefined);
    const logged = lb.logs.filter((r) => r.scope === 'agent' && r.fields?.agentId === agent.id);
    assert.equal(logged.length, 1, 'one warning per failed execution (one logger, no duplicate handlers)');
    assert.ok(!JSON.stringify(logged).includes('sk-loopbacktestkey1234567890'));
  });

  it('without errorHandling a provider failure throws the typed error', async () => {
    const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm' } });
    lb.server.enqueue({ error: { status: 429, message: 'slow down' } });
    await assert.rejects(agent.execute({ prompt: 'x' }), (e: any) => e.error_code === 'RATE_LIMIT');
  });

  it('an aborted signal cancels before the call and during a hanging call', async () => {
    const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm', errorHandling: true } });
    const before = lb.server.chatRequests().length;
    const early = await agent.execute({ prompt: 'x' }, { signal: AbortSignal.abort() });
    assert.equal(early.error?.error_code, 'CANCELLED');
    assert.equal(early.metadata.terminationReason, 'cancelled');
    assert.equal(lb.server.chatRequests().length, before);
    lb.server.enqueue({ hang: true });
    const controller = new AbortController();
    const pending = agent.execute({ prompt: 'x' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const late = await pending;
    assert.equal(late.error?.error_code, 'CANCELLED');
  });

  it('a cancelled run is no warning in the log; a failed one is', async () => {
    const records: LogRecord[] = [];
    const previousSink = setLogSink((r) => records.push(r));
    const previousLevel = setLogLevel('info');
    try {
      const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm', errorHandling: true } });
      await agent.execute({ prompt: 'x' }, { signal: AbortSignal.abort() });
      assert.deepEqual(
        records.filter((r) => r.level === 'warn').map((r) => r.message),
        [],
      );
      lb.server.enqueue({ error: { status: 400, message: 'bad request' } });
      await agent.execute({ prompt: 'x' });
      assert.ok(records.some((r) => r.level === 'warn' && r.message === 'Agent execution failed.'));
    } finally {
      setLogSink(previousSink);
      setLogLevel(previousLevel);
    }
  });

  it('emits run_started, model_called and finished events to agent and per-execution listeners', async () => {
    const agentEvents: AgentEvent[] = [];
    const runEvents: AgentEvent[] = [];
    const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm' }, onEvent: (e) => agentEvents.push(e) });
    const off = agent.onEvent(() => {
      throw new Error('a broken listener must not break the run');
    });
    lb.server.enqueue({ text: 'hi', usage: { prompt_tokens: 2, completion_tokens: 1 } });
    await agent.execute({ prompt: 'x' }, { onEvent: (e) => runEvents.push(e) });
    off();
    assert.deepEqual(
      agentEvents.map((e) => e.type),
      ['run_started', 'model_called', 'finished'],
    );
    assert.deepEqual(
      runEvents.map((e) => e.type),
      ['run_started', 'model_called', 'finished'],
    );
    const called = agentEvents[1] as Extract<AgentEvent, { type: 'model_called' }>;
    assert.equal(called.usage.totalTokens, 3);
    assert.equal(called.text, 'hi');
    const finished = agentEvents[2] as Extract<AgentEvent, { type: 'finished' }>;
    assert.equal(finished.terminationReason, 'finish');
  });

  it('the signature compiles once and is shared by all agents using it', () => {
    const first = answerSignature.compile();
    assert.equal(answerSignature.compile(), first);
  });

  it('rejects a missing llm and giving both a signature and an agent config', () => {
    assert.throws(
      () => new BaseAgent({} as never),
      (e: any) => e.error_code === 'CONFIG' && /llm/.test(e.message),
    );
    assert.throws(
      () => new BaseAgent({ llm: lb.llm, signature: answerSignature, agentConfig: { agent: 'qa', version: 'v1' } }),
      (e: any) => e.error_code === 'CONFIG' && /signature, agentConfig/.test(e.message),
    );
  });
});
