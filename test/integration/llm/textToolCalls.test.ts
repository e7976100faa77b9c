import assert from 'node:assert/strict';
import { createOpenAIClient, type LlmCallOptions, type ToolSpec } from '../../../src/core/llm';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

const USER = [{ role: 'user' as const, content: 'Write the first failing FizzBuzz test.' }];
const WRITE_FILE: ToolSpec = {
  type: 'function',
  function: {
    name: 'write_file',
    description: 'Write a file',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
  },
};
const ARGS = { path: 'test/fizzbuzz.test.js', content: "import { test } from 'node:test';\n" };
const HERMES = `I'll write the test first.\n<tool_call>\n${JSON.stringify({ name: 'write_file', arguments: ARGS })}\n</tool_call>`;

// A local model served without a tool parser answers with the call in its text: the client reads it, over the
// real wire, whether the answer is streamed or not.
describe('llm: tool calls a model writes as text, through the loopback server', () => {
  let server: OpenAITestServer;
  const client = () => createOpenAIClient({ baseURL: server.baseURL, maxRetries: 0, provider: 'ollama' });
  const ask = (extra: Partial<LlmCallOptions> = {}): LlmCallOptions => ({ model: 'test-model', messages: USER, ...extra });

  beforeEach(async () => {
    server = await startOpenAIServer();
  });
  afterEach(() => server.close());

  for (const streamed of [false, true]) {
    const mode = streamed ? 'streamed' : 'not streamed';

    it(`reads a Hermes <tool_call> from the content into a real call (${mode})`, async () => {
      server.enqueue({ text: HERMES });
      const deltas: string[] = [];
      const result = await client().call(ask({ tools: [WRITE_FILE], ...(streamed ? { onDelta: (d) => deltas.push(d) } : {}) }));

      assert.equal(result.toolCallsFromText, 1);
      assert.equal(result.finishReason, 'tool_calls');
      assert.equal(result.text, "I'll write the test first.");
      assert.equal(result.toolCalls.length, 1);
      assert.equal(result.toolCalls[0]!.name, 'write_file');
      assert.deepEqual(JSON.parse(result.toolCalls[0]!.arguments), ARGS);
      assert.match(result.toolCalls[0]!.id, /^call_text_/);
      // The server really sent it as text, with no tool_calls.
      if (streamed) assert.equal(deltas.join(''), HERMES);
    });

    it(`reads a list of bare calls with loose names and string arguments (${mode})`, async () => {
      const text = JSON.stringify([
        { name: 'Write-File', arguments: JSON.stringify(ARGS) },
        { name: 'writeFile', parameters: { path: 'b.js', content: '' } },
      ]);
      server.enqueue({ text });
      const result = await client().call(ask({ tools: [WRITE_FILE], ...(streamed ? { onDelta: () => undefined } : {}) }));
      assert.equal(result.toolCallsFromText, 2);
      assert.deepEqual(
        result.toolCalls.map((c) => [c.name, JSON.parse(c.arguments) as unknown]),
        [
          ['write_file', ARGS],
          ['write_file', { path: 'b.js', content: '' }],
        ],
      );
      assert.equal(result.text, '');
    });

    it(`leaves the text alone when the request offered no tools (${mode})`, async () => {
      server.enqueue({ text: HERMES });
      const result = await client().call(ask(streamed ? { onDelta: () => undefined } : {}));
      assert.equal(result.text, HERMES);
      assert.deepEqual(result.toolCalls, []);
      assert.equal(result.toolCallsFromText, undefined);
      assert.equal(result.finishReason, 'stop');
      assert.equal(server.chatRequests()[0]!.body.tools, undefined);
    });
  }

  it('keeps real tool calls as they are, and an answer that only shows JSON as text', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'call_real', name: 'write_file', arguments: ARGS }], text: HERMES },
      { fencedJson: { name: 'fizzbuzz', scripts: { test: 'node --test' } } },
    );
    const real = await client().call(ask({ tools: [WRITE_FILE] }));
    assert.deepEqual(
      real.toolCalls.map((c) => c.id),
      ['call_real'],
    );
    assert.equal(real.toolCallsFromText, undefined);
    assert.equal(real.text, HERMES);

    const example = await client().call(ask({ tools: [WRITE_FILE] }));
    assert.deepEqual(example.toolCalls, []);
    assert.match(example.text, /^```json\n/);
  });
});
