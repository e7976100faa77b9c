import assert from 'node:assert/strict';
import { z } from 'zod';
import { parseJsonOutput } from '../../../src/core/agentRuntime/outputParsing';
import { fallbackPromptSource, signaturePromptSource } from '../../../src/core/agentRuntime/promptSource';
import { createSignature } from '../../../src/core/agentRuntime/signature';

const sig = createSignature({
  name: 'all types',
  version: 'v2',
  instructions: 'Do it.',
  inputs: { text: { type: z.string(), description: 'Some text' }, n: { type: z.number().optional(), description: 'A number' } },
  outputs: {
    s: { type: z.string(), description: 'string' },
    n: { type: z.number(), description: 'number' },
    b: { type: z.boolean(), description: 'boolean' },
    e: { type: z.enum(['x', 'y']), description: 'enum' },
    a: { type: z.array(z.string()), description: 'array' },
    o: { type: z.object({ k: z.int() }), description: 'object' },
  },
});

describe('signatures', () => {
  it('compiles once into prompt, JSON schema (z.toJSONSchema) and validator', () => {
    const c = sig.compile();
    assert.equal(sig.compile(), c);
    assert.match(c.systemPrompt, /^agent: all types\/v2\nDo it\./);
    assert.match(c.systemPrompt, /- e: enum/);
    const schema = c.jsonSchema as any;
    assert.equal(schema.$schema, undefined);
    assert.deepEqual(schema.properties.e.enum, ['x', 'y']);
    assert.equal(schema.properties.a.type, 'array');
    assert.equal(schema.properties.o.properties.k.type, 'integer');
    assert.deepEqual(schema.required.sort(), ['a', 'b', 'e', 'n', 'o', 's']);
    assert.equal(c.responseFormat!.json_schema.name, 'all_types_output');
  });

  it('validates output and lists violations by path', () => {
    const c = sig.compile();
    const good = { s: 's', n: 1, b: true, e: 'x', a: ['q'], o: { k: 2 } };
    assert.deepEqual(c.validateOutput!(JSON.stringify(good)), { ok: true, value: good });
    const bad = c.validateOutput!(JSON.stringify({ ...good, e: 'z', o: { k: 1.5 }, extra: 1 }));
    assert.equal(bad.ok, false);
    const violations = (bad as { violations: string[] }).violations.join('\n');
    assert.match(violations, /^e: /m);
    assert.match(violations, /^o\.k: /m);
    assert.match(violations, /extra/);
    assert.deepEqual(c.validateOutput!('no json'), { ok: false, violations: [(parseJsonOutput('no json') as any).problem] });
  });

  it('renders only the declared inputs and validates them', async () => {
    const prepared = await signaturePromptSource(sig).prepare({ text: 'hi', n: 3 });
    assert.equal(prepared.messages[1]!.content, 'text: hi\nn: 3');
    assert.equal(prepared.label, 'all types/v2');
    assert.throws(
      () => sig.compile().parseInputs({ n: 'x' }),
      (e: any) => e.error_code === 'VALIDATION' && /text/.test(e.message) && /n:/.test(e.message),
    );
  });

  it('a signature without outputs is a free-text agent', () => {
    const free = createSignature({ name: 'free', instructions: 'Talk.', inputs: {} }).compile();
    assert.equal(free.responseFormat, undefined);
    assert.equal(free.validateOutput, undefined);
    assert.match(free.systemPrompt, /plain text/);
  });

  it('fallback prompt: one string input is the prompt; others become key: value lines', async () => {
    assert.deepEqual((await fallbackPromptSource.prepare({ q: 'hello' })).messages, [{ role: 'user', content: 'hello' }]);
    assert.equal((await fallbackPromptSource.prepare({ a: 1, b: { c: 2 } })).messages[0]!.content, 'a: 1\nb: {"c":2}');
  });

  it('parseJsonOutput reads plain, fenced and embedded JSON and explains failures', () => {
    assert.deepEqual(parseJsonOutput('{"a":1}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseJsonOutput('Here:\n```json\n{"a":2}\n```'), { ok: true, value: { a: 2 } });
    assert.deepEqual(parseJsonOutput('The result is {"a":3} ok'), { ok: true, value: { a: 3 } });
    assert.match((parseJsonOutput('   ') as any).problem, /empty/);
    assert.match((parseJsonOutput('{nope') as any).problem, /not valid JSON/);
  });
});
