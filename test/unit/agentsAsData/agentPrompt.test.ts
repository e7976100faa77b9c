import { strict as assert } from 'node:assert';
import {
  AgentFactory,
  AgentPromptValidationError,
  CLOSING_SENTENCE,
  JSON_ONLY_INSTRUCTION,
  MODE_INSTRUCTIONS,
  REPORT_INSTRUCTION,
  type AgentPrompt,
} from '../../../src/core/agentsAsData';
import { FIXTURES_ROOT, TempAgents, validConfig } from './agentFixtures';

function fixture(name: string, payload: Record<string, unknown>): AgentPrompt {
  return AgentFactory.create(name, 'v1', payload, { configRoot: FIXTURES_ROOT });
}

function violationsOf(agent: AgentPrompt, raw: unknown): string[] {
  try {
    agent.parseAndValidate(raw);
  } catch (error) {
    assert.ok(error instanceof AgentPromptValidationError, String(error));
    assert.equal(error.error_code, 'OUTPUT_VALIDATION_FAILED');
    assert.deepEqual(error.details.violations, error.violations);
    for (const v of error.violations) assert.ok(error.message.includes(v));
    return error.violations;
  }
  assert.fail('expected the output to be rejected');
}

const content = (agent: AgentPrompt, payload?: Record<string, unknown>) =>
  agent.compose(payload).messages.map((m) => String(m.content));

describe('AgentPrompt', () => {
  const qa = () => AgentFactory.create('qa', 'v1', { question: 'Why?', context: 'Because.' });

  describe('compose', () => {
    it('starts the system message with exactly "agent: <name>/<version>", then the texts and the JSON-only rule', () => {
      const [system] = content(qa());
      const lines = system.split('\n');
      assert.equal(lines[0], 'agent: qa/v1');
      assert.match(lines[1], /^You are a careful senior software engineer/);
      assert.ok(system.indexOf('Answer the question using the context.') > system.indexOf('You are concise'));
      assert.ok(system.endsWith(`\n\n${JSON_ONLY_INSTRUCTION}`));
    });

    it('lists the payload as key = value lines in input_keys order, then the mode instruction and the closing sentence', () => {
      const agent = AgentFactory.create('qa', 'v1', { context: 'ctx', question: 'q?' });
      const [, user] = content(agent);
      assert.ok(
        user.startsWith('Input:\nquestion = "q?"\ncontext = "ctx"\n\nWrite the value of each field:\n- answer (string): '),
        user,
      );
      assert.ok(user.endsWith(`\n\n${CLOSING_SENTENCE.json}`));
    });

    it('escapes quotes and backslashes of a one-line value, writes a multi-line one raw in a <key> block; JSON-encodes other values', () => {
      const temp = new TempAgents();
      try {
        temp.write('demo', 'v1', validConfig());
        const agent = AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root });
        const [, user] = content(agent, {
          q: 'say "hi"\\',
          b: 'say "hi"\\\nnext',
          a: 3,
          c: [1, 'x'],
          d: null,
          e: { k: true },
          skipped: undefined,
        });
        assert.ok(
          user.startsWith(
            'Input:\nq = "say \\"hi\\"\\\\"\n<b>\nsay "hi"\\\nnext\n</b>\na = 3\nc = [1,"x"]\nd = null\ne = {"k":true}\n\nWrite',
          ),
          user,
        );
        assert.ok(content(agent)[1].startsWith('Input:\n(none)\n\n'));
      } finally {
        temp.remove();
      }
    });

    it('uses the payload given at creation unless compose gets another', () => {
      const agent = qa();
      assert.match(content(agent)[1], /question = "Why\?"/);
      assert.match(content(agent, { question: 'Other?', context: 'c' })[1], /question = "Other\?"/);
    });

    it('gives byte-identical output for the same input, from separate agents', () => {
      assert.equal(JSON.stringify(qa().compose()), JSON.stringify(qa().compose()));
    });

    it('prints the allowed values for a Chooser', () => {
      const [, user] = content(fixture('triage', { report: 'x' }));
      assert.match(
        user,
        new RegExp(
          `${MODE_INSTRUCTIONS.Chooser.json.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n- kind \\(one of "bug", "feature", "question"\\)`,
        ),
      );
      assert.match(user, /- severity \(one of 1, 2, 3\): 1 is the most severe\./);
      assert.match(user, /- labels \(array of string, 1 to 3 items, optional\)/);
    });

    it('asks an Extractor to extract, and describes nested fields', () => {
      const [, user] = content(fixture('extract', { message: 'm', count: 1, flags: [] }));
      assert.match(user, new RegExp(`\n${MODE_INSTRUCTIONS.Extractor.json.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`));
      assert.match(user, /- files \(array of object with fields path, lines, at least 1 item\)/);
      assert.match(user, /- tags \(array of string, at most 2 items, optional\)/);
      assert.match(user, /- floor \(number, at least 1, optional\)/);
      assert.match(user, /- score \(number, at most 10, optional\)/);
    });

    it('gives a free-text agent no response format and asks for a report', () => {
      const agent = fixture('reporter', { task: 'Rename x' });
      const { messages, responseFormat } = agent.compose();
      assert.equal(responseFormat, undefined);
      assert.ok(String(messages[0].content).endsWith(REPORT_INSTRUCTION));
      assert.equal(
        String(messages[1].content),
        `Input:\ntask = "Rename x"\n\n${MODE_INSTRUCTIONS.Writer.report}\n\n${CLOSING_SENTENCE.report}`,
      );
      assert.deepEqual(agent.tools, ['list_files', 'read_file', 'write_file', 'run_tests']);
    });
  });

  describe('responseFormat', () => {
    it('is the strict json_schema wrapper: every property required, no additional properties, optional ones nullable', () => {
      const { responseFormat } = fixture('extract', { message: 'm', count: 1, flags: [] }).compose();
      assert.equal(responseFormat?.type, 'json_schema');
      assert.equal(responseFormat?.json_schema.strict, true);
      assert.equal(responseFormat?.json_schema.name, 'extract_v1');
      const schema = responseFormat?.json_schema.schema as Record<string, any>;
      assert.deepEqual(schema.required, ['summary', 'files', 'ticket', 'score', 'meta', 'tags', 'parts', 'floor']);
      assert.equal(schema.additionalProperties, false);
      assert.deepEqual(schema.properties.summary.type, 'string');
      assert.deepEqual(schema.properties.ticket.type, ['string', 'null']);
      const file = schema.properties.files.items;
      assert.deepEqual(file.required, ['path', 'lines']);
      assert.equal(file.additionalProperties, false);
      assert.deepEqual(file.properties.lines.type, ['integer', 'null']);
      assert.deepEqual(schema.properties.meta.properties.author.type, ['string', 'null']);
    });

    it('adds null to the enum of an optional enum field, and carries enums merged from the config', () => {
      const temp = new TempAgents();
      try {
        const schema = { type: 'object', properties: { kind: { type: 'string' }, pick: { type: 'string' } }, required: ['kind'] };
        temp.write(
          'demo',
          'v1',
          validConfig({ mode: 'Chooser', output_schema: schema, defaults: {}, enums: { kind: ['a', 'b'], pick: ['x'] } }),
        );
        const format = AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root }).compose().responseFormat;
        const properties = (format?.json_schema.schema as Record<string, any>).properties;
        assert.deepEqual(properties.kind, { type: 'string', enum: ['a', 'b'] });
        assert.deepEqual(properties.pick, { type: ['string', 'null'], enum: ['x', null] });
      } finally {
        temp.remove();
      }
    });

    it('is a fresh object each time, so a caller changing it changes nothing else', () => {
      const agent = qa();
      const first = agent.compose().responseFormat as { json_schema: { schema: Record<string, any> } };
      first.json_schema.schema.properties.answer.type = 'number';
      assert.equal((agent.compose().responseFormat?.json_schema.schema as Record<string, any>).properties.answer.type, 'string');
    });
  });

  describe('parseAndValidate', () => {
    const good = { answer: 'Because.', confidence: 0.75, reasoning: 'It says so.' };

    it('reads an OpenAI completion', () => {
      const completion = {
        id: 'c1',
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: JSON.stringify(good), refusal: null }, finish_reason: 'stop' },
        ],
      };
      assert.deepEqual(qa().parseAndValidate(completion), good);
    });

    it('reads an LlmResult, a JSON string, a fenced reply, prose around an object, and a plain object', () => {
      const agent = qa();
      const text = JSON.stringify(good);
      const inputs: unknown[] = [
        { text, toolCalls: [], finishReason: 'stop', usage: {}, model: 'm', latencyMs: 1 },
        { text },
        text,
        `\`\`\`json\n${JSON.stringify(good, null, 2)}\n\`\`\``,
        `Here is my answer: ${text} I hope it helps.`,
        { ...good },
      ];
      for (const input of inputs) assert.deepEqual(agent.parseAndValidate(input), good, JSON.stringify(input));
    });

    it('fills defaults for missing or null optional fields and drops unknown keys', () => {
      assert.deepEqual(qa().parseAndValidate({ answer: 'a', confidence: 1, extra: 'dropped' }), {
        answer: 'a',
        confidence: 1,
        reasoning: '',
      });
      assert.deepEqual(qa().parseAndValidate('{"answer":"a","confidence":0,"reasoning":null}'), {
        answer: 'a',
        confidence: 0,
        reasoning: '',
      });
      const triage = fixture('triage', { report: 'r' });
      const out = triage.parseAndValidate({ kind: 'bug', severity: 1 });
      assert.deepEqual(out, { kind: 'bug', severity: 1, needs_reply: false, labels: ['triage'] });
      (out.labels as string[]).push('mutated');
      assert.deepEqual(triage.parseAndValidate({ kind: 'bug', severity: 1 }).labels, ['triage']);
    });

    it('leaves out optional fields without a default, at every depth', () => {
      const agent = fixture('extract', { message: 'm', count: 1, flags: [] });
      assert.deepEqual(agent.parseAndValidate({ summary: 's', files: [{ path: 'a.ts', lines: null, junk: 1 }], ticket: null }), {
        summary: 's',
        files: [{ path: 'a.ts' }],
      });
    });

    it('lists every violation by path', () => {
      assert.deepEqual(violationsOf(qa(), { confidence: 'high', reasoning: 3 }), [
        'answer: required',
        'confidence: expected number, got string',
        'reasoning: expected string, got number',
      ]);
      const extract = fixture('extract', { message: 'm', count: 1, flags: [] });
      assert.deepEqual(
        violationsOf(extract, {
          summary: null,
          files: [{ lines: 1.5 }, 'x', { path: 'p', lines: -1 }],
          score: 11,
          meta: [],
          tags: ['a', 'b', 'c'],
          parts: 'nope',
          floor: 0,
        }),
        [
          'summary: required (got null)',
          'files[0].path: required',
          'files[0].lines: expected integer, got a non-integer number',
          'files[1]: expected a JSON object, got string',
          'files[2].lines: must be at least 0, got -1',
          'score: must be at most 10, got 11',
          'meta: expected a JSON object, got array',
          'tags: must have at most 2 items, got 3',
          'parts: expected array, got string',
          'floor: must be at least 1, got 0',
        ],
      );
      assert.deepEqual(violationsOf(extract, { summary: 's', files: [] }), ['files: must have at least 1 items, got 0']);
    });

    it('enforces enums, including lists merged from the config and integer enums', () => {
      const triage = fixture('triage', { report: 'r' });
      assert.deepEqual(violationsOf(triage, { kind: 'rant', severity: 5, needs_reply: 'yes', labels: [] }), [
        'kind: expected one of "bug", "feature", "question", got "rant"',
        'severity: expected one of 1, 2, 3, got 5',
        'needs_reply: expected boolean, got string',
        'labels: must have at least 1 items, got 0',
      ]);
      assert.deepEqual(violationsOf(triage, { kind: 'bug', severity: Number.NaN }), [
        'severity: expected integer, got a non-finite number',
      ]);
    });

    it('rejects output that is not JSON, naming line and column, and mentions a cut-off reply', () => {
      const agent = qa();
      assert.deepEqual(violationsOf(agent, 'I think the answer is 42.'), [
        "(root): not valid JSON at line 1 column 1: Unexpected token 'I'",
      ]);
      const truncated = { text: '{"answer": "It is', toolCalls: [], finishReason: 'length' };
      const violations = violationsOf(agent, truncated);
      assert.match(violations[0], /^\(root\): not valid JSON at line 1 column \d+: Unterminated string/);
      assert.equal(violations[1], '(root): the reply was cut off at 800 tokens (max_output_tokens)');
      const cutCompletion = { choices: [{ message: { content: '{"answer":' }, finish_reason: 'length' }] };
      assert.equal(violationsOf(agent, cutCompletion).length, 2);
    });

    it('rejects JSON that is not an object, refusals, empty completions and unreadable input', () => {
      const agent = qa();
      assert.deepEqual(violationsOf(agent, '[1, 2]'), ['(root): expected a JSON object, got array']);
      assert.deepEqual(violationsOf(agent, { choices: [{ message: { content: null, refusal: 'I cannot help with that.' } }] }), [
        '(root): the model refused: I cannot help with that.',
      ]);
      assert.deepEqual(violationsOf(agent, { choices: [] }), ['(root): the completion has no message content']);
      assert.deepEqual(violationsOf(agent, 42), [
        '(root): expected a completion, a result with text, a JSON string or an object, got number',
      ]);
      assert.deepEqual(violationsOf(agent, null), [
        '(root): expected a completion, a result with text, a JSON string or an object, got null',
      ]);
    });

    it('keeps the output excerpt in details, short', () => {
      try {
        qa().parseAndValidate(`not json ${'x'.repeat(2000)}`);
        assert.fail('expected an error');
      } catch (error) {
        assert.ok(error instanceof AgentPromptValidationError);
        assert.equal((error.details.output_excerpt as string).length, 500);
        assert.equal(error.details.agent, 'qa/v1');
      }
    });

    it('treats { text } as the output itself when the schema has a text field', () => {
      const temp = new TempAgents();
      try {
        const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
        temp.write('demo', 'v1', validConfig({ output_schema: schema, defaults: {} }));
        const agent = AgentFactory.create('demo', 'v1', {}, { configRoot: temp.root });
        assert.deepEqual(agent.parseAndValidate({ text: 'plain' }), { text: 'plain' });
        assert.deepEqual(agent.parseAndValidate({ text: '{"text":"wrapped"}', finishReason: 'stop' }), { text: 'wrapped' });
      } finally {
        temp.remove();
      }
    });

    it('returns the trimmed report of a free-text agent, and rejects an empty one', () => {
      const agent = fixture('reporter', { task: 't' });
      assert.deepEqual(agent.parseAndValidate({ text: '  Renamed x to y.\n', toolCalls: [], finishReason: 'stop' }), {
        text: 'Renamed x to y.',
      });
      assert.deepEqual(agent.parseAndValidate({ choices: [{ message: { content: 'Done.' } }] }), { text: 'Done.' });
      assert.deepEqual(violationsOf(agent, '   '), ['(root): expected a non-empty text report, got empty text']);
      assert.deepEqual(violationsOf(agent, { report: 'x' }), ['(root): expected a non-empty text report, got object']);
    });
  });
});
