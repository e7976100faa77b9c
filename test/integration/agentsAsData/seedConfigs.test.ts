import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BaseAgent } from '../../../src/core/agentRuntime/baseAgent';
import { AgentConfigError, AgentFactory } from '../../../src/core/agentsAsData';
import { AgentError } from '../../../src/core/errors/agentError';
import { TempAgents, validConfig } from '../../unit/agentsAsData/agentFixtures';
import { useLoopback } from '../agentRuntime/loopback';

const FIXTURES_ROOT = join(__dirname, '..', '..', 'unit', 'agentsAsData', 'fixtures', 'agents');

describe('Agent configs as the specification writes them', () => {
  const lb = useLoopback();
  beforeEach(() => AgentFactory.clearCache());

  describe('A2/v1: required fields that also have defaults', () => {
    it('loads, and keeps the defaulted fields required in the schema sent to the model', () => {
      const agent = AgentFactory.create('A2', 'v1', undefined, { configRoot: FIXTURES_ROOT });
      assert.equal(agent.label, 'A2/v1');
      const { messages, responseFormat } = agent.compose({ user_message: 'How do I sort a list?' });
      assert.match(String(messages[0].content), /^agent: A2\/v1\n/);
      const schema = responseFormat!.json_schema.schema as { required: string[]; properties: Record<string, { type: unknown }> };
      assert.deepEqual(schema.required, ['response', 'tone', 'response_depth', 'confidence']);
      assert.equal(schema.properties.tone.type, 'string', 'a required field is not made nullable');
      assert.equal(responseFormat!.json_schema.name, 'A2_v1');
    });

    it('fills the defaults when the model omits the fields or sends null, and keeps what it sends', () => {
      const agent = AgentFactory.create('A2', 'v1', undefined, { configRoot: FIXTURES_ROOT });
      assert.deepEqual(agent.parseAndValidate('{"response":"Use sorted()."}'), {
        response: 'Use sorted().',
        tone: 'neutral',
        response_depth: 'standard',
        confidence: 0.5,
      });
      assert.deepEqual(agent.parseAndValidate({ response: 'x', tone: 'formal', response_depth: null, confidence: 0.9 }), {
        response: 'x',
        tone: 'formal',
        response_depth: 'standard',
        confidence: 0.9,
      });
      // A required field without a default is still required.
      assert.throws(() => agent.parseAndValidate('{"tone":"formal"}'), /response: required/);
    });

    it('runs end to end through a BaseAgent: the model omits tone, response_depth and confidence', async () => {
      const agent = new BaseAgent({ llm: lb.llm, agentConfig: { agent: 'A2', version: 'v1', configRoot: FIXTURES_ROOT } });
      lb.server.enqueue({ json: { response: 'Use sorted().' } });
      const result = await agent.execute({ user_message: 'How do I sort a list?' });
      assert.equal(result.response, 'Use sorted().');
      assert.equal(result.tone, 'neutral');
      assert.equal(result.response_depth, 'standard');
      assert.equal(result.confidence, 0.5);
      assert.equal(result.metadata.prompt, 'A2/v1');
      assert.equal(result.metadata.repairAttempts, 0);
    });

    it('still rejects a default that does not fit its required field', () => {
      const temp = new TempAgents();
      try {
        temp.write('demo', 'v1', validConfig({ defaults: { answer: 5, score: 2 } }));
        assert.throws(
          () => AgentFactory.create('demo', 'v1', undefined, { configRoot: temp.root }),
          (error: unknown) =>
            error instanceof AgentConfigError &&
            /defaults\.answer: expected string, got number/.test(error.message) &&
            /defaults\.score: must be at most 1, got 2/.test(error.message),
        );
      } finally {
        temp.remove();
      }
    });
  });

  describe('case-preserving agent names', () => {
    let temp: TempAgents;
    beforeEach(() => (temp = new TempAgents()));
    afterEach(() => temp.remove());

    it('creates A2 and PreProcessing as named, and list() shows exactly what create() accepts', () => {
      temp.write('PreProcessing', 'v1', validConfig({ agent_name: 'PreProcessing' }));
      temp.write('A2', 'v1', validConfig({ agent_name: 'A2' }));
      temp.write('lower', 'v2', validConfig({ agent_name: 'lower', version: 'v2' }));
      temp.write('has space', 'v1', validConfig({ agent_name: 'has space' }));
      temp.write('dotted.name', 'v1', validConfig({ agent_name: 'dotted.name' }));
      temp.write('A2', 'V1', validConfig({ agent_name: 'A2', version: 'V1' }));
      temp.write('A2', 'draft', validConfig({ agent_name: 'A2', version: 'draft' }));
      const listed = AgentFactory.list({ configRoot: temp.root });
      assert.deepEqual(listed, ['A2/v1', 'PreProcessing/v1', 'lower/v2']);
      for (const entry of listed) {
        const [name, version] = entry.split('/') as [string, string];
        assert.equal(AgentFactory.create(name, version, undefined, { configRoot: temp.root }).label, entry);
      }
    });

    it('does not treat another case as the same agent', () => {
      temp.write('A2', 'v1', validConfig({ agent_name: 'A2' }));
      // On a case-sensitive file system a2/ does not exist; on a case-insensitive one the file's agent_name differs.
      assert.throws(
        () => AgentFactory.create('a2', 'v1', undefined, { configRoot: temp.root }),
        (error: unknown) => error instanceof AgentError && error.error_code === 'CONFIG' && /a2\/v1/.test(error.message),
      );
    });

    it('a config whose agent_name differs from the folder only by case is refused', () => {
      temp.write('PreProcessing', 'v1', validConfig({ agent_name: 'preprocessing' }));
      assert.throws(
        () => AgentFactory.create('PreProcessing', 'v1', undefined, { configRoot: temp.root }),
        /agent_name: "preprocessing" does not match the file path \(expected "PreProcessing"\)/,
      );
    });

    for (const [name, version] of [
      ['../A2', 'v1'],
      ['A2/../../etc', 'v1'],
      ['Pre/Processing', 'v1'],
      ['Pre\\Processing', 'v1'],
      ['A2', '../v1'],
      ['/A2', 'v1'],
      ['', 'v1'],
      ['_A2', 'v1'],
    ] as const) {
      it(`refuses ${JSON.stringify(name)} / ${JSON.stringify(version)} before touching the disk`, () => {
        assert.throws(
          () => AgentFactory.create(name, version, undefined, { configRoot: temp.root }),
          /Invalid agent name or version/,
        );
      });
    }
  });
});
