import assert from 'node:assert/strict';
import { z } from 'zod';
import { BaseAgent } from '../../../src/core/agentRuntime/baseAgent';
import { OutputValidationError } from '../../../src/core/agentRuntime/errors';
import { createSignature } from '../../../src/core/agentRuntime/signature';
import { useLoopback } from './loopback';

const signature = createSignature({
  name: 'rater',
  instructions: 'Rate it.',
  inputs: { item: { type: z.string(), description: 'What to rate' } },
  outputs: {
    rating: { type: z.int().min(1).max(5), description: '1..5' },
    verdict: { type: z.enum(['good', 'bad']), description: 'good or bad' },
  },
});

describe('bounded repair of invalid model output', () => {
  const lb = useLoopback();

  it('asks again with the violations and succeeds on the repaired reply', async () => {
    const agent = new BaseAgent({ llm: lb.llm, signature, config: { model: 'm' } });
    lb.server.enqueue({ json: { rating: 9, verdict: 'meh' } }, { fencedJson: { rating: 4, verdict: 'good' } });
    const before = lb.server.chatRequests().length;
    const result = await agent.execute({ item: 'tea' });
    assert.equal(result.rating, 4);
    assert.equal(result.verdict, 'good');
    assert.equal(result.metadata.repairAttempts, 1);
    assert.equal(result.metadata.modelCalls, 2);
    const requests = lb.server.chatRequests().slice(before);
    assert.equal(requests.length, 2);
    const repair = requests[1]!.body.messages;
    assert.equal(repair.at(-2).role, 'assistant');
    assert.match(repair.at(-1).content, /rating/);
    assert.match(repair.at(-1).content, /verdict/);
  });

  it('gives up after maxRepairAttempts with OUTPUT_VALIDATION_FAILED listing the violations', async () => {
    const agent = new BaseAgent({ llm: lb.llm, signature, config: { model: 'm', maxRepairAttempts: 2 } });
    lb.server.enqueue({ text: 'not json at all' }, { json: { rating: 0 } }, { json: { rating: 'five', verdict: 'good' } });
    const before = lb.server.chatRequests().length;
    await assert.rejects(agent.execute({ item: 'tea' }), (e: unknown) => {
      assert.ok(e instanceof OutputValidationError);
      assert.equal(e.error_code, 'OUTPUT_VALIDATION_FAILED');
      assert.ok(e.violations.some((v) => v.startsWith('rating:')));
      assert.equal(e.details.attempts, 2);
      assert.equal(e.details.reason, 'max_attempts');
      return true;
    });
    assert.equal(lb.server.chatRequests().length - before, 3, 'exactly 1 call + 2 repairs, never more');
  });

  it('maxRepairAttempts 0 fails on the first invalid reply', async () => {
    const agent = new BaseAgent({ llm: lb.llm, signature, config: { model: 'm', maxRepairAttempts: 0, errorHandling: true } });
    lb.server.enqueue({ text: '' });
    const before = lb.server.chatRequests().length;
    const result = await agent.execute({ item: 'tea' });
    assert.equal(result.error?.error_code, 'OUTPUT_VALIDATION_FAILED');
    assert.ok(Array.isArray(result.error?.details.violations));
    assert.equal(lb.server.chatRequests().length - before, 1);
  });

  it('stops repairing when the token budget would be exceeded', async () => {
    const agent = new BaseAgent({ llm: lb.llm, signature, config: { model: 'm', maxRepairAttempts: 5, repairTokenBudget: 100 } });
    lb.server.enqueue({ text: 'nope', usage: { prompt_tokens: 500, completion_tokens: 10 } });
    const before = lb.server.chatRequests().length;
    await assert.rejects(
      agent.execute({ item: 'tea' }),
      (e: any) => e.error_code === 'OUTPUT_VALIDATION_FAILED' && e.details.reason === 'token_budget',
    );
    assert.equal(lb.server.chatRequests().length - before, 1);
  });
});
