import { strict as assert } from 'node:assert';
import { AgentConfigError, AgentFactory, checkAgentConfig, checkOutputSchema } from '../../../src/core/agentsAsData';
import { TempAgents, validConfig } from './agentFixtures';

const ORIGIN = { file: '/agents/demo/v1.json', agentName: 'demo', version: 'v1' };

/** The problems `checkAgentConfig` reports for a config (text or object); fails when it accepts it. */
function problemsOf(config: unknown): string[] {
  try {
    checkAgentConfig(typeof config === 'string' ? config : JSON.stringify(config, null, 2), ORIGIN);
  } catch (error) {
    assert.ok(error instanceof AgentConfigError, String(error));
    assert.equal(error.error_code, 'CONFIG');
    assert.deepEqual(error.details.problems, error.problems);
    for (const problem of error.problems) assert.ok(error.message.includes(problem), `message lists "${problem}"`);
    return error.problems;
  }
  assert.fail('expected the config to be rejected');
}

function withSchema(schema: unknown, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return validConfig({ output_schema: schema, defaults: {}, ...overrides });
}

describe('agent config validation', () => {
  it('accepts a valid config and fills the optional sections', () => {
    const { config, outputSchema } = checkAgentConfig(
      JSON.stringify({ ...validConfig(), enums: undefined, defaults: undefined }),
      ORIGIN,
    );
    assert.deepEqual(config.enums, {});
    assert.deepEqual(config.defaults, {});
    assert.equal(outputSchema?.type, 'object');
  });

  it('names every problem of a badly broken config at once', () => {
    const broken = validConfig({
      agent_name: 'other',
      version: 'v2',
      mode: 'Guesser',
      temprature: 0.5,
      enums: { missing_field: ['a'], answer: ['yes', 'no'] },
      defaults: { note: 5, ghost: 1, answer: 'x' },
    });
    delete broken.model_name;
    delete broken.system_text;
    (broken.output_schema as { properties: Record<string, unknown> }).properties.answer = {
      type: 'string',
      enum: ['yes', 'maybe'],
    };
    const problems = problemsOf(broken);
    assert.deepEqual(problems, [
      'mode: must be one of Chooser, Writer, Extractor, got "Guesser"',
      'system_text: missing required key',
      'model_name: missing required key',
      'temprature: unknown key (check its spelling)',
      'agent_name: "other" does not match the file path (expected "demo")',
      'version: "v2" does not match the file path (expected "v1")',
      'enums.missing_field: "missing_field" is not a property of output_schema',
      'enums.answer: ["yes","no"] differs from output_schema.properties.answer.enum ["yes","maybe"]',
      'defaults.note: expected string, got number',
      'defaults.ghost: "ghost" is not a property of output_schema',
      'defaults.answer: expected one of "yes", "maybe", got "x"',
    ]);
  });

  it('reports bad JSON with its line and column', () => {
    const text = '{\n  "agent_name": "demo",\n  "version": "v1"\n  "mode": "Writer"\n}\n';
    const problems = problemsOf(text);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^\/agents\/demo\/v1\.json:4:3: /);
  });

  it('finds the line of errors the parser reports without a position', () => {
    const problems = problemsOf('{\n  "a": 1,\n  "b": tru\n}');
    assert.match(problems[0], /^\/agents\/demo\/v1\.json:3:/);
    assert.doesNotMatch(problems[0], /is not valid JSON/);
  });

  it('puts a truncated file on its last line', () => {
    assert.match(problemsOf('{\n  "agent_name": "demo",\n')[0], /v1\.json:2:\d+: /);
    assert.match(problemsOf('{\n  "agent_name": "de')[0], /v1\.json:2:\d+: Unterminated string/);
    assert.match(problemsOf('')[0], /v1\.json:1:1: /);
  });

  it('rejects a file that is not a JSON object', () => {
    assert.deepEqual(problemsOf('[1, 2]'), ['(root): expected a JSON object, got array']);
  });

  it('reports wrong types and ranges of the model settings', () => {
    const problems = problemsOf(
      validConfig({ temperature: '0.2', max_output_tokens: 0, input_keys: ['a', 'a', 'b c'], tools: ['x', 'x'] }),
    );
    assert.deepEqual(problems.slice(0, 1), ['temperature: expected number, got string']);
    assert.ok(
      problems.some((p) => p.startsWith('max_output_tokens: ')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('input_keys[2]: must be an identifier')),
      problems.join('\n'),
    );
    assert.ok(problems.includes('input_keys: must not repeat a key'), problems.join('\n'));
    assert.ok(problems.includes('tools: must not repeat a tool'), problems.join('\n'));
  });

  it('accepts prompt texts given as arrays of lines', () => {
    const { config } = checkAgentConfig(JSON.stringify(validConfig({ system_text: ['one', 'two'] })), ORIGIN);
    assert.deepEqual(config.system_text, ['one', 'two']);
  });

  describe('output schema subset', () => {
    it('requires an object at the top', () => {
      assert.deepEqual(checkOutputSchema({ type: 'string' }), [
        'output_schema.type: must be "object" (the model replies with one JSON object)',
      ]);
      assert.deepEqual(problemsOf(withSchema([1])), ['output_schema: must be a JSON schema object, got array']);
    });

    it('rejects unsupported keywords, types and shapes, each with its path', () => {
      const problems = problemsOf(
        withSchema({
          type: 'object',
          properties: {
            a: { type: 'string', pattern: '^x', description: 3 },
            b: { type: 'null' },
            c: { type: 'array' },
            d: { type: 'number', minimum: 5, maximum: 1 },
            e: { type: 'array', items: { type: 'string' }, minItems: -1 },
            f: { type: 'object', properties: {}, additionalProperties: true },
            g: { type: 'object' },
            'bad-name': { type: 'string' },
            h: { type: 'number', enum: ['x', 1, 1] },
            i: { type: 'array', items: { type: 'string' }, enum: [] },
            j: 'string',
            k: { type: 'object', properties: 'x', required: 'a' },
            l: { type: 'boolean', enum: [] },
          },
          required: ['a', 'zz', 'a'],
        }),
      );
      assert.deepEqual(problems, [
        'output_schema.properties.a.pattern: unsupported keyword for type string (supported: type, description, title, enum)',
        'output_schema.properties.a.description: must be a string',
        'output_schema.properties.b.type: must be one of string, number, integer, boolean, array, object, got "null"',
        'output_schema.properties.c.items: missing (an array needs the schema of its items)',
        'output_schema.properties.d: minimum (5) is greater than maximum (1)',
        'output_schema.properties.e.minItems: must be a non-negative integer',
        'output_schema.properties.f.additionalProperties: only false is supported (extra keys are dropped from the output)',
        'output_schema.properties.g.properties: missing',
        'output_schema.properties.bad-name: property names must be identifiers (letters, digits, _)',
        'output_schema.properties.h.enum[0]: "x" is not a number',
        'output_schema.properties.h.enum: lists a value twice',
        'output_schema.properties.i.enum: unsupported keyword for type array (supported: type, description, title, items, minItems, maxItems)',
        'output_schema.properties.i.enum: enums apply to string, number, integer or boolean fields, not array',
        'output_schema.properties.j: must be a JSON schema object, got string',
        'output_schema.properties.k.properties: must be an object of property schemas',
        'output_schema.properties.k.required: must be an array of property names',
        'output_schema.properties.l.enum: must be a non-empty array',
        'output_schema.required: lists a property twice',
        'output_schema.required: "zz" is not in properties',
      ]);
    });

    it('reports a missing type', () => {
      assert.deepEqual(checkOutputSchema({ properties: {} }), [
        'output_schema.type: must be one of string, number, integer, boolean, array, object, got nothing',
      ]);
    });
  });

  describe('enums and modes', () => {
    it('merges enums into properties that have none, and accepts the same list in another order', () => {
      const schema = {
        type: 'object',
        properties: { kind: { type: 'string' }, level: { type: 'integer', enum: [1, 2] } },
        required: ['kind', 'level'],
      };
      const { outputSchema } = checkAgentConfig(
        JSON.stringify(withSchema(schema, { mode: 'Chooser', enums: { kind: ['a', 'b'], level: [2, 1] } })),
        ORIGIN,
      );
      assert.deepEqual(outputSchema?.properties?.kind.enum, ['a', 'b']);
      assert.deepEqual(outputSchema?.properties?.level.enum, [1, 2]);
    });

    it('reports each bad enum list once, and prompt texts of the wrong type', () => {
      const schema = { type: 'object', properties: { kind: { type: 'string' } } };
      assert.deepEqual(problemsOf(withSchema(schema, { enums: { kind: ['a', {}] }, purpose_text: 7 })), [
        'purpose_text: expected a non-empty string or an array of lines, got 7',
        'enums.kind[1]: {} is not a string',
      ]);
      assert.deepEqual(problemsOf(withSchema(schema, { enums: { kind: [] } })), ['enums.kind: must be a non-empty array']);
      assert.deepEqual(problemsOf(withSchema(schema, { enums: ['kind'] })), [
        'enums: expected an object of field → allowed values, got array',
      ]);
    });

    it('rejects enum values of the wrong type and enums on arrays', () => {
      const schema = {
        type: 'object',
        properties: { kind: { type: 'string' }, list: { type: 'array', items: { type: 'string' } } },
        required: ['kind'],
      };
      assert.deepEqual(problemsOf(withSchema(schema, { enums: { kind: ['a', 2], list: ['x'] } })), [
        'enums.kind[1]: 2 is not a string',
        'enums.list: enums apply to string, number, integer or boolean fields, not array',
      ]);
    });

    it('requires a Chooser to have at least one list to choose from', () => {
      assert.deepEqual(problemsOf(validConfig({ mode: 'Chooser' })), [
        'mode: Chooser needs at least one field with a list of allowed values (in enums or output_schema)',
      ]);
    });

    it('checks defaults against the enum merged from enums', () => {
      const schema = { type: 'object', properties: { kind: { type: 'string' } } };
      assert.deepEqual(problemsOf(withSchema(schema, { enums: { kind: ['a'] }, defaults: { kind: 'b' } })), [
        'defaults.kind: expected one of "a", got "b"',
      ]);
    });
  });

  describe('free-text agents (no output_schema)', () => {
    it('accepts a null or missing output_schema with tools', () => {
      for (const output_schema of [null, undefined]) {
        const { config, outputSchema } = checkAgentConfig(
          JSON.stringify(validConfig({ output_schema, defaults: {}, tools: ['read_file'] })),
          ORIGIN,
        );
        assert.equal(outputSchema, null);
        assert.equal(config.output_schema, null);
        assert.deepEqual(config.tools, ['read_file']);
      }
    });

    it('rejects enums, defaults and Chooser mode without an output_schema', () => {
      assert.deepEqual(problemsOf(validConfig({ output_schema: null, mode: 'Chooser', enums: { a: ['x'] } })), [
        'enums: needs an output_schema (this agent has none)',
        'defaults: needs an output_schema (this agent has none)',
        'mode: Chooser needs an output_schema with fields to choose',
      ]);
    });
  });

  it('reports an invalid file through the factory with the file named', () => {
    const temp = new TempAgents();
    try {
      const file = temp.write('demo', 'v1', '{ "agent_name": "demo" "version": "v1" }');
      AgentFactory.clearCache();
      assert.throws(
        () => AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root }),
        (error: unknown) => error instanceof AgentConfigError && error.message.includes(`${file}:1:`) && error.details.line === 1,
      );
    } finally {
      temp.remove();
    }
  });
});
