import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGENTS_DIR_ENV,
  AgentConfigError,
  AgentFactory,
  AgentPrompt,
  UnknownAgentConfigError,
  resolveConfigRoot,
} from '../../../src/core/agentsAsData';
import { AgentError } from '../../../src/core/errors/agentError';
import { TempAgents, validConfig } from './agentFixtures';

const REPO_AGENTS = join(__dirname, '..', '..', '..', 'config', 'agents');

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  assert.fail('expected an error');
}

describe('AgentFactory', () => {
  let temp: TempAgents;
  beforeEach(() => {
    temp = new TempAgents();
    AgentFactory.clearCache();
  });
  afterEach(() => temp.remove());

  describe('shipped agents', () => {
    it('creates qa/v1 from the repository config with its model settings', () => {
      const agent = AgentFactory.create('qa', 'v1', { question: 'What is x?', context: 'x = 1' });
      assert.ok(agent instanceof AgentPrompt);
      assert.equal(agent.agentName, 'qa');
      assert.equal(agent.version, 'v1');
      assert.equal(agent.model, 'gpt-4o-mini');
      assert.equal(agent.temperature, 0.2);
      assert.equal(agent.maxOutputTokens, 800);
      assert.deepEqual(agent.config.input_keys, ['question', 'context']);
      assert.deepEqual(agent.tools, []);
    });

    it('loads and composes every config under config/agents', () => {
      const all = AgentFactory.list();
      assert.ok(all.length >= 2);
      for (const id of all) {
        const [name, version] = id.split('/');
        const agent = AgentFactory.create(name, version);
        const payload = Object.fromEntries((agent.config.input_keys ?? []).map((key) => [key, `some ${key}`]));
        const { messages } = agent.compose(payload);
        assert.equal(String(messages[0].content).split('\n')[0], `agent: ${id}`);
      }
    });

    it('defers the input check to compose when create gets no payload', () => {
      const agent = AgentFactory.create('qa', 'v1');
      assert.throws(() => agent.compose(), AgentConfigError);
      assert.match(String(agent.compose({ question: 'q', context: 'c' }).messages[1].content), /^Input:\nquestion = "q"/);
    });

    it('creates cot/v1 and lists both shipped agents', () => {
      const agent = AgentFactory.create('cot', 'v1', { problem: 'p', context: 'c' });
      assert.equal(agent.config.mode, 'Writer');
      assert.deepEqual(agent.outputSchema?.required, ['step1', 'final_answer', 'confidence']);
      const listed = AgentFactory.list();
      assert.ok(listed.includes('qa/v1') && listed.includes('cot/v1'), listed.join(', '));
    });

    it('finds config/agents by walking up from the module folder (tsx sources and dist bundles)', () => {
      assert.equal(resolveConfigRoot(), REPO_AGENTS);
      const fakeRepo = mkdtempSync(join(tmpdir(), 'repo-'));
      try {
        mkdirSync(join(fakeRepo, 'config', 'agents'), { recursive: true });
        mkdirSync(join(fakeRepo, 'dist'));
        mkdirSync(join(fakeRepo, 'src', 'core', 'agentsAsData'), { recursive: true });
        assert.equal(resolveConfigRoot(undefined, join(fakeRepo, 'dist')), join(fakeRepo, 'config', 'agents'));
        assert.equal(
          resolveConfigRoot(undefined, join(fakeRepo, 'src', 'core', 'agentsAsData')),
          join(fakeRepo, 'config', 'agents'),
        );
      } finally {
        rmSync(fakeRepo, { recursive: true, force: true });
      }
    });

    it('fails clearly when no config/agents folder is above the start folder', () => {
      const lonely = mkdtempSync(join(tmpdir(), 'lonely-'));
      try {
        const error = catchError(() => resolveConfigRoot(undefined, lonely));
        assert.ok(error instanceof AgentConfigError);
        assert.match(error.message, new RegExp(AGENTS_DIR_ENV));
      } finally {
        rmSync(lonely, { recursive: true, force: true });
      }
    });
  });

  describe('config root', () => {
    it('uses a new agent file in another root with no code change', () => {
      temp.write('summarizer', 'v3', validConfig({ agent_name: 'summarizer', version: 'v3', input_keys: ['text'] }));
      const agent = AgentFactory.create('summarizer', 'v3', { text: 'hello' }, { configRoot: temp.root });
      const { messages, responseFormat } = agent.compose();
      assert.match(String(messages[0].content), /^agent: summarizer\/v3\n/);
      assert.equal(responseFormat?.json_schema.name, 'summarizer_v3');
      assert.deepEqual(agent.parseAndValidate('{"answer":"hi","score":0.5}'), { answer: 'hi', score: 0.5, note: 'none' });
      assert.deepEqual(AgentFactory.list({ configRoot: temp.root }), ['summarizer/v3']);
    });

    it('honours the environment variable when no option is given', () => {
      temp.write('demo', 'v1', validConfig());
      const saved = process.env[AGENTS_DIR_ENV];
      process.env[AGENTS_DIR_ENV] = temp.root;
      try {
        assert.equal(AgentFactory.create('demo', 'v1').agentName, 'demo');
      } finally {
        if (saved === undefined) delete process.env[AGENTS_DIR_ENV];
        else process.env[AGENTS_DIR_ENV] = saved;
      }
    });

    it('rejects a config root that is not a folder', () => {
      const error = catchError(() => AgentFactory.create('qa', 'v1', {}, { configRoot: join(temp.root, 'missing') }));
      assert.ok(error instanceof AgentConfigError);
      assert.equal((error as AgentConfigError).error_code, 'CONFIG');
      assert.match(error.message, /not a folder/);
    });

    it('reads an edited file again instead of serving the cached version', () => {
      temp.write('demo', 'v1', validConfig({ model_name: 'first' }));
      assert.equal(AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root }).model, 'first');
      assert.equal(AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root }).model, 'first');
      temp.write('demo', 'v1', validConfig({ model_name: 'second-and-longer' }));
      assert.equal(AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root }).model, 'second-and-longer');
    });

    it('hands out a frozen config, so no caller can change the cached agent', () => {
      temp.write('demo', 'v1', validConfig());
      const agent = AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root });
      assert.throws(() => {
        (agent.config as { model_name: string }).model_name = 'hacked';
      }, TypeError);
      assert.equal(AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root }).model, 'test-model');
    });
  });

  describe('names and versions', () => {
    const bad: Array<[string, string]> = [
      ['../qa', 'v1'],
      ['qa', '../v1'],
      ['qa/../../etc', 'v1'],
      ['a/b', 'v1'],
      ['qa', 'v1/../../x'],
      ['/etc/passwd', 'v1'],
      ['', 'v1'],
      ['qa', ''],
      ['qa', 'v1..2'],
      ['qa', '..'],
      ['qa\\x', 'v1'],
      ['-qa', 'v1'],
    ];
    for (const [name, version] of bad) {
      it(`rejects ${JSON.stringify(name)} / ${JSON.stringify(version)} before touching the disk`, () => {
        const error = catchError(() => AgentFactory.create(name, version, {}, { configRoot: temp.root }));
        assert.ok(error instanceof AgentConfigError, String(error));
        assert.match(error.message, /Invalid agent name or version/);
      });
    }

    it('accepts dotted and plain versions', () => {
      temp.write('demo', '1.0.0-beta', validConfig({ version: '1.0.0-beta' }));
      temp.write('demo', 'v2.1', validConfig({ version: 'v2.1' }));
      assert.equal(AgentFactory.create('demo', '1.0.0-beta', {}, { configRoot: temp.root }).version, '1.0.0-beta');
      assert.equal(
        AgentFactory.create('demo', 'v2.1', {}, { configRoot: temp.root }).compose().responseFormat?.json_schema.name,
        'demo_v2_1',
      );
    });

    it('names the agents and versions that exist when the file is missing', () => {
      temp.write('demo', 'v1', validConfig());
      temp.write('demo', 'v2', validConfig({ version: 'v2' }));
      writeFileSync(join(temp.root, 'README.md'), 'not an agent');
      const error = catchError(() => AgentFactory.create('demo', 'v9', {}, { configRoot: temp.root }));
      assert.ok(error instanceof UnknownAgentConfigError);
      assert.ok(error instanceof AgentError);
      assert.equal((error as UnknownAgentConfigError).error_code, 'CONFIG');
      assert.match(error.message, /demo\/v9/);
      assert.match(error.message, /Available: demo\/v1, demo\/v2/);
      assert.deepEqual((error as UnknownAgentConfigError).details.available, ['demo/v1', 'demo/v2']);
    });

    it('says "none" when the root holds no agents', () => {
      const error = catchError(() => AgentFactory.create('nobody', 'v1', {}, { configRoot: temp.root }));
      assert.ok(error instanceof UnknownAgentConfigError);
      assert.match(error.message, /Available: none/);
    });

    it('reports a config path that cannot be read as a file', () => {
      mkdirSync(join(temp.root, 'demo', 'v1.json'), { recursive: true });
      const error = catchError(() => AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root }));
      assert.ok(error instanceof AgentConfigError, String(error));
      assert.match(error.message, /cannot be read/);
    });
  });

  describe('input payload', () => {
    it('lists every missing and unexpected input key at once', () => {
      const error = catchError(() => AgentFactory.create('qa', 'v1', { questoin: 'typo', extra: 1 }));
      assert.ok(error instanceof AgentConfigError);
      const problems = (error as AgentConfigError).problems;
      assert.deepEqual(problems, [
        'input.questoin: not an input of this agent (this agent takes: question, context)',
        'input.extra: not an input of this agent (this agent takes: question, context)',
        'input.question: missing (this agent takes: question, context)',
        'input.context: missing (this agent takes: question, context)',
      ]);
      assert.deepEqual((error as AgentConfigError).details.problems, problems);
    });

    it('treats an undefined value of a declared key as missing', () => {
      const error = catchError(() => AgentFactory.create('qa', 'v1', { question: 'q', context: undefined }));
      assert.deepEqual((error as AgentConfigError).problems, ['input.context: missing (this agent takes: question, context)']);
    });

    it('rejects keys that are not identifiers and values that cannot be JSON', () => {
      temp.write('demo', 'v1', validConfig());
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const error = catchError(() =>
        AgentFactory.create(
          'demo',
          'v1',
          { 'bad key': 1, 'x\n = 2': 1, fn: () => 1, big: 10n, loop: circular },
          { configRoot: temp.root },
        ),
      );
      const problems = (error as AgentConfigError).problems;
      assert.equal(problems.length, 5, problems.join('\n'));
      assert.match(problems[0], /^input key "bad key": must be an identifier/);
      assert.match(problems[1], /^input key "x\\n = 2": must be an identifier/);
      assert.match(problems[2], /^input\.fn: cannot be written as JSON \(got function\)/);
      assert.match(problems[3], /^input\.big: cannot be written as JSON/);
      assert.match(problems[4], /^input\.loop: cannot be written as JSON/);
    });

    it('rejects a payload that is not an object', () => {
      temp.write('demo', 'v1', validConfig());
      for (const payload of [null, 'text', ['a']]) {
        const error = catchError(() => AgentFactory.create('demo', 'v1', payload as never, { configRoot: temp.root }));
        assert.ok(error instanceof AgentConfigError);
        assert.match(error.message, /expected an object of input values/);
      }
    });

    it('checks a payload given to compose as well', () => {
      const agent = AgentFactory.create('qa', 'v1', { question: 'q', context: 'c' });
      const error = catchError(() => agent.compose({ question: 'only this' }));
      assert.deepEqual((error as AgentConfigError).problems, ['input.context: missing (this agent takes: question, context)']);
    });

    it('says "no input" for an agent that declares no input keys', () => {
      temp.write('demo', 'v1', validConfig({ input_keys: [] }));
      const error = catchError(() => AgentFactory.create('demo', 'v1', { a: 1 }, { configRoot: temp.root }));
      assert.deepEqual((error as AgentConfigError).problems, [
        'input.a: not an input of this agent (this agent takes: no input)',
      ]);
    });
  });
});
