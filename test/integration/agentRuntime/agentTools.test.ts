import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { BaseAgent } from '../../../src/core/agentRuntime/baseAgent';
import { AgentSettingsError } from '../../../src/core/agentRuntime/errors';
import { ReActAgent } from '../../../src/core/builtinAgents/reactAgent';
import { ControlProtocol } from '../../../src/core/control/controlProtocol';
import { InMemoryTransport } from '../../../src/core/control/inMemoryTransport';
import type { ApprovalRequestMessage } from '../../../src/core/control/messages';
import { AgentError } from '../../../src/core/errors/agentError';
import { ApprovalPolicy, ToolExecutor, ToolRegistry, createBuiltinTools, defineTool } from '../../../src/core/tools';
import { useLoopback } from './loopback';

/** A tool that only finishes when its signal aborts (the per-call timeout). */
const waitTool = defineTool({
  name: 'wait_forever',
  description: 'Waits until cancelled.',
  category: 'custom',
  dangerLevel: 'SAFE',
  parameters: z.object({}),
  execute: (_params, context) =>
    new Promise((_resolve, reject) =>
      context.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
    ),
});

function catchError(fn: () => unknown): AgentError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AgentError, String(error));
    return error;
  }
  assert.fail('expected an error');
}

describe('BaseAgent tool integration (real ToolRegistry of built-in tools, temp workspace)', () => {
  const lb = useLoopback();
  let workspace: string;
  let registry: ToolRegistry;
  let transport: InMemoryTransport;
  let control: ControlProtocol;
  let requests: ApprovalRequestMessage[];

  beforeEach(() => {
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'agent-tools-')));
    writeFileSync(join(workspace, 'notes.txt'), 'the answer is 42\n');
    registry = new ToolRegistry().register(...createBuiltinTools(), waitTool);
    transport = new InMemoryTransport();
    requests = [];
    transport.onAgentMessage((m) => {
      if (m.type !== 'approval_request') return;
      requests.push(m);
      if ((m.params as { path?: string }).path === 'secret.txt') transport.deny(m.id, 'not that one');
      else transport.approve(m.id);
    });
    control = new ControlProtocol(transport);
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  describe('without tools', () => {
    it('hasToolSupport() is false and every tool method throws (or rejects with) a CONFIG error saying how to add tools', async () => {
      const agent = new BaseAgent({ llm: lb.llm, id: 'plain' });
      assert.equal(agent.hasToolSupport(), false);
      const errors: Array<[string, unknown]> = [
        [
          'discoverTools',
          (() => {
            try {
              agent.discoverTools();
            } catch (error) {
              return error;
            }
          })(),
        ],
      ];
      errors.push(['executeTool', await agent.executeTool('read_file', { path: 'notes.txt' }).catch((e: unknown) => e)]);
      errors.push([
        'executeToolChain',
        await agent.executeToolChain([{ name: 'read_file', params: { path: 'notes.txt' } }]).catch((e: unknown) => e),
      ]);
      for (const [method, error] of errors) {
        assert.ok(error instanceof AgentError, `${method}: ${String(error)}`);
        assert.equal(error.error_code, 'CONFIG');
        assert.match(
          error.message,
          new RegExp(
            `^${method}: agent plain has no tools\\. Construct it with \\{ toolRegistry, workspaceRoot \\} or \\{ toolExecutor \\}`,
          ),
        );
      }
    });
  });

  describe('constructor options', () => {
    it('rejects an unknown option instead of ignoring it, naming it and the known ones', () => {
      const error = catchError(() => new BaseAgent({ llm: lb.llm, toolRegistery: registry } as never));
      assert.ok(error instanceof AgentSettingsError);
      assert.match(error.message, /toolRegistery: not an option of BaseAgent \(options: .*toolRegistry/);
      assert.deepEqual(error.details.unknownOptions, ['toolRegistery']);
    });

    it("accepts a subclass's own options and rejects the rest (ReActAgent)", () => {
      assert.doesNotThrow(() => new ReActAgent({ llm: lb.llm, window: {}, maxObservationChars: 100 }));
      const error = catchError(() => new ReActAgent({ llm: lb.llm, tools: ['read_file'] } as never));
      assert.match(error.message, /tools: not an option of ReActAgent/);
    });

    it('rejects inconsistent tool options', () => {
      const executor = new ToolExecutor({ registry, workspaceRoot: workspace });
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ toolRegistry: registry }, /workspaceRoot: toolRegistry needs the absolute path/],
        [
          { toolRegistry: new ToolRegistry(), toolExecutor: executor },
          /toolRegistry, toolExecutor: the executor works on another/,
        ],
        [{ workspaceRoot: workspace }, /workspaceRoot: only applies with toolRegistry/],
        [{ toolExecutor: executor, toolPolicy: new ApprovalPolicy() }, /toolPolicy: only applies with toolRegistry/],
        [{ toolExecutor: { executeTool() {} } }, /toolExecutor: must be a ToolExecutor/],
        [{ toolRegistry: {}, workspaceRoot: workspace }, /toolRegistry: must be a ToolRegistry/],
      ];
      for (const [options, message] of cases) {
        const error = catchError(() => new BaseAgent({ llm: lb.llm, ...options } as never));
        assert.equal(error.error_code, 'CONFIG');
        assert.match(error.message, message);
      }
      assert.match(
        catchError(() => new ReActAgent({ llm: lb.llm, toolbox: executor, toolExecutor: executor })).message,
        /give the tools one way/,
      );
    });
  });

  describe('with a toolRegistry', () => {
    it('discovers tools by category, safeOnly and keyword', () => {
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: registry, workspaceRoot: workspace, control });
      assert.equal(agent.hasToolSupport(), true);
      assert.equal(agent.discoverTools().length, registry.size);
      const names = (query: Parameters<BaseAgent['discoverTools']>[0]) =>
        agent
          .discoverTools(query)
          .map((t) => t.name)
          .sort();
      assert.deepEqual(names({ category: 'git' }), ['git_commit', 'git_diff', 'git_status']);
      assert.deepEqual(names({ category: 'git', safeOnly: true }), ['git_diff', 'git_status']);
      assert.ok(names({ safeOnly: true }).every((n) => registry.get(n)!.dangerLevel === 'SAFE'));
      assert.deepEqual(names({ keyword: 'WAITS UNTIL' }), ['wait_forever']);
    });

    it('executeTool runs a SAFE read at once and asks the shared control protocol before a write', async () => {
      const agent = new BaseAgent({ llm: lb.llm, id: 'writer-agent', toolRegistry: registry, workspaceRoot: workspace, control });
      const read = await agent.executeTool('read_file', { path: 'notes.txt' });
      assert.equal(read.ok, true, read.content);
      assert.match(read.content, /the answer is 42/);
      assert.equal(requests.length, 0);

      const write = await agent.executeTool('write_file', { path: 'out.txt', content: 'hello\n' });
      assert.equal(write.ok, true, write.content);
      assert.equal(readFileSync(join(workspace, 'out.txt'), 'utf8'), 'hello\n');
      assert.equal(requests.length, 1);
      assert.equal(requests[0]!.tool, 'write_file');

      const denied = await agent.executeTool('write_file', { path: 'secret.txt', content: 'x' });
      assert.equal(denied.ok, false);
      assert.equal(denied.approval, 'denied');
      assert.match(denied.content, /Nothing was executed or changed/);
    });

    it('executeTool honours timeout, and reports bad calls as results instead of throwing', async () => {
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: registry, workspaceRoot: workspace });
      const slow = await agent.executeTool('wait_forever', {}, { timeout: 50 });
      assert.equal(slow.ok, false);
      assert.match(slow.content, /wait_forever did not finish within 0\.05 s and was cancelled/);
      const unknown = await agent.executeTool('no_such_tool', {});
      assert.equal(unknown.ok, false);
      assert.match(unknown.content, /no_such_tool/);
    });

    it('without a control protocol a call that needs a person is denied (fail closed)', async () => {
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: registry, workspaceRoot: workspace });
      const write = await agent.executeTool('write_file', { path: 'out.txt', content: 'x' });
      assert.equal(write.ok, false);
      assert.equal(write.approval, 'denied');
    });

    it('a toolPolicy applies to the executor it builds', async () => {
      const agent = new BaseAgent({
        llm: lb.llm,
        toolRegistry: registry,
        workspaceRoot: workspace,
        toolPolicy: new ApprovalPolicy({ tools: { read_file: 'deny' } }),
      });
      const read = await agent.executeTool('read_file', { path: 'notes.txt' });
      assert.equal(read.ok, false);
      assert.equal(read.approval, 'policy_denied');
    });

    it('executeToolChain runs the steps in order; stopOnError (the default) stops at the first failure and lists the skipped steps', async () => {
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: registry, workspaceRoot: workspace, control });
      const steps = [
        { name: 'read_file', params: { path: 'notes.txt' } },
        { name: 'read_file', params: { path: 'missing.txt' } },
        { name: 'write_file', params: { path: 'after.txt', content: 'ran\n' } },
      ];
      const stopped = await agent.executeToolChain(steps);
      assert.equal(stopped.ok, false);
      assert.equal(stopped.stoppedAt, 1);
      assert.deepEqual(stopped.skipped, ['write_file']);
      assert.equal(stopped.results.length, 2);
      assert.throws(() => readFileSync(join(workspace, 'after.txt')));

      const all = await agent.executeToolChain(steps, { stopOnError: false });
      assert.equal(all.ok, false);
      assert.equal(all.results.length, 3);
      assert.deepEqual(
        all.results.map((r) => r.ok),
        [true, false, true],
      );
      assert.equal(readFileSync(join(workspace, 'after.txt'), 'utf8'), 'ran\n');
      await assert.rejects(agent.executeToolChain('read_file' as never), /steps: executeToolChain takes an array/);
    });

    it("the agent's wrapToolCall hooks wrap its direct tool calls", async () => {
      const seen: string[] = [];
      const agent = new BaseAgent({
        llm: lb.llm,
        toolRegistry: registry,
        workspaceRoot: workspace,
        lifecycle: { name: 'spy', wrapToolCall: async (tool, next) => (seen.push(tool), next()) },
      });
      await agent.executeTool('read_file', { path: 'notes.txt' });
      await agent.executeToolChain([{ name: 'list_files', params: {} }]);
      assert.deepEqual(seen, ['read_file', 'list_files']);
    });

    it('a ReActAgent built with a toolRegistry lets the model call those tools through the same approval channel', async () => {
      const agent = new ReActAgent({
        llm: lb.llm,
        toolRegistry: registry,
        workspaceRoot: workspace,
        control,
        config: { model: 'm' },
      });
      lb.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'answer.txt', content: '42\n' } }] });
      lb.server.enqueue({ text: 'Wrote the answer.' });
      const result = await agent.execute({ task: 'Write the answer to answer.txt.' });
      assert.equal(result.final_answer, 'Wrote the answer.');
      assert.equal(readFileSync(join(workspace, 'answer.txt'), 'utf8'), '42\n');
      assert.equal(requests.length, 1);
      const offered = (lb.server.chatRequests().at(-2)!.body.tools as Array<{ function: { name: string } }>).map(
        (t) => t.function.name,
      );
      assert.ok(offered.includes('write_file') && offered.includes('wait_forever'), offered.join(', '));
    });
  });

  describe('with a given toolExecutor', () => {
    it('uses it: calls land in its memory (storeInMemory honoured) and discovery reads its registry', async () => {
      const executor = new ToolExecutor({ registry, workspaceRoot: workspace });
      const agent = new BaseAgent({ llm: lb.llm, id: 'exec-agent', toolExecutor: executor });
      assert.equal(agent.hasToolSupport(), true);
      // storeInMemory defaults to false on the agent (003: store_in_memory: bool = False): only the call asking is kept.
      await agent.executeTool('read_file', { path: 'notes.txt' }, { storeInMemory: true });
      await agent.executeTool('list_files', {});
      const remembered = executor.recentCalls();
      assert.deepEqual(
        remembered.map((c) => c.result.toolName),
        ['read_file'],
      );
      assert.deepEqual(
        agent.discoverTools({ category: 'test' }).map((t) => t.name),
        ['run_tests'],
      );
    });
  });
});
