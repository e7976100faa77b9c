import assert from 'node:assert/strict';
import { BaseAgent } from '../../../src/core/agentRuntime/baseAgent';
import { HookAction, type AgentLifecycle } from '../../../src/core/agentRuntime/lifecycle';
import { HookError, HookRejectedError } from '../../../src/core/agentRuntime/errors';
import type { LlmResult } from '../../../src/core/llm/types';
import { useLoopback } from './loopback';

describe('lifecycle hooks against the loopback server', () => {
  const lb = useLoopback();
  const agent = (...hooks: AgentLifecycle[]) => {
    const a = new BaseAgent({ llm: lb.llm, config: { model: 'm' } });
    for (const h of hooks) a.withLifecycle(h);
    return a;
  };

  it('runs every hook point in registration order; wrap hooks nest first-registered outermost', async () => {
    const order: string[] = [];
    const make = (name: string): AgentLifecycle => ({
      name,
      beforeAgent: () => void order.push(`${name}.beforeAgent`),
      beforeModel: () => void order.push(`${name}.beforeModel`),
      wrapModelCall: async (next) => {
        order.push(`${name}.wrap:in`);
        const r = await next();
        order.push(`${name}.wrap:out`);
        return r;
      },
      afterModel: () => void order.push(`${name}.afterModel`),
      afterAgent: () => void order.push(`${name}.afterAgent`),
    });
    lb.server.enqueue({ text: 'ok' });
    const a = agent(make('A')).withLifecycle(make('B'));
    const result = await a.execute({ prompt: 'x' });
    assert.equal(result.response, 'ok');
    assert.deepEqual(order, [
      'A.beforeAgent',
      'B.beforeAgent',
      'A.beforeModel',
      'B.beforeModel',
      'A.wrap:in',
      'B.wrap:in',
      'B.wrap:out',
      'A.wrap:out',
      'A.afterModel',
      'B.afterModel',
      'A.afterAgent',
      'B.afterAgent',
    ]);
  });

  it('beforeAgent and beforeModel replacements reach the model; afterAgent replaces the result', async () => {
    lb.server.enqueue({ text: 'fine' });
    const a = agent(
      { beforeAgent: (input) => ({ prompt: `${String(input.prompt)}!` }) },
      { beforeModel: (messages) => [{ role: 'system', content: 'be brief' }, ...messages] },
      { afterAgent: (result) => ({ ...result, checked: true }) },
    );
    const result = await a.execute({ prompt: 'hi' });
    assert.deepEqual(lb.server.chatRequests().at(-1)!.body.messages, [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi!' },
    ]);
    assert.equal(result.checked, true);
    assert.equal(result.metadata.modelCalls, 1);
  });

  it('afterModel modify replaces the response for later hooks and the agent; approve and continue pass it on', async () => {
    lb.server.enqueue({ text: 'original' });
    const seen: string[] = [];
    const a = agent(
      { name: 'approver', afterModel: () => HookAction.approve() },
      { name: 'rewriter', afterModel: (r: LlmResult) => HookAction.modify({ ...r, text: r.text.toUpperCase() }) },
      { name: 'observer', afterModel: (r: LlmResult) => (seen.push(r.text), HookAction.continue()) },
    );
    const result = await a.execute({ prompt: 'x' });
    assert.deepEqual(seen, ['ORIGINAL']);
    assert.equal(result.response, 'ORIGINAL');
  });

  it('afterModel reject stops the run with HookRejectedError naming hook and reason; later hooks do not run', async () => {
    lb.server.enqueue({ text: 'rm -rf /' });
    let later = false;
    const a = agent(
      { name: 'safety', afterModel: () => HookAction.reject('dangerous command') },
      { afterModel: () => void (later = true) },
    );
    await assert.rejects(a.execute({ prompt: 'x' }), (e: unknown) => {
      assert.ok(e instanceof HookRejectedError);
      assert.equal(e.error_code, 'HOOK_REJECTED');
      assert.equal(e.hook, 'safety');
      assert.match(e.message, /safety.*dangerous command/);
      return true;
    });
    assert.equal(later, false);
    lb.server.enqueue({ text: 'again' });
    const handled = new BaseAgent({ llm: lb.llm, config: { model: 'm', errorHandling: true } }).withLifecycle({
      afterModel: () => HookAction.reject('no'),
    });
    const result = await handled.execute({ prompt: 'x' });
    assert.equal(result.error?.error_code, 'HOOK_REJECTED');
    assert.equal(result.metadata.terminationReason, 'hook_rejected');
    assert.match(result.error!.message, /hook#1/);
  });

  it('a hook that throws surfaces as HookError with the hook name and point', async () => {
    for (const point of ['beforeAgent', 'beforeModel', 'wrapModelCall', 'afterModel', 'afterAgent'] as const) {
      if (point === 'afterModel' || point === 'afterAgent') lb.server.enqueue({ text: 'ok' });
      const hook: AgentLifecycle = {
        name: `broken-${point}`,
        [point]: () => {
          throw new Error(`boom in ${point}`);
        },
      };
      await assert.rejects(agent({ name: 'fine' }, hook).execute({ prompt: 'x' }), (e: unknown) => {
        assert.ok(e instanceof HookError, point);
        assert.equal(e.hook, `broken-${point}`);
        assert.equal(e.hookPoint, point);
        assert.match(e.message, new RegExp(`broken-${point}.*boom in ${point}`));
        return true;
      });
    }
  });

  it('a model error passing through wrap hooks is not blamed on them', async () => {
    lb.server.enqueue({ error: { status: 401, message: 'bad key' } });
    const a = agent({ name: 'outer', wrapModelCall: (next) => next() }, { name: 'inner', wrapModelCall: (next) => next() });
    await assert.rejects(a.execute({ prompt: 'x' }), (e: any) => e.error_code === 'AUTH' && !(e instanceof HookError));
  });

  it('an inner wrap hook error keeps the inner hook name through the outer hook', async () => {
    const a = agent(
      { name: 'outer', wrapModelCall: (next) => next() },
      {
        name: 'inner',
        wrapModelCall: async () => {
          throw new Error('inner failed');
        },
      },
    );
    await assert.rejects(a.execute({ prompt: 'x' }), (e: any) => e instanceof HookError && e.hook === 'inner');
  });

  it('a wrap hook can short-circuit the model call', async () => {
    const before = lb.server.chatRequests().length;
    const cached: LlmResult = {
      text: 'cached',
      toolCalls: [],
      finishReason: 'stop',
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      model: 'm',
      latencyMs: 0,
    };
    const result = await agent({ wrapModelCall: async () => cached }).execute({ prompt: 'x' });
    assert.equal(result.response, 'cached');
    assert.equal(lb.server.chatRequests().length, before);
  });

  it('with zero hooks the agent takes the fast path (no hook runner); hooks given at construction count', async () => {
    const bare = agent();
    assert.equal(bare.hookCount, 0);
    lb.server.enqueue({ text: 'fast' });
    assert.equal((await bare.execute({ prompt: 'x' })).response, 'fast');
    const seeded = new BaseAgent({ llm: lb.llm, config: { model: 'm' }, lifecycle: [{ name: 'a' }, { name: 'b' }] });
    assert.equal(seeded.hookCount, 2);
    assert.equal(new BaseAgent({ llm: lb.llm, lifecycle: { name: 'one' } }).hookCount, 1);
  });

  it('multi_cycle on an agent without cycle handlers is a clear CONFIG error', async () => {
    const a = new BaseAgent({ llm: lb.llm, config: { model: 'm', strategy: 'multi_cycle', maxCycles: 2 } });
    assert.equal(a.strategyName, 'multi_cycle');
    await assert.rejects(
      a.execute({ prompt: 'x' }),
      (e: any) => e.error_code === 'CONFIG' && /multi_cycle needs an agent/.test(e.message),
    );
  });

  it('rejects a hook set that is not an object', () => {
    assert.throws(
      () => agent().withLifecycle(null as never),
      (e: any) => e.error_code === 'CONFIG',
    );
  });
});
