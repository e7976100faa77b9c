import assert from 'node:assert/strict';
import type OpenAI from 'openai';
import {
  normalizeCompletion,
  normalizeFinishReason,
  normalizeUsage,
  StreamAssembler,
} from '../../../src/core/llm/completionNormalizer';
import { MalformedResponseError } from '../../../src/core/llm/errorClassifier';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): Chunk =>
  ({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices, ...extra }) as Chunk;

describe('llm: completion normalisation', () => {
  it('maps finish reasons, treating tool calls with "stop" as tool_calls', () => {
    assert.equal(normalizeFinishReason('stop', false), 'stop');
    assert.equal(normalizeFinishReason('length', true), 'length');
    assert.equal(normalizeFinishReason('stop', true), 'tool_calls');
    assert.equal(normalizeFinishReason(null, true), 'tool_calls');
    assert.equal(normalizeFinishReason('function_call', false), 'tool_calls');
    assert.equal(normalizeFinishReason('content_filter', false), 'content_filter');
    assert.equal(normalizeFinishReason('eos', false), 'unknown');
    assert.equal(normalizeFinishReason(undefined, false), 'unknown');
  });

  it('normalises usage, computing a missing total and ignoring junk', () => {
    assert.deepEqual(normalizeUsage(undefined), { promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    assert.deepEqual(normalizeUsage({ prompt_tokens: 3, completion_tokens: 4 }), {
      promptTokens: 3,
      completionTokens: 4,
      totalTokens: 7,
    });
    assert.deepEqual(normalizeUsage({ prompt_tokens: -1, completion_tokens: Number.NaN, total_tokens: 9 }), {
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 9,
    });
  });

  it('rejects answers that are not chat completions', () => {
    for (const bad of [undefined, null, '<html>', 42, {}, { choices: 'x' }, { choices: [] }]) {
      assert.throws(() => normalizeCompletion(bad, 'm', 1), MalformedResponseError);
    }
  });

  it('copes with odd but usable completions', () => {
    const r = normalizeCompletion(
      {
        choices: [
          {
            message: {
              content: [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }],
              tool_calls: [
                { type: 'function', function: { name: 'f', arguments: { x: 1 } } },
                { type: 'custom', custom: { name: 'ignored' } },
                { function: { name: 'g' } },
              ],
            },
            finish_reason: 'stop',
          },
        ],
      },
      'req-model',
      5,
    );
    assert.equal(r.text, 'ab');
    assert.deepEqual(r.toolCalls, [
      { id: 'call_0', name: 'f', arguments: '{"x":1}' },
      { id: 'call_2', name: 'g', arguments: '' },
    ]);
    assert.equal(r.finishReason, 'tool_calls');
    assert.equal(r.model, 'req-model');
    assert.equal(r.latencyMs, 5);
    assert.equal(normalizeCompletion({ choices: [{ message: { content: null }, finish_reason: 'length' }] }, 'm', 0).text, '');
    assert.equal(normalizeCompletion({ choices: [{ finish_reason: 'stop' }] }, 'm', 0).text, '');
  });

  it('assembles streams, also from servers that omit the tool-call index', () => {
    const a = new StreamAssembler();
    assert.equal(a.push(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])), '');
    assert.equal(
      a.push(
        chunk([
          { index: 0, delta: { content: 'Hi' }, finish_reason: null },
          { index: 1, delta: { content: 'other choice' } },
        ]),
      ),
      'Hi',
    );
    a.push(
      chunk([
        {
          index: 0,
          delta: {
            tool_calls: [{ id: 't1', function: { name: 'f', arguments: { a: 1 } } }, { function: { name: 'g', arguments: '{' } }],
          },
        },
      ]),
    );
    a.push(chunk([{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '}' } }] } }]));
    assert.equal(a.finished, false);
    a.push(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
    a.push(chunk([], { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }, model: 'served' }));
    assert.equal(a.finished, true);
    const r = a.result('requested', 9);
    assert.equal(r.text, 'Hi');
    assert.deepEqual(r.toolCalls, [
      { id: 't1', name: 'f', arguments: '{"a":1}' },
      { id: 'call_1', name: 'g', arguments: '{}' },
    ]);
    assert.equal(r.finishReason, 'tool_calls');
    assert.deepEqual(r.usage, { promptTokens: 1, completionTokens: 2, totalTokens: 3 });
    assert.equal(r.model, 'served');
    const empty = new StreamAssembler().result('requested', 0);
    assert.equal(empty.model, 'requested');
    assert.equal(empty.finishReason, 'unknown');
  });
});
