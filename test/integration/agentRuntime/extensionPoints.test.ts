import assert from 'node:assert/strict';
import type { AgentRun } from '../../../src/core/agentRuntime/agentRun';
import { DEFAULT_PERFORMANCE_TARGETS } from '../../../src/core/agentRuntime/agentPerformanceTargets';
import { BaseAgent } from '../../../src/core/agentRuntime/baseAgent';
import { ReActAgent } from '../../../src/core/builtinAgents/reactAgent';
import type { AgentConfigExtensions } from '../../../src/core/agentRuntime/config';
import { AgentSettingsError, HookError } from '../../../src/core/agentRuntime/errors';
import type { ExecutionStrategy } from '../../../src/core/agentRuntime/strategies/types';
import { AgentError, describeThrown, toAgentError } from '../../../src/core/errors/agentError';
import { withoutInternalPaths } from '../../../src/core/errors/internalPaths';
import { PerformanceMetrics, type PerformanceTargets } from '../../../src/core/metrics/performanceMetrics';
import { useLoopback } from './loopback';

function settingsError(fn: () => unknown): AgentSettingsError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AgentSettingsError, String(error));
    return error;
  }
  assert.fail('expected an AgentSettingsError');
}

const PYTHON_TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "/srv/inference/app/server.py", line 212, in chat',
  '    out = model.generate(**kwargs)',
  '  File "/opt/venv/lib/python3.11/site-packages/vllm/engine.py", line 88, in generate',
  '    raise ValueError("temperature must be non-negative")',
  'ValueError: temperature must be non-negative',
].join('\n');

describe('BaseAgent extension points and errors (loopback server)', () => {
  const lb = useLoopback();
  beforeEach(() => lb.server.setFallback(undefined));

  describe('agent id', () => {
    it('an empty or blank id falls back to the default <kind>-<n>', () => {
      for (const id of ['', '   ']) assert.match(new BaseAgent({ llm: lb.llm, id }).id, /^agent-\d+$/);
      assert.equal(new BaseAgent({ llm: lb.llm, id: 'mine' }).id, 'mine');
      assert.match(settingsError(() => new BaseAgent({ llm: lb.llm, id: {} as never })).message, /id: must be a string/);
    });
  });

  describe('strategy factory', () => {
    it('a createExecutionStrategy that returns nothing falls back to single shot', async () => {
      class NoStrategy extends BaseAgent {
        protected override createExecutionStrategy(): ExecutionStrategy | undefined {
          return undefined;
        }
      }
      const agent = new NoStrategy({ llm: lb.llm, config: { model: 'm' } });
      lb.server.enqueue({ text: 'fine' });
      const result = await agent.execute({ prompt: 'hi' });
      assert.equal(result.response, 'fine');
      assert.equal(result.metadata.strategy, 'single_shot');
      assert.equal(agent.strategyName, 'single_shot');
    });

    it('a custom strategy that reports an error follows errorHandling too (thrown without it, returned with it)', async () => {
      class Reporting extends BaseAgent {
        protected override createExecutionStrategy(): ExecutionStrategy {
          return {
            name: 'reporting',
            run: async () => ({
              output: { partial: true },
              terminationReason: 'error',
              error: { error_code: 'TOOL_FAILED', message: 'the tool broke', details: { step: 2 } },
            }),
          };
        }
      }
      await assert.rejects(
        new Reporting({ llm: lb.llm }).execute({ prompt: 'x' }),
        (e: unknown) =>
          e instanceof AgentError && e.error_code === 'TOOL_FAILED' && e.message === 'the tool broke' && e.details.step === 2,
      );
      const handled = await new Reporting({ llm: lb.llm, config: { errorHandling: true } }).execute({ prompt: 'x' });
      assert.equal(handled.partial, true);
      assert.equal(handled.error?.error_code, 'TOOL_FAILED');
      assert.equal(handled.metadata.terminationReason, 'error');
    });

    it('one that returns something that is not a strategy is a CONFIG error, not a TypeError', async () => {
      class BadStrategy extends BaseAgent {
        protected override createExecutionStrategy(): ExecutionStrategy {
          return { name: 'broken' } as never;
        }
      }
      const agent = new BadStrategy({ llm: lb.llm, config: { model: 'm' } });
      await assert.rejects(
        agent.execute({ prompt: 'hi' }),
        (e: unknown) =>
          e instanceof AgentSettingsError && /createExecutionStrategy must return an ExecutionStrategy/.test(e.message),
      );
    });
  });

  describe('extension points that answer with a promise', () => {
    /** Every extension point async, each leaving a mark; a ReAct-like multi-cycle variant below. */
    class AsyncAgent extends BaseAgent {
      override async preExecute(inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
        await Promise.resolve();
        return { ...inputs, prompt: `${String(inputs.prompt)} (prepared)` };
      }
      override async preparePrompt(inputs: Record<string, unknown>, run: AgentRun) {
        const prompt = await super.preparePrompt(inputs, run);
        return { ...prompt, messages: [{ role: 'system' as const, content: 'async prompt' }, ...prompt.messages] };
      }
      override async parseResult(output: Record<string, unknown>): Promise<Record<string, unknown>> {
        await Promise.resolve();
        return { ...output, parsed: true };
      }
      override async postExecute(output: Record<string, unknown>): Promise<Record<string, unknown>> {
        return { ...output, posted: true };
      }
    }

    it('single shot: each is awaited, in order, and what it resolves to is used', async () => {
      lb.server.enqueue({ text: 'pong' });
      const result = await new AsyncAgent({ llm: lb.llm, config: { model: 'm' } }).execute({ prompt: 'ping' });
      assert.deepEqual([result.response, result.parsed, result.posted], ['pong', true, true]);
      const sent = lb.server.chatRequests().at(-1)!.body.messages as Array<{ content: string }>;
      assert.deepEqual(
        sent.map((m) => m.content),
        ['async prompt', 'ping (prepared)'],
      );
    });

    it('multi-cycle (ReAct): the same extension points, awaited around the cycles', async () => {
      class AsyncReAct extends ReActAgent {
        override async preExecute(inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
          return { ...inputs, task: `${String(inputs.task)} (prepared)` };
        }
        override async parseResult(output: Record<string, unknown>): Promise<Record<string, unknown>> {
          return { ...output, parsed: true };
        }
        override async postExecute(output: Record<string, unknown>): Promise<Record<string, unknown>> {
          return { ...output, posted: true };
        }
      }
      lb.server.enqueue({ text: 'done' });
      const result = await new AsyncReAct({ llm: lb.llm, config: { model: 'm' } }).execute({ task: 'finish' });
      assert.deepEqual([result.final_answer, result.parsed, result.posted], ['done', true, true]);
      const sent = lb.server.chatRequests().at(-1)!.body.messages as Array<{ content: string }>;
      assert.match(sent.at(-1)!.content, /finish \(prepared\)/);
    });

    it('a promise that rejects, or resolves to inputs that cannot be sent as JSON, fails before any model call', async () => {
      const before = lb.server.chatRequests().length;
      class Rejecting extends AsyncAgent {
        override async preExecute(): Promise<Record<string, unknown>> {
          throw new AgentError('VALIDATION', 'refused by preExecute', {});
        }
      }
      class Unsendable extends AsyncAgent {
        override async preExecute(inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
          return { ...inputs, callback: () => undefined };
        }
      }
      for (const Agent of [Rejecting, Unsendable]) {
        const result = await new Agent({ llm: lb.llm, config: { model: 'm', errorHandling: true } }).execute({ prompt: 'x' });
        assert.equal(result.error?.error_code, 'VALIDATION', Agent.name);
      }
      assert.equal(lb.server.chatRequests().length, before, 'no model call');
    });
  });

  describe('performance targets', () => {
    it('default to 100 ms framework init, 200 ms agent creation, 500 ms execution', () => {
      const agent = new BaseAgent({ llm: lb.llm });
      assert.deepEqual(agent.performanceTargets(), { frameworkInitMs: 100, agentCreationP95Ms: 200, executionP95Ms: 500 });
      assert.deepEqual(agent.performanceTargets(), DEFAULT_PERFORMANCE_TARGETS);
    });

    it("checkPerformanceTargets reports each missed target from the agent's metrics", () => {
      const metrics = new PerformanceMetrics();
      metrics.recordFrameworkInit(150);
      const agent = new BaseAgent({ llm: lb.llm, metrics, config: { performanceTracking: true } });
      assert.deepEqual(agent.checkPerformanceTargets(), ['frameworkInitMs: 150.00 > 100']);
      metrics.recordFrameworkInit(20);
      assert.deepEqual(agent.checkPerformanceTargets(), []);
      assert.match(
        settingsError(() => new BaseAgent({ llm: lb.llm }).checkPerformanceTargets()).message,
        /needs performanceTracking: true/,
      );
    });

    it('with performanceTracking and no metrics given, the agent keeps its own and checks them; unset targets are skipped', async () => {
      class OnlyExecution extends BaseAgent {
        override performanceTargets(): PerformanceTargets {
          return { executionP95Ms: 60_000, agentCreationP95Ms: undefined };
        }
      }
      const agent = new OnlyExecution({ llm: lb.llm, config: { model: 'm', performanceTracking: true } });
      lb.server.enqueue({ text: 'ok' });
      await agent.execute({ prompt: 'x' });
      assert.equal(agent.metrics!.snapshot().execution.count, 1);
      assert.deepEqual(agent.checkPerformanceTargets(), []);
      class NoTargets extends BaseAgent {
        override performanceTargets(): PerformanceTargets {
          return null as never;
        }
      }
      assert.match(
        settingsError(() => new NoTargets({ llm: lb.llm, config: { performanceTracking: true } })).message,
        /performanceTargets: must return an object/,
      );
    });

    for (const [targets, message] of [
      [{ executionP95Ms: 0 }, /performanceTargets\.executionP95Ms: must be a positive number, got 0/],
      [{ agentCreationP95Ms: -5 }, /performanceTargets\.agentCreationP95Ms: must be a positive number, got -5/],
      [{ frameworkInitMs: Number.NaN }, /performanceTargets\.frameworkInitMs: must be a positive number/],
      [{ minSuccessRate: 2 }, /minSuccessRate: must be at most 1/],
    ] as Array<[PerformanceTargets, RegExp]>) {
      it(`rejects ${JSON.stringify(targets)} (zero, negative or impossible targets)`, () => {
        class Targeted extends BaseAgent {
          override performanceTargets(): PerformanceTargets {
            return targets;
          }
        }
        assert.match(settingsError(() => new Targeted({ llm: lb.llm, config: { performanceTracking: true } })).message, message);
        assert.match(settingsError(() => new Targeted({ llm: lb.llm }).checkPerformanceTargets()).message, message);
      });
    }
  });

  describe('config extensions', () => {
    class Framework extends BaseAgent {
      protected override frameworkConfigExtensions(): AgentConfigExtensions {
        return { timeoutMs: 5000, maxRepairAttempts: 3, generation_config: { top_p: 0.9, seed: 1 } };
      }
    }
    class Specialist extends Framework {
      protected override configExtensions(): AgentConfigExtensions {
        return { maxRepairAttempts: 0, generation_config: { seed: 7 }, style: 'terse' };
      }
    }

    it('framework-level and agent-level extensions merge, agent over framework over base, caller over all', () => {
      const agent = new Specialist({ llm: lb.llm });
      assert.equal(agent.config.timeoutMs, 5000);
      assert.equal(agent.config.maxRepairAttempts, 0);
      assert.deepEqual(agent.config.generation_config, { top_p: 0.9, seed: 7 });
      assert.equal(agent.config.style, 'terse');
      assert.equal(agent.config.repairTokenBudget, 8000, 'base defaults stay');
      const tuned = new Specialist({ llm: lb.llm, config: { maxRepairAttempts: 2, generation_config: { top_p: 0.5 } } as never });
      assert.equal(tuned.config.maxRepairAttempts, 2);
      assert.deepEqual(tuned.config.generation_config, { top_p: 0.5, seed: 7 });
      assert.equal(new Framework({ llm: lb.llm }).config.maxRepairAttempts, 3);
    });

    it('a key no extension declares is still a typo; base settings in extensions are still validated', () => {
      assert.match(
        settingsError(() => new BaseAgent({ llm: lb.llm, config: { generation_config: {} } as never })).message,
        /generation_config/,
      );
      class Broken extends BaseAgent {
        protected override configExtensions(): AgentConfigExtensions {
          return { timeoutMs: -1 };
        }
      }
      assert.match(settingsError(() => new Broken({ llm: lb.llm })).message, /timeoutMs/);
      class NotAnObject extends BaseAgent {
        protected override frameworkConfigExtensions(): AgentConfigExtensions {
          return [] as never;
        }
      }
      assert.match(
        settingsError(() => new NotAnObject({ llm: lb.llm })).message,
        /framework config extensions.*expected an object of settings, got an array/,
      );
    });
  });

  describe('fallback execution', () => {
    for (const inputs of [{}, { prompt: '' }, { prompt: '   ', note: null }, { prompt: undefined }]) {
      it(`rejects ${JSON.stringify(inputs)} before any model call`, async () => {
        const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm' } });
        const before = lb.server.chatRequests().length;
        await assert.rejects(
          agent.execute(inputs),
          (e: unknown) => e instanceof AgentError && e.error_code === 'VALIDATION' && /nothing to ask the model/.test(e.message),
        );
        assert.equal(lb.server.chatRequests().length, before);
      });
    }

    it('still sends a non-empty input (a falsy number counts)', async () => {
      const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm' } });
      lb.server.enqueue({ text: 'zero' });
      assert.equal((await agent.execute({ n: 0 })).response, 'zero');
      assert.equal(lb.server.chatRequests().at(-1)!.body.messages[0].content, 'n: 0');
    });
  });

  describe('errors', () => {
    it('a thrown non-Error value reads as itself, not [object Object]', async () => {
      const thrown: unknown[] = [{ reason: 'quota', left: 0 }, 'plain words', 42];
      for (const value of thrown) {
        class Throwing extends BaseAgent {
          override preExecute(): Record<string, unknown> {
            throw value;
          }
        }
        const agent = new Throwing({ llm: lb.llm, config: { model: 'm', errorHandling: true } });
        const result = await agent.execute({ prompt: 'x' });
        assert.equal(result.error?.message, typeof value === 'string' ? value : JSON.stringify(value));
      }
      const hooked = new BaseAgent({ llm: lb.llm, config: { model: 'm' } }).withLifecycle({
        name: 'picky',
        beforeAgent: () => {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- a hook that throws a non-Error is the case under test
          throw { why: 'no' };
        },
      });
      await assert.rejects(
        hooked.execute({ prompt: 'x' }),
        (e: unknown) => e instanceof HookError && e.message === 'Lifecycle hook "picky" failed in beforeAgent: {"why":"no"}',
      );
      assert.equal(describeThrown(new (class Thing {})()), 'a Thing object');
      assert.equal(describeThrown('x'.repeat(600)).length, 501);
    });

    it('keeps the cause, redacted of secrets', async () => {
      const original = new TypeError('lookup failed for api_key=abcdef1234567890');
      class Failing extends BaseAgent {
        override preExecute(_inputs: Record<string, unknown>, _run: AgentRun): Record<string, unknown> {
          throw original;
        }
      }
      const agent = new Failing({ llm: lb.llm, config: { model: 'm' } });
      const error = await agent.execute({ prompt: 'x' }).then(
        () => assert.fail('expected a failure'),
        (e: unknown) => e as AgentError,
      );
      assert.ok(error instanceof AgentError);
      const cause = error.cause as Error;
      assert.ok(cause instanceof Error, 'the cause is kept');
      assert.equal(cause.name, 'TypeError');
      assert.match(cause.message, /^lookup failed for /);
      assert.ok(!cause.message.includes('abcdef1234567890'), cause.message);
      assert.ok(!String(cause.stack).includes('abcdef1234567890'));
      assert.ok(!error.message.includes('abcdef1234567890'));
      assert.equal(original.message, 'lookup failed for api_key=abcdef1234567890', "the thrower's own error is left alone");
      const plain = toAgentError({ token: 'api_key=abcdef1234567890' });
      assert.ok(!JSON.stringify(plain.cause).includes('abcdef1234567890'));
    });

    it('a provider error with a server traceback does not put internal paths into the message', async () => {
      const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm', errorHandling: true } });
      lb.server.enqueue({ error: { status: 500, message: PYTHON_TRACEBACK } });
      const result = await agent.execute({ prompt: 'x' });
      const error = result.error!;
      assert.equal(error.error_code, 'UNKNOWN');
      assert.match(error.message, /ValueError: temperature must be non-negative/);
      assert.match(
        error.message,
        new RegExp(lb.server.baseURL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
        'the base URL a person configured stays',
      );
      for (const leak of ['/srv/inference', 'site-packages', 'server.py', 'Traceback']) {
        assert.ok(!JSON.stringify(error).includes(leak), `${leak} leaked: ${JSON.stringify(error)}`);
      }
    });

    it('withoutInternalPaths keeps URLs and plain messages, and replaces file paths', () => {
      assert.equal(withoutInternalPaths('model not found'), 'model not found');
      assert.equal(withoutInternalPaths(''), '');
      assert.equal(withoutInternalPaths('see https://example.com/docs/errors/42'), 'see https://example.com/docs/errors/42');
      assert.equal(withoutInternalPaths('cannot open /var/lib/models/llama.bin: denied'), 'cannot open <path>: denied');
      assert.equal(withoutInternalPaths('cannot open C:\\models\\llama.bin now'), 'cannot open <path> now');
      assert.equal(
        withoutInternalPaths('Error: boom\n    at run (/app/dist/server.js:10:5)\n    at main (/app/dist/index.js:3:1)'),
        'Error: boom',
      );
    });
  });
});
