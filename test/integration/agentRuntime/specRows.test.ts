import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  AgentError,
  AgentSettingsError,
  ApprovalPolicy,
  BaseAgent,
  ControlProtocol,
  DEFAULT_LEVEL_RULES,
  HookError,
  InMemoryTransport,
  QAAgent,
  ToolExecutor,
  ToolRegistry,
  createBuiltinTools,
  createOpenAIClient,
  createSignature,
  defineTool,
  type AgentRun,
  type ApprovalRequestMessage,
  type PerformanceTargets,
} from '../../../src/core';
import { useLoopback } from './loopback';

// The rows of issue 26 ("the specifications' remaining rows"), each through the public entry `tdd-agent/core`.
// An invalid value anywhere a hook, a signature, an input or a config is given fails closed with a typed error
// naming the place.

const QA_REPLY = { json: { answer: 'Paris', confidence: 0.9, reasoning: 'capital' } };

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  return promise.then(
    (value) => assert.fail(`expected a failure, got ${JSON.stringify(value)}`),
    (e: unknown) => {
      assert.ok(e instanceof AgentError, String(e));
      return e;
    },
  );
}

function thrown(fn: () => unknown): AgentError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof AgentError, String(e));
    return e;
  }
  assert.fail('expected an AgentError');
}

describe('issue 26: the specifications’ remaining rows (loopback server, public entry)', () => {
  const lb = useLoopback();
  beforeEach(() => lb.server.setFallback(undefined));

  describe('002 FR-2: afterModel returns one of the four HookActions, anything else fails closed', () => {
    for (const [label, bad] of [
      ['a misspelt reject', { type: 'rejcet', reason: 'pii' }],
      ["the bare string 'continue'", 'continue'],
      ['a reject without a reason', { type: 'reject' }],
      ['a modify without a response', { type: 'modify' }],
      ['null', null],
    ] as Array<[string, unknown]>) {
      it(`${label} is a HookError naming the hook, the point and the value`, async () => {
        const agent = new QAAgent({ llm: lb.llm, config: { model: 'm' } }).withLifecycle({
          name: 'pii',
          afterModel: () => bad as never,
        });
        lb.server.enqueue(QA_REPLY);
        const error = await rejection(agent.execute({ question: 'q' }));
        assert.ok(error instanceof HookError, error.message);
        assert.equal(error.hook, 'pii');
        assert.equal(error.hookPoint, 'afterModel');
        assert.equal(error.error_code, 'CONFIG');
        assert.match(error.message, /Lifecycle hook "pii" returned an invalid action from afterModel/);
        assert.ok(error.message.includes(JSON.stringify(bad)), error.message);
        assert.equal(error.details.value, JSON.stringify(bad));
      });
    }

    it('nothing (undefined) still means continue, and the four actions keep working', async () => {
      for (const action of [undefined, { type: 'continue' }, { type: 'approve' }]) {
        const agent = new QAAgent({ llm: lb.llm, config: { model: 'm' } }).withLifecycle({
          name: 'quiet',
          afterModel: () => action as never,
        });
        lb.server.enqueue(QA_REPLY);
        assert.equal((await agent.execute({ question: 'q' })).answer, 'Paris');
      }
    });

    it('the other hook points fail closed on a value of the wrong kind too', async () => {
      const cases: Array<[string, Record<string, unknown>]> = [
        ['beforeAgent', { beforeAgent: () => 'question: q' }],
        ['beforeModel', { beforeModel: () => ({ role: 'user', content: 'x' }) }],
        ['wrapModelCall', { wrapModelCall: async (next: () => Promise<unknown>) => void (await next()) }],
        ['afterAgent', { afterAgent: () => 42 }],
      ];
      // Some fail before the model is called: the reply is the fallback, so none is left queued for later tests.
      lb.server.setFallback(QA_REPLY);
      for (const [point, hooks] of cases) {
        const agent = new QAAgent({ llm: lb.llm, config: { model: 'm' } }).withLifecycle({ name: 'odd', ...hooks });
        const error = await rejection(agent.execute({ question: 'q' }));
        assert.ok(error instanceof HookError && error.hookPoint === point, `${point}: ${error.message}`);
        assert.equal(error.error_code, 'CONFIG', point);
        assert.match(error.message, new RegExp(`Lifecycle hook "odd" returned an invalid value from ${point}`), point);
      }
    });

    it('a hook point that is not a function is refused at registration, naming it', () => {
      const agent = new QAAgent({ llm: lb.llm, config: { model: 'm' } });
      const error = thrown(() => agent.withLifecycle({ name: 'pii', afterModel: 'continue' } as never));
      assert.ok(error instanceof AgentSettingsError);
      assert.match(error.message, /lifecycle "pii"\.afterModel: must be a function/);
      assert.match(thrown(() => agent.withLifecycle({ name: 7 } as never)).message, /lifecycle\.name: must be a string/);
      assert.equal(agent.hookCount, 0, 'a refused hook set is not registered');
    });
  });

  describe('003 Approvals: every non-SAFE tool needs an approval', () => {
    let workspace: string;
    beforeEach(() => {
      workspace = realpathSync(mkdtempSync(join(tmpdir(), 'spec-rows-')));
    });
    afterEach(() => rmSync(workspace, { recursive: true, force: true }));

    const note = defineTool({
      name: 'note_scratch',
      description: 'Keeps a scratch note.',
      category: 'custom',
      dangerLevel: 'LOW',
      usesWorkspace: false,
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => `noted ${text}`,
    });

    it('LOW asks by default, through the control protocol’s approval_request', async () => {
      assert.equal(DEFAULT_LEVEL_RULES.LOW, 'ask');
      assert.equal(new ApprovalPolicy().decide('note_scratch', 'LOW').rule, 'ask');
      const transport = new InMemoryTransport();
      const asked: ApprovalRequestMessage[] = [];
      transport.onAgentMessage((m) => {
        if (m.type !== 'approval_request') return;
        asked.push(m);
        transport.approve(m.id, 'person');
      });
      const registry = new ToolRegistry().register(note);
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: registry, control: new ControlProtocol(transport) });
      const result = await agent.executeTool('note_scratch', { text: 'hi' });
      assert.equal(result.ok, true, result.content);
      assert.equal(result.approval, 'approved');
      assert.deepEqual(
        asked.map((m) => [m.tool, m.dangerLevel]),
        [['note_scratch', 'LOW']],
      );
      const alone = new BaseAgent({ llm: lb.llm, toolRegistry: new ToolRegistry().register(note) });
      const denied = await alone.executeTool('note_scratch', { text: 'hi' });
      assert.equal(denied.ok, false);
      assert.equal(denied.error?.error_code, 'TOOL_DENIED', 'no one to ask: fail closed');
      const opted = new BaseAgent({
        llm: lb.llm,
        toolRegistry: new ToolRegistry().register(note),
        toolPolicy: new ApprovalPolicy({ levels: { LOW: 'allow' } }),
      });
      assert.equal((await opted.executeTool('note_scratch', { text: 'hi' })).approval, 'auto', 'a policy may allow LOW');
    });
  });

  describe('003: a toolRegistry without workspace tools needs no workspaceRoot', () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Says it back.',
      category: 'custom',
      dangerLevel: 'SAFE',
      usesWorkspace: false,
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => text,
    });
    const fetcher = defineTool({
      name: 'fetch_thing',
      description: 'Pretends to fetch.',
      category: 'http',
      dangerLevel: 'SAFE',
      parameters: z.object({}),
      execute: async () => 'fetched',
    });

    it('custom tools that declare they work in no workspace, and http tools, run from the registry alone', async () => {
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: new ToolRegistry().register(echo, fetcher) });
      assert.equal(agent.hasToolSupport(), true);
      assert.equal((await agent.executeTool('echo', { text: 'hello' })).content, 'hello');
      assert.equal((await agent.executeTool('fetch_thing', {})).content, 'fetched');
    });

    it('a tool that works in a workspace still needs one, and the refusal names it', () => {
      const plain = defineTool({ ...echo, name: 'plain_custom', usesWorkspace: undefined });
      for (const [tools, name] of [
        [createBuiltinTools(), 'read_file'],
        [[echo, plain], 'plain_custom'],
      ] as const) {
        const error = thrown(() => new BaseAgent({ llm: lb.llm, toolRegistry: new ToolRegistry().register(...tools) }));
        assert.ok(error instanceof AgentSettingsError);
        assert.match(error.message, /workspaceRoot: toolRegistry needs the absolute path of the workspace the tools work in/);
        assert.ok(error.message.includes(name), error.message);
      }
    });

    it('a workspace tool registered after the agent was built is refused at call time, nothing run', async () => {
      const registry = new ToolRegistry().register(echo);
      let ran = false;
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: registry });
      registry.register(
        defineTool({
          name: 'late_file_tool',
          description: 'Writes somewhere.',
          category: 'file',
          dangerLevel: 'SAFE',
          parameters: z.object({}),
          execute: async () => {
            ran = true;
            return 'wrote';
          },
        }),
      );
      const result = await agent.executeTool('late_file_tool', {});
      assert.equal(result.ok, false);
      assert.equal(result.error?.error_code, 'CONFIG');
      assert.match(result.content, /late_file_tool works in a workspace/);
      assert.equal(ran, false);
    });
  });

  describe('003: execute_tool’s store_in_memory defaults to false', () => {
    it('a call is remembered only when asked', async () => {
      const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'spec-rows-')));
      try {
        const executor = new ToolExecutor({
          registry: new ToolRegistry().register(...createBuiltinTools()),
          workspaceRoot: workspace,
        });
        const agent = new BaseAgent({ llm: lb.llm, toolExecutor: executor });
        await agent.executeTool('list_files', {});
        assert.deepEqual(executor.recentCalls(), []);
        await agent.executeTool('list_files', {}, { storeInMemory: true });
        assert.equal(executor.recentCalls().length, 1);
        await agent.executeToolChain([{ name: 'list_files', params: {} }]);
        assert.equal(executor.recentCalls().length, 1, 'chain steps follow the same default');
      } finally {
        rmSync(workspace, { recursive: true, force: true });
      }
    });
  });

  describe('000 FR-002 / EP-1: a signature that cannot compile fails clearly, naming the field', () => {
    it('a type with no JSON form (z.date()) is refused at compile time', () => {
      const sig = createSignature({
        name: 'when',
        instructions: 'Say when.',
        inputs: { q: { type: z.string(), description: 'question' } },
        outputs: { at: { type: z.date(), description: 'the moment' } },
      });
      const error = thrown(() => sig.compile());
      assert.equal(error.error_code, 'CONFIG');
      assert.match(error.message, /outputs\.at: .*date.*JSON/i);
      const input = thrown(() =>
        createSignature({
          name: 'fn',
          instructions: 'x',
          inputs: { cb: { type: z.function() as never, description: 'a callback' } },
        }).compile(),
      );
      assert.match(input.message, /inputs\.cb: /);
    });

    it('a junk field type (null) is refused when the signature is created, not at execute time', () => {
      const error = thrown(() =>
        createSignature({
          name: 'junk',
          instructions: 'x',
          inputs: { q: { type: null as never, description: 'q' } },
        }),
      );
      assert.equal(error.error_code, 'CONFIG');
      assert.match(error.message, /inputs\.q: the type must be a zod type/);
      assert.match(
        thrown(() => createSignature({ name: 'junk', instructions: 'x', inputs: {}, outputs: { a: 'string' as never } })).message,
        /outputs\.a: /,
      );
      assert.match(thrown(() => createSignature({ name: '', instructions: 'x', inputs: {} })).message, /name: /);
    });
  });

  describe('000 FR-003: malformed inputs are refused before any model call, naming the field', () => {
    for (const [label, inputs, field] of [
      ['a function', { f: () => 1 }, 'f'],
      ['a BigInt', { n: 10n }, 'n'],
      ['a symbol', { s: Symbol('x') }, 's'],
      ['a nested function', { options: { cb: () => 1 } }, 'options.cb'],
      ['a non-finite number', { x: Number.POSITIVE_INFINITY }, 'x'],
      ['a Map', { m: new Map([['a', 1]]) }, 'm'],
    ] as Array<[string, Record<string, unknown>, string]>) {
      it(`${label} → VALIDATION naming ${field}`, async () => {
        const before = lb.server.chatRequests().length;
        const error = await rejection(new BaseAgent({ llm: lb.llm, config: { model: 'm' } }).execute(inputs));
        assert.equal(error.error_code, 'VALIDATION', error.message);
        assert.ok(error.message.startsWith(`${field}: `), error.message);
        assert.equal(error.details.field, field);
        assert.equal(lb.server.chatRequests().length, before, 'no model call');
      });
    }

    it('a circular value → VALIDATION naming the field (also with errorHandling)', async () => {
      const loop: Record<string, unknown> = { a: 1 };
      loop.self = loop;
      const before = lb.server.chatRequests().length;
      const result = await new BaseAgent({ llm: lb.llm, config: { model: 'm', errorHandling: true } }).execute({ data: loop });
      assert.equal(result.error?.error_code, 'VALIDATION');
      assert.match(result.error!.message, /^data\.self: refers back to itself/);
      assert.equal(lb.server.chatRequests().length, before);
    });

    it('a value added by preExecute is checked too, before the model call', async () => {
      class Adds extends BaseAgent {
        override preExecute(inputs: Record<string, unknown>): Record<string, unknown> {
          return { ...inputs, extra: () => 2 };
        }
      }
      const error = await rejection(new Adds({ llm: lb.llm, config: { model: 'm' } }).execute({ prompt: 'x' }));
      assert.equal(error.error_code, 'VALIDATION');
      assert.match(error.message, /^extra: /);
    });
  });

  describe('000 FR-012 / SS-2: parseResult returning a non-object is wrapped as { result }', () => {
    for (const [label, value, expected] of [
      ['a string', 'just a string', 'just a string'],
      ['a number', 42, '42'],
      ['an array', ['a', 'b'], '["a","b"]'],
      ['null', null, 'null'],
    ] as Array<[string, unknown, string]>) {
      it(`${label} becomes { result: ${JSON.stringify(expected)} }`, async () => {
        class P extends QAAgent {
          override parseResult(): Record<string, unknown> {
            return value as never;
          }
        }
        lb.server.enqueue(QA_REPLY);
        const { metadata, ...fields } = await new P({ llm: lb.llm, config: { model: 'm' } }).execute({ question: 'q' });
        assert.deepEqual(fields, { result: expected });
        assert.equal(metadata.terminationReason, 'finish');
      });
    }

    it('a parseResult or postExecute that returns nothing is a CONFIG error naming it', async () => {
      class Forgot extends QAAgent {
        override parseResult(): Record<string, unknown> {
          return undefined as never;
        }
      }
      lb.server.enqueue(QA_REPLY);
      const error = await rejection(new Forgot({ llm: lb.llm, config: { model: 'm' } }).execute({ question: 'q' }));
      assert.equal(error.error_code, 'CONFIG');
      assert.match(error.message, /parseResult: returned nothing/);
      class ForgotPost extends QAAgent {
        override postExecute(): Record<string, unknown> {
          return undefined as never;
        }
      }
      lb.server.enqueue(QA_REPLY);
      assert.match(
        (await rejection(new ForgotPost({ llm: lb.llm, config: { model: 'm' } }).execute({ question: 'q' }))).message,
        /postExecute: returned nothing/,
      );
    });
  });

  describe('000 FR-006: nested causes are kept, and the tighter timeout applies', () => {
    it('an error with a cause keeps the chain in details.causes (redacted, bounded)', async () => {
      class Failing extends QAAgent {
        override postExecute(): Record<string, unknown> {
          throw new Error('outer', {
            cause: new RangeError('inner api_key=abcdef1234567890', { cause: new TypeError('deepest') }),
          });
        }
      }
      lb.server.enqueue(QA_REPLY);
      const result = await new Failing({ llm: lb.llm, config: { model: 'm', errorHandling: true } }).execute({ question: 'q' });
      assert.equal(result.error?.error_code, 'UNKNOWN');
      assert.equal(result.error?.message, 'outer');
      const causes = result.error?.details.causes as Array<{ name: string; message: string }>;
      assert.deepEqual(
        causes.map((c) => c.name),
        ['RangeError', 'TypeError'],
      );
      assert.match(causes[0]!.message, /^inner /);
      assert.ok(!JSON.stringify(result.error).includes('abcdef1234567890'), 'redacted');
      assert.equal(causes[1]!.message, 'deepest');

      let deep: Error = new Error('level 0');
      for (let i = 1; i <= 20; i++) deep = new Error(`level ${i}`, { cause: deep });
      const circular = new Error('a');
      const b = new Error('b', { cause: circular });
      (circular as { cause?: unknown }).cause = b;
      for (const [top, most] of [
        [deep, 5],
        [circular, 2],
      ] as const) {
        class Deep extends QAAgent {
          override postExecute(): Record<string, unknown> {
            throw top;
          }
        }
        lb.server.enqueue(QA_REPLY);
        const r = await new Deep({ llm: lb.llm, config: { model: 'm', errorHandling: true } }).execute({ question: 'q' });
        const list = r.error?.details.causes as unknown[];
        assert.ok(list.length <= most, JSON.stringify(list));
      }
    });

    it('a thrown error without errorHandling carries the same causes', async () => {
      const hooked = new QAAgent({ llm: lb.llm, config: { model: 'm' } }).withLifecycle({
        name: 'guard',
        afterAgent: () => {
          throw new Error('afterAgent broke', { cause: new SyntaxError('bad token') });
        },
      });
      lb.server.enqueue(QA_REPLY);
      const error = await rejection(hooked.execute({ question: 'q' }));
      assert.ok(error instanceof HookError);
      assert.deepEqual(error.details.causes, [{ name: 'SyntaxError', message: 'bad token' }]);
    });

    describe('a client created with a tight timeoutMs', () => {
      const slowReply = async () => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return QA_REPLY;
      };

      it('applies under an agent that sets none, and wins over a looser agent setting', async () => {
        const llm = createOpenAIClient({ baseURL: lb.server.baseURL, maxRetries: 0, timeoutMs: 300 });
        for (const config of [{ model: 'm' }, { model: 'm', timeoutMs: 120_000 }]) {
          lb.server.enqueue(slowReply);
          const error = await rejection(new QAAgent({ llm, config }).execute({ question: 'q' }));
          assert.equal(error.error_code, 'TIMEOUT', `${JSON.stringify(config)}: ${error.message}`);
        }
      });

      it('a tighter agent setting wins over a looser client', async () => {
        const llm = createOpenAIClient({ baseURL: lb.server.baseURL, maxRetries: 0, timeoutMs: 60_000 });
        lb.server.enqueue(slowReply);
        const error = await rejection(new QAAgent({ llm, config: { model: 'm', timeoutMs: 300 } }).execute({ question: 'q' }));
        assert.equal(error.error_code, 'TIMEOUT');
      });

      it('a client’s looser explicit timeout is not cut to the agent default', async () => {
        const llm = createOpenAIClient({ baseURL: lb.server.baseURL, maxRetries: 0, timeoutMs: 30_000 });
        assert.equal(llm.timeoutMs, 30_000);
        lb.server.enqueue(slowReply);
        const agent = new QAAgent({ llm, config: { model: 'm' } });
        assert.equal(agent.config.timeoutMs, undefined, 'unset unless given');
        assert.equal((await agent.execute({ question: 'q' })).answer, 'Paris');
      });
    });
  });

  describe('000 EP-6: partial performance targets merge over the defaults', () => {
    it('a subclass giving only executionP95Ms keeps the other default targets', () => {
      class P extends QAAgent {
        override performanceTargets(): PerformanceTargets {
          return { executionP95Ms: 1000 };
        }
      }
      const agent = new P({ llm: lb.llm, config: { model: 'm', performanceTracking: true } });
      agent.metrics!.recordAgentCreation(500);
      assert.deepEqual(
        agent.checkPerformanceTargets().filter((m) => m.startsWith('agentCreationP95Ms')),
        ['agentCreationP95Ms: 500.000 > 200'],
      );
    });

    it('an unknown target name is refused, naming it', () => {
      class Typo extends QAAgent {
        override performanceTargets(): PerformanceTargets {
          return { execution_max_ms: 1000 } as never;
        }
      }
      const error = thrown(() => new Typo({ llm: lb.llm, config: { model: 'm', performanceTracking: true } }));
      assert.ok(error instanceof AgentSettingsError);
      assert.match(error.message, /performanceTargets\.execution_max_ms: not a performance target \(targets: /);
    });
  });

  describe('the preExecute extension point', () => {
    it('a preExecute that returns no object is a CONFIG error naming it', async () => {
      class Bad extends BaseAgent {
        override preExecute(_inputs: Record<string, unknown>, _run: AgentRun): Record<string, unknown> {
          return 'x' as never;
        }
      }
      const before = lb.server.chatRequests().length;
      const error = await rejection(new Bad({ llm: lb.llm, config: { model: 'm' } }).execute({ prompt: 'x' }));
      assert.equal(error.error_code, 'CONFIG');
      assert.match(error.message, /preExecute: must return an object of inputs/);
      assert.equal(lb.server.chatRequests().length, before);
    });
  });
});
