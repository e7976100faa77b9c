import { strict as assert } from 'node:assert';
import { figuresOf, requestText } from '../../../bench/promptTokens';

describe('bench/promptTokens: how a request is counted', () => {
  it('counts a tool call as its name and its arguments as written, once, without the call id', () => {
    const text = requestText({
      tools: [],
      messages: [
        { role: 'system', content: 'agent: tester/v1\nrules' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '{"path":"a.js","content":"x\\n"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Created a.js' },
      ],
    });
    assert.equal(
      text,
      [
        '[]',
        '<|system|>',
        'agent: tester/v1\nrules',
        '<|assistant|>',
        'write_file {"path":"a.js","content":"x\\n"}',
        '<|tool|>',
        'Created a.js',
      ].join('\n'),
    );
    assert.doesNotMatch(text, /call_1|\\\\n/);
  });

  it('shares a request with the previous request of the same role only, up to the first differing token', () => {
    const req = (role: string, user: string) => ({
      body: {
        messages: [
          { role: 'system', content: `agent: ${role}/v1` },
          { role: 'user', content: user },
        ],
      },
    });
    const f = figuresOf(
      'python',
      [req('tester', 'same start, then one'), req('implementer', 'other'), req('tester', 'same start, then two')],
      1,
    );
    assert.equal(f.requests, 3);
    assert.ok(f.prefixShare > 0.5 && f.prefixShare < 1, String(f.prefixShare));
    const identical = figuresOf('python', [req('tester', 'abc'), req('tester', 'abc')], 1);
    assert.equal(identical.prefixShare, 1);
  });
});
