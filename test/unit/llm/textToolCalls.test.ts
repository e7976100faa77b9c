import assert from 'node:assert/strict';
import { readToolCallsFromText, withToolCallsFromText } from '../../../src/core/llm/textToolCalls';
import type { LlmResult, ToolSpec } from '../../../src/core/llm/types';

const OFFERED = ['write_file', 'read_file', 'run_tests', 'edit_file'];
const TEST = "test('fizz', () => {\n  assert.equal(fizzbuzz(3), 'Fizz');\n});\n";
const WRITE_ARGS = { path: 'test/fizzbuzz.test.js', content: TEST };

/** The calls found, without the made-up ids (checked on their own). */
function read(text: string, offered: readonly string[] = OFFERED) {
  let n = 0;
  const found = readToolCallsFromText(text, offered, () => `id_${++n}`);
  return (
    found && {
      text: found.text,
      calls: found.toolCalls.map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.arguments) as unknown })),
    }
  );
}

function spec(name: string): ToolSpec {
  return { type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } };
}

function answer(text: string, extra: Partial<LlmResult> = {}): LlmResult {
  return {
    text,
    toolCalls: [],
    finishReason: 'stop',
    usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    model: 'qwen2.5-coder:7b',
    latencyMs: 1,
    ...extra,
  };
}

describe('llm: tool calls written in text (local models without a tool parser)', () => {
  it('reads a bare JSON object with "arguments"', () => {
    const found = read(JSON.stringify({ name: 'write_file', arguments: WRITE_ARGS }));
    assert.deepEqual(found, { text: '', calls: [{ id: 'id_1', name: 'write_file', args: WRITE_ARGS }] });
  });

  it('reads "parameters" in place of "arguments", and a call without arguments as {}', () => {
    assert.deepEqual(read('{"name": "read_file", "parameters": {"path": "src/fizzbuzz.js"}}')?.calls, [
      { id: 'id_1', name: 'read_file', args: { path: 'src/fizzbuzz.js' } },
    ]);
    assert.deepEqual(read('{"name": "run_tests"}')?.calls, [{ id: 'id_1', name: 'run_tests', args: {} }]);
  });

  it('reads a list of calls, in order', () => {
    const text = JSON.stringify([
      { name: 'write_file', arguments: WRITE_ARGS },
      { name: 'run_tests', arguments: {} },
    ]);
    assert.deepEqual(read(text)?.calls, [
      { id: 'id_1', name: 'write_file', args: WRITE_ARGS },
      { id: 'id_2', name: 'run_tests', args: {} },
    ]);
  });

  it('reads a ```json fenced block, removing the whole fence and keeping the prose around it', () => {
    const text =
      'I will add the first failing test.\n\n```json\n' +
      JSON.stringify({ name: 'write_file', arguments: WRITE_ARGS }, null, 2) +
      '\n```\n\nThen the implementer can make it pass.';
    const found = read(text);
    assert.equal(found?.text, 'I will add the first failing test.\n\nThen the implementer can make it pass.');
    assert.deepEqual(found?.calls, [{ id: 'id_1', name: 'write_file', args: WRITE_ARGS }]);
  });

  it('reads Hermes/Qwen <tool_call> tags, one or several, and an unclosed last one', () => {
    const one = `<tool_call>\n${JSON.stringify({ name: 'write_file', arguments: WRITE_ARGS })}\n</tool_call>`;
    assert.deepEqual(read(one), { text: '', calls: [{ id: 'id_1', name: 'write_file', args: WRITE_ARGS }] });

    const several =
      'Writing the test, then running it.\n' +
      `<tool_call>${JSON.stringify({ name: 'write_file', arguments: WRITE_ARGS })}</tool_call>\n` +
      `<tool_call>\n{"name": "run_tests", "arguments": {}}\n</tool_call>`;
    const found = read(several);
    assert.equal(found?.text, 'Writing the test, then running it.');
    assert.deepEqual(
      found?.calls.map((c) => c.name),
      ['write_file', 'run_tests'],
    );

    assert.deepEqual(read('Running them.\n<tool_call>\n{"name": "run_tests", "arguments": {}}'), {
      text: 'Running them.',
      calls: [{ id: 'id_1', name: 'run_tests', args: {} }],
    });
  });

  it('reads an unclosed <tool_call> followed by more words, leaving the words', () => {
    assert.deepEqual(read('<tool_call>\n{"name": "run_tests", "arguments": {}}\nThat should show one failure.'), {
      text: 'That should show one failure.',
      calls: [{ id: 'id_1', name: 'run_tests', args: {} }],
    });
  });

  it("takes the markers of Mistral's and Llama's templates with the calls", () => {
    assert.deepEqual(read('[TOOL_CALLS] [{"name": "run_tests", "arguments": {}}]'), {
      text: '',
      calls: [{ id: 'id_1', name: 'run_tests', args: {} }],
    });
    assert.deepEqual(read('Checking.\n<|python_tag|>{"name": "read_file", "parameters": {"path": "a.js"}}'), {
      text: 'Checking.',
      calls: [{ id: 'id_1', name: 'read_file', args: { path: 'a.js' } }],
    });
  });

  it('reads arguments given as a JSON string, and writes them back as a JSON object string', () => {
    const text = JSON.stringify({ name: 'write_file', arguments: JSON.stringify(WRITE_ARGS) });
    const found = readToolCallsFromText(text, OFFERED);
    assert.equal(found?.toolCalls[0]?.arguments, JSON.stringify(WRITE_ARGS));
    // OpenAI's own shape, written out.
    const openai = `<tool_call>${JSON.stringify({ id: 'call_9', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.js"}' } })}</tool_call>`;
    assert.deepEqual(read(openai)?.calls, [{ id: 'call_9', name: 'read_file', args: { path: 'a.js' } }]);
  });

  it('makes up an id when there is none, keeps one that is given, and never repeats one', () => {
    const found = readToolCallsFromText(
      '[{"name": "run_tests", "arguments": {}}, {"name": "run_tests", "arguments": {}, "id": "mine"}, {"name": "run_tests"}]',
      OFFERED,
    );
    const ids = found!.toolCalls.map((c) => c.id);
    assert.match(ids[0]!, /^call_text_[0-9a-f]{12}$/);
    assert.equal(ids[1], 'mine');
    assert.notEqual(ids[0], ids[2]);
  });

  it('maps a name that differs only in case or separators onto the offered tool', () => {
    for (const written of ['Write-File', 'writeFile', 'WRITE_FILE', 'write file', 'functions.write_file']) {
      assert.equal(read(JSON.stringify({ name: written, arguments: WRITE_ARGS }))?.calls[0]?.name, 'write_file', written);
    }
    // Two offered tools that differ only so: an exact name still picks one, a loose one picks none.
    assert.equal(read('{"name": "write-file", "arguments": {}}', ['write_file', 'writeFile'])?.calls[0]?.name, undefined);
    assert.equal(read('{"name": "writeFile", "arguments": {}}', ['write_file', 'writeFile'])?.calls[0]?.name, 'writeFile');
  });

  it('keeps prose before and after a bare call', () => {
    const text = `Let me run the tests now.\n{"name": "run_tests", "arguments": {}}\nI expect one failure.`;
    assert.deepEqual(read(text), {
      text: 'Let me run the tests now.\nI expect one failure.',
      calls: [{ id: 'id_1', name: 'run_tests', args: {} }],
    });
  });

  it('leaves a call to a tool nobody offered as text', () => {
    assert.equal(read('{"name": "delete_everything", "arguments": {"path": "/"}}'), undefined);
    assert.equal(read('<tool_call>{"name": "shell", "arguments": {"cmd": "ls"}}</tool_call>'), undefined);
    // A list is a call only when every entry is one.
    assert.equal(read('[{"name": "run_tests", "arguments": {}}, {"name": "shell", "arguments": {}}]'), undefined);
  });

  it('leaves a JSON example in an answer as text', () => {
    const answers = [
      'The function returns an object such as {"name": "Fizz", "value": 3}.',
      'Config example:\n```json\n{"name": "fizzbuzz", "version": "1.0.0", "scripts": {"test": "node --test"}}\n```',
      '```json\n{"name": "write_file", "arguments": {"path": "a.js"}}\nthat is how a call looks\n```',
      'A call looks like {"name": "write_file", "arguments": {"path": "a.js"}, "comment": "not a call"}.',
      '{"answer": {"name": "run_tests", "arguments": {}}}',
      '[1, 2, "Fizz", 4, "Buzz"]',
      'Arguments must be an object: {"name": "run_tests", "arguments": [1, 2]}',
      'Not JSON at all: {"name": "run_tests", "arguments": {',
      '```js\nconst call = {"name": "run_tests", "arguments": {}};\n```',
    ];
    for (const text of answers) assert.equal(read(text), undefined, text);
  });

  it('reads nothing when no tools are offered', () => {
    assert.equal(read('{"name": "write_file", "arguments": {"path": "a.js", "content": ""}}', []), undefined);
  });

  describe('withToolCallsFromText (the client applies it to every answer)', () => {
    const hermes = `<tool_call>\n{"name": "run_tests", "arguments": {}}\n</tool_call>`;

    it('turns the text into real calls, marks and counts them, and reports the tool_calls finish', () => {
      const r = withToolCallsFromText(answer(`Checking.\n${hermes}`), { tools: [spec('run_tests')] });
      assert.equal(r.text, 'Checking.');
      assert.equal(r.toolCallsFromText, 1);
      assert.equal(r.finishReason, 'tool_calls');
      assert.deepEqual(
        r.toolCalls.map((c) => [c.name, c.arguments]),
        [['run_tests', '{}']],
      );
    });

    it('leaves the answer untouched without tools, with toolChoice none, or with real tool calls', () => {
      const plain = answer(hermes);
      assert.equal(withToolCallsFromText(plain, {}), plain);
      assert.equal(withToolCallsFromText(plain, { tools: [] }), plain);
      assert.equal(withToolCallsFromText(plain, { tools: [spec('run_tests')], toolChoice: 'none' }), plain);
      const native = answer(hermes, {
        toolCalls: [{ id: 'c1', name: 'run_tests', arguments: '{}' }],
        finishReason: 'tool_calls',
      });
      assert.equal(withToolCallsFromText(native, { tools: [spec('run_tests')] }), native);
      const example = answer('Done: {"name": "Fizz"}');
      assert.equal(withToolCallsFromText(example, { tools: [spec('run_tests')] }), example);
    });
  });
});
