import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  AgentError,
  AgentFactory,
  AgentSettingsError,
  AuditTrail,
  BaseAgent,
  HookError,
  QAAgent,
  ReActAgent,
  ToolExecutor,
  ToolRegistry,
  createBuiltinTools,
  type AgentConfigExtensions,
  type AgentToolbox,
  type ToolCallResult,
} from '../../../src/core';
import { useLoopback } from './loopback';

// Rows of the specifications (../shared/specs) probed through the public entry `tdd-agent/core` (src/core/index.ts).

const ROOT = join(__dirname, '..', '..', '..');

function thrown(fn: () => unknown): AgentError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AgentError, String(error));
    return error;
  }
  assert.fail('expected an AgentError');
}

/** An AuditTrail writing into an array of parsed JSON lines. */
function auditLines(): { trail: AuditTrail; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { trail: new AuditTrail(out), lines };
}

describe('specification rows through tdd-agent/core (loopback server)', () => {
  const lb = useLoopback();
  let workspace: string;
  let registry: ToolRegistry;
  beforeEach(() => {
    lb.server.setFallback(undefined);
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'spec-rows-')));
    writeFileSync(join(workspace, 'notes.txt'), 'the answer is 42\n');
    registry = new ToolRegistry().register(...createBuiltinTools());
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  describe('003 D2: toolRegistry and toolExecutor together', () => {
    it('are accepted when the executor works on that registry (and in that workspace): the agent uses the given executor', async () => {
      const ran: string[] = [];
      const executor = new ToolExecutor({ registry, workspaceRoot: workspace, audit: (r) => void ran.push(r.tool) });
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: registry, toolExecutor: executor, workspaceRoot: workspace });
      assert.equal(agent.hasToolSupport(), true);
      const result = await agent.executeTool('read_file', { path: 'notes.txt' });
      assert.equal(result.ok, true, result.content);
      assert.match(result.content, /the answer is 42/);
      assert.deepEqual(ran, ['read_file'], 'the given executor ran the call');
      assert.doesNotThrow(() => new BaseAgent({ llm: lb.llm, toolRegistry: registry, toolExecutor: executor }));
    });

    it('are refused, naming both, when the executor works on another registry or in another workspace', () => {
      const executor = new ToolExecutor({ registry: new ToolRegistry(), workspaceRoot: workspace });
      const error = thrown(() => new BaseAgent({ llm: lb.llm, toolRegistry: registry, toolExecutor: executor }));
      assert.ok(error instanceof AgentSettingsError);
      assert.equal(error.error_code, 'CONFIG');
      assert.match(error.message, /toolRegistry, toolExecutor: the executor works on another registry/);
      const elsewhere = new ToolExecutor({ registry, workspaceRoot: workspace });
      const other = realpathSync(tmpdir());
      assert.match(
        thrown(() => new BaseAgent({ llm: lb.llm, toolRegistry: registry, toolExecutor: elsewhere, workspaceRoot: other }))
          .message,
        /workspaceRoot, toolExecutor: the executor works in .* not in /,
      );
    });
  });

  describe('000 EP-2: agent ids', () => {
    it('a non-string id is converted to a string', () => {
      assert.equal(new QAAgent({ llm: lb.llm, id: 42 as never }).id, '42');
      assert.equal(new BaseAgent({ llm: lb.llm, id: 7n as never }).id, '7');
    });

    it('an id with no sensible text (an object, a function) is a CONFIG error naming id', () => {
      for (const id of [{}, () => 'x', Symbol('s')]) {
        const error = thrown(() => new BaseAgent({ llm: lb.llm, id: id as never }));
        assert.equal(error.error_code, 'CONFIG');
        assert.match(error.message, /id: must be a string/);
      }
    });

    it('an empty agentKind() gives the default prefix, like an empty id', () => {
      class Empty extends BaseAgent {
        protected override agentKind(): string {
          return '';
        }
      }
      class Numbered extends BaseAgent {
        protected override agentKind(): string {
          return 3 as never;
        }
      }
      assert.match(new Empty({ llm: lb.llm }).id, /^agent-\d+$/);
      assert.match(new Numbered({ llm: lb.llm }).id, /^3-\d+$/);
    });
  });

  describe('000 EP-4: provider-specific extension settings', () => {
    it('reach the model in the request body, next to the settings the client sets', async () => {
      class Tuned extends QAAgent {
        protected override configExtensions(): AgentConfigExtensions {
          return { generation_config: { step_verification: true } };
        }
      }
      lb.server.enqueue({ json: { answer: 'yes', confidence: 0.9, reasoning: 'r' } });
      const before = lb.server.chatRequests().length;
      const result = await new Tuned({ llm: lb.llm, config: { model: 'm' } }).execute({ question: 'Sent?' });
      assert.equal(result.answer, 'yes');
      const body = lb.server.chatRequests()[before]!.body as Record<string, unknown>;
      assert.deepEqual(body.generation_config, { step_verification: true });
      assert.equal(body.model, 'm');
    });

    it('an extension named like a request field the client sets itself is a CONFIG error, not silently overwritten', () => {
      class Clash extends BaseAgent {
        protected override configExtensions(): AgentConfigExtensions {
          return { messages: [], response_format: { type: 'text' } };
        }
      }
      const error = thrown(() => new Clash({ llm: lb.llm }));
      assert.equal(error.error_code, 'CONFIG');
      assert.match(error.message, /messages: .*request field the client sets itself/);
      assert.match(error.message, /response_format: /);
    });
  });

  describe('002 NFR-5: a wrap hook that returns nothing', () => {
    // The check is the hook runner's (src/core/agentRuntime/hookRunner.ts); these pin what a person sees.
    it('wrapModelCall: a HookError naming the hook and the hook point, not a TypeError about usage', async () => {
      lb.server.setFallback({ json: { answer: 'a', confidence: 0.5, reasoning: 'r' } });
      const agent = new QAAgent({ llm: lb.llm, config: { model: 'm' } }).withLifecycle({
        name: 'cache',
        wrapModelCall: async () => undefined as never,
      });
      await assert.rejects(
        agent.execute({ question: 'Q?' }),
        (e: unknown) =>
          e instanceof HookError &&
          e.hook === 'cache' &&
          e.hookPoint === 'wrapModelCall' &&
          /"cache".*wrapModelCall/.test(e.message) &&
          /Return the response/.test(e.message) &&
          !/reading 'usage'/.test(e.message),
      );
    });

    it('wrapToolCall: a failed tool result naming the hook, never an undefined result', async () => {
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: registry, workspaceRoot: workspace }).withLifecycle({
        name: 'timer',
        wrapToolCall: async () => undefined as never,
      });
      const result = await agent.executeTool('read_file', { path: 'notes.txt' });
      assert.equal(result.ok, false);
      assert.match(result.content, /"timer".*wrapToolCall.*Return the result/);
    });
  });

  describe('a tool wrapper that returns nothing (the executor, 003)', () => {
    it('gives a failed result saying what the wrapper must return, never an undefined result or a throw', async () => {
      const executor = new ToolExecutor({ registry, workspaceRoot: workspace, wrap: async () => undefined as never });
      const result = await executor.executeTool('read_file', { path: 'notes.txt' });
      assert.equal(result.ok, false);
      assert.equal(result.error?.error_code, 'CONFIG');
      assert.match(result.content, /A wrapToolCall hook around read_file returned nothing; it must return the tool result/);
      const odd = new ToolExecutor({ registry, workspaceRoot: workspace, wrap: async () => ({ ok: 'yes' }) as never });
      assert.match(
        (await odd.executeTool('read_file', { path: 'notes.txt' })).content,
        /returned something that is not a tool result/,
      );
    });
  });

  describe("the agent's audit trail (000 NFR-016)", () => {
    it('records every executeTool and executeToolChain call with the agent id, redacted parameters and the outcome', async () => {
      const { trail, lines } = auditLines();
      const agent = new BaseAgent({
        llm: lb.llm,
        id: 'auditor',
        toolRegistry: registry,
        workspaceRoot: workspace,
        audit: trail,
        config: { auditTrail: true },
      });
      await agent.executeTool('read_file', { path: 'notes.txt' });
      await agent.executeTool('no_such_tool', {});
      await agent.executeToolChain([{ name: 'list_files', params: {} }]);
      const calls = lines.filter((l) => l.event === 'tool_call');
      assert.deepEqual(
        calls.map((l) => [l.agentId, l.tool, l.ok, l.errorCode]),
        [
          ['auditor', 'read_file', true, undefined],
          ['auditor', 'no_such_tool', false, 'TOOL_NOT_FOUND'],
          ['auditor', 'list_files', true, undefined],
        ],
      );
      assert.deepEqual(calls[0]!.params, { path: 'notes.txt' });
      assert.equal(typeof calls[0]!.timestamp, 'string');
      assert.equal(typeof calls[0]!.durationMs, 'number');
    });

    it('records nothing for tools without auditTrail', async () => {
      const { trail, lines } = auditLines();
      const agent = new BaseAgent({ llm: lb.llm, toolRegistry: registry, workspaceRoot: workspace, audit: trail });
      await agent.executeTool('read_file', { path: 'notes.txt' });
      assert.deepEqual(lines, []);
    });
  });

  describe('004 3.3: agent configs are JSON with comments (as VS Code reads its settings)', () => {
    // The specification's A2 example, copied as it stands, comment included.
    const A2 = `{
  "agent_name": "A2",
  "version": "v1",

  "mode": "Chooser",         // Chooser | Writer | Extractor

  "system_text": "You are A2 PromptShaper. ...",
  "purpose_text": "You must inspect task/purpose/context and choose labels for system, audience, tone, response_depth, confidence.",

  "output_schema": {
    "type": "object",
    "required": ["system", "audience", "tone", "response_depth", "confidence"],
    "properties": {
      "system": {
        "type": "string",
        "enum": ["Python_Programmer", "AWS_Architect", "Friend"]
      },
      "audience": {
        "type": "string",
        "enum": ["Developer", "Manager", "Friend", "Self"]
      },
      "tone": {
        "type": "string",
        "enum": ["direct", "friendly", "formal"]
      },
      "response_depth": {
        "type": "string",
        "enum": ["short", "detailed", "exhaustive"]
      },
      "confidence": {
        "type": "string",
        "enum": ["low", "medium", "high"]
      }
    }
  },

  "enums": {
    "system": ["Python_Programmer", "AWS_Architect", "Friend"],
    "audience": ["Developer", "Manager", "Friend", "Self"],
    "tone": ["direct", "friendly", "formal"],
    "response_depth": ["short", "detailed", "exhaustive"],
    "confidence": ["low", "medium", "high"]
  },

  "defaults": {
    "tone": "direct",
    "response_depth": "detailed",
    "confidence": "medium"
  },

  "model_name": "gpt-4.1-mini",
  "temperature": 0.0,
  "max_output_tokens": 256
}
`;
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'agents-jsonc-'));
      mkdirSync(join(root, 'A2'));
    });
    afterEach(() => {
      AgentFactory.clearCache();
      rmSync(root, { recursive: true, force: true });
    });

    it("the specification's A2 config loads as written", () => {
      writeFileSync(join(root, 'A2', 'v1.json'), A2);
      const prompt = AgentFactory.create('A2', 'v1', undefined, { configRoot: root });
      assert.equal(prompt.config.mode, 'Chooser');
      assert.deepEqual(prompt.config.defaults, { tone: 'direct', response_depth: 'detailed', confidence: 'medium' });
    });

    it('block comments, comment-like text inside strings and trailing commas', () => {
      const text = A2.replace('"version": "v1",', '/* the version */ "version": "v1",')
        .replace('"You are A2 PromptShaper. ..."', '"You are A2 // not a comment /* nor this */"')
        .replace('"max_output_tokens": 256', '"max_output_tokens": 256,');
      writeFileSync(join(root, 'A2', 'v1.json'), text);
      const prompt = AgentFactory.create('A2', 'v1', undefined, { configRoot: root });
      assert.equal(prompt.config.system_text, 'You are A2 // not a comment /* nor this */');
    });

    it('a syntax error after a comment keeps its file, line and column', () => {
      const file = join(root, 'A2', 'v1.json');
      writeFileSync(file, A2.replace('"system_text": "You', '"system_text" "You'));
      const error = thrown(() => AgentFactory.create('A2', 'v1', undefined, { configRoot: root }));
      assert.equal(error.error_code, 'CONFIG');
      assert.match(error.message, /is not valid JSON/);
      assert.equal(error.details.line, 7);
      assert.equal(error.details.column, 17);
      assert.ok(error.message.includes(`${file}:7:17`), error.message);
    });

    it('an unterminated block comment is an error at the comment', () => {
      writeFileSync(join(root, 'A2', 'v1.json'), A2.replace('"version": "v1",', '"version": "v1", /* never closed'));
      const error = thrown(() => AgentFactory.create('A2', 'v1', undefined, { configRoot: root }));
      assert.equal(error.details.line, 3);
      assert.equal(error.details.column, 20);
      assert.match(error.message, /unterminated comment/i);
    });
  });

  describe('001 system prompt template: the TDD roles', () => {
    for (const role of ['tester', 'implementer', 'refactorer']) {
      it(`${role}: role, responsibilities, constraints, available tools (named), output format and success criteria`, () => {
        const prompt = AgentFactory.create(role, 'v1');
        const [system] = prompt.compose({ context: '# This turn\n- cycle: 1\n- attempt: 1' }).messages;
        const text = String(system!.content);
        assert.match(text, new RegExp(`^agent: ${role}/v1\\n`));
        const sections = ['Role', 'Responsibilities', 'Constraints', 'Available Tools', 'Output Format', 'Success Criteria'];
        let at = -1;
        for (const section of sections) {
          const next = text.indexOf(`${section}:`);
          assert.ok(next > at, `${role}: "${section}:" missing or out of order`);
          at = next;
        }
        for (const tool of prompt.config.tools ?? []) assert.match(text, new RegExp(`\\b${tool}\\b`), `${role} names ${tool}`);
      });
    }
  });

  describe('000 NFR-008: the tool loop of the strategies (createToolLoopCycles), branch by branch', () => {
    /** A toolbox offering one tool, `probe`, whose calls run `act`. */
    const toolbox = (act: () => Promise<ToolCallResult>): AgentToolbox => ({
      toolSpecs: () => [{ type: 'function', function: { name: 'probe', description: 'probe', parameters: { type: 'object' } } }],
      executeCall: act,
    });

    it('a refused call (no tools) still passes through the wrapToolCall hooks', async () => {
      const seen: string[] = [];
      const agent = new ReActAgent({ llm: lb.llm, config: { model: 'm' } }).withLifecycle({
        name: 'watch',
        wrapToolCall: async (name, next) => {
          seen.push(name);
          return next();
        },
      });
      lb.server.enqueue({ toolCalls: [{ name: 'probe', arguments: {} }] }, { text: 'done' });
      const result = await agent.execute({ task: 't' });
      assert.deepEqual(seen, ['probe']);
      assert.match(result.observations![0]!, /No tools are available to this agent/);
      assert.equal(result.final_answer, 'done');
    });

    it('arguments that are not JSON are kept as the raw text in the action history', async () => {
      const agent = new ReActAgent({ llm: lb.llm, config: { model: 'm' } });
      lb.server.enqueue({ toolCalls: [{ name: 'probe', arguments: '{not json' }] }, { text: 'done' });
      const result = await agent.execute({ task: 't' });
      assert.equal(result.action_history![0]!.action_input, '{not json');
    });

    it('a toolbox that throws a non-Error becomes a failed observation; a HookError it throws ends the run', async () => {
      const throwsText = new ReActAgent({
        llm: lb.llm,
        config: { model: 'm' },
        toolbox: toolbox(() => Promise.reject('boom' as unknown as Error)),
      });
      lb.server.enqueue({ toolCalls: [{ name: 'probe', arguments: {} }] }, { text: 'done' });
      assert.match((await throwsText.execute({ task: 't' })).observations![0]!, /Tool probe failed: boom/);
      const hookError = new HookError('inner', 'wrapToolCall', 'UNKNOWN', new Error('inner hook broke'));
      const throwsHook = new ReActAgent({
        llm: lb.llm,
        config: { model: 'm' },
        toolbox: toolbox(() => Promise.reject(hookError)),
      });
      lb.server.enqueue({ toolCalls: [{ name: 'probe', arguments: {} }] });
      await assert.rejects(throwsHook.execute({ task: 't' }), (e: unknown) => e === hookError);
    });

    it('a toolbox that throws once the run is cancelled ends the run as cancelled', async () => {
      const controller = new AbortController();
      const agent = new ReActAgent({
        llm: lb.llm,
        config: { model: 'm', errorHandling: true },
        toolbox: toolbox(() => {
          controller.abort();
          return Promise.reject(new Error('interrupted'));
        }),
      });
      lb.server.enqueue({ toolCalls: [{ name: 'probe', arguments: {} }] });
      const result = await agent.execute({ task: 't' }, { signal: controller.signal });
      assert.equal(result.metadata.terminationReason, 'cancelled');
    });
  });

  describe('000 NFR-009: the built-in agents are small', () => {
    it('QA, CoT and ReAct with their own helpers (every file of builtinAgents/) take under 200 lines', () => {
      const dir = join(ROOT, 'src', 'core', 'builtinAgents');
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
      const counts = files.map((f) => [f, readFileSync(join(dir, f), 'utf8').split('\n').length - 1] as const);
      const total = counts.reduce((n, [, lines]) => n + lines, 0);
      assert.ok(total < 200, `${total} lines: ${counts.map(([f, n]) => `${f} ${n}`).join(', ')}`);
      assert.equal(new ReActAgent({ llm: lb.llm }).strategyName, 'multi_cycle');
    });
  });
});
