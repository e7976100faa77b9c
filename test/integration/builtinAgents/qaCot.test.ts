import assert from 'node:assert/strict';
import { CoTAgent } from '../../../src/core/builtinAgents/cotAgent';
import { clampConfidence, QAAgent } from '../../../src/core/builtinAgents/qaAgent';
import { systemText, useLoopback } from '../agentRuntime/loopback';

describe('QAAgent and CoTAgent (defined by config/agents) against the loopback server', () => {
  const lb = useLoopback();

  it('QA: question + context → answer, confidence, reasoning with settings from qa/v1.json', async () => {
    const agent = new QAAgent({ llm: lb.llm });
    lb.server.enqueue({ json: { answer: 'It returns 3.', confidence: 0.9, reasoning: 'line 2' } });
    const result = await agent.execute({ question: 'What does f return?', context: 'function f() { return 3 }' });
    assert.equal(result.answer, 'It returns 3.');
    assert.equal(result.confidence, 0.9);
    assert.equal(result.reasoning, 'line 2');
    assert.equal(result.metadata.prompt, 'qa/v1');
    assert.match(agent.id, /^qa-\d+$/);
    const body = lb.server.chatRequests().at(-1)!.body;
    assert.match(systemText(body), /^agent: qa\/v1\n/);
    assert.equal(body.model, 'gpt-4o-mini', 'model from the JSON config');
    assert.equal(body.temperature, 0.2);
    assert.equal(body.response_format.json_schema.strict, true);
    assert.match(body.messages[1].content, /What does f return\?/);
  });

  it('QA: confidence is clamped to 0..1 instead of failing validation', async () => {
    const agent = new QAAgent({ llm: lb.llm, config: { model: 'other-model' } });
    lb.server.enqueue({ json: { answer: 'a', confidence: 1.7 } }, { json: { answer: 'b', confidence: -2, reasoning: 'r' } });
    assert.equal((await agent.execute({ question: 'q' })).confidence, 1);
    const second = await agent.execute({ question: 'q', context: 'c' });
    assert.equal(second.confidence, 0);
    assert.equal(second.metadata.repairAttempts, 0);
    assert.equal(lb.server.chatRequests().at(-1)!.body.model, 'other-model', 'config.model overrides the JSON model');
  });

  it('QA: an empty or missing question is rejected before any model call', async () => {
    const agent = new QAAgent({ llm: lb.llm });
    const before = lb.server.chatRequests().length;
    for (const question of ['', '   ', undefined, 42]) {
      await assert.rejects(
        agent.execute({ question, context: 'x' }),
        (e: any) => e.error_code === 'VALIDATION' && /question/.test(e.message),
      );
    }
    assert.equal(lb.server.chatRequests().length, before);
  });

  it('QA: unknown input keys are refused by the agent config with a CONFIG error', async () => {
    const agent = new QAAgent({ llm: lb.llm, config: { errorHandling: true } });
    const result = await agent.execute({ question: 'q', extra: 1 });
    assert.equal(result.error?.error_code, 'CONFIG');
    assert.match(result.error!.message, /extra/);
  });

  it('CoT: problem + context → step1..step5, final_answer, confidence', async () => {
    const agent = new CoTAgent({ llm: lb.llm });
    lb.server.enqueue({
      json: { step1: 'a', step2: 'b', step3: null, step4: null, step5: null, final_answer: '4', confidence: 0.8 },
    });
    const result = await agent.execute({ problem: '2+2?' });
    assert.equal(result.step1, 'a');
    assert.equal(result.step2, 'b');
    assert.equal(result.final_answer, '4');
    assert.equal(result.confidence, 0.8);
    assert.equal(result.metadata.prompt, 'cot/v1');
    assert.match(systemText(lb.server.chatRequests().at(-1)!.body), /^agent: cot\/v1\n/);
  });

  it('CoT: an empty problem is rejected before any model call; invalid output is repaired once', async () => {
    const agent = new CoTAgent({ llm: lb.llm });
    const before = lb.server.chatRequests().length;
    await assert.rejects(agent.execute({ problem: '' }), (e: any) => e.error_code === 'VALIDATION');
    assert.equal(lb.server.chatRequests().length, before);
    lb.server.enqueue({ json: { final_answer: 'x' } }, { json: { step1: 's', final_answer: 'x', confidence: 1 } });
    const result = await agent.execute({ problem: 'p', context: 'c' });
    assert.equal(result.step1, 's');
    assert.equal(result.metadata.repairAttempts, 1);
  });

  it('clampConfidence leaves non-JSON and non-numeric confidence alone', () => {
    assert.equal(clampConfidence('nope'), 'nope');
    assert.equal(clampConfidence('{"confidence":"high"}'), '{"confidence":"high"}');
    assert.equal(clampConfidence('[1]'), '[1]');
    assert.equal(JSON.parse(clampConfidence('```json\n{"confidence": 3}\n```')).confidence, 1);
  });
});
