import { strict as assert } from 'node:assert';
import { AgentFactory, rawBlock, readRawBlock } from '../../../src/core/agentsAsData';

describe('input payload: raw blocks for multi-line values', () => {
  it('writes a multi-line string raw between <key> lines, and reads it back exactly', () => {
    for (const value of ['a\nb', 'x = "1";\n\tindented \\ back\n', '\nleading newline', 'line\r\nwindows']) {
      const block = rawBlock('context', value)!;
      assert.equal(block, `<context>\n${value}\n</context>`);
      assert.equal(readRawBlock(`Input:\n${block}\n\nBegin now.`, 'context'), value);
    }
  });

  it('keeps a single-line value, and a text holding its own closing tag, as a JSON string literal', () => {
    assert.equal(rawBlock('context', 'one line "quoted"'), undefined);
    assert.equal(rawBlock('context', 'a\n</context>\nb'), undefined);
    const user = String(
      AgentFactory.create('qa', 'v1', { question: 'q?', context: 'a\n</context>\nb' }).compose().messages[1]!.content,
    );
    assert.ok(user.includes('context = "a\\n</context>\\nb"'), user);
    assert.equal(readRawBlock(user, 'context'), undefined);
  });

  it('code reaches the model unescaped: no \\n or \\" inside the block', () => {
    const code = 'export function add(a, b) {\n  return "sum: " + (a + b);\n}\n';
    const user = String(
      AgentFactory.create('qa', 'v1', { question: 'What does add return?', context: code }).compose().messages[1]!.content,
    );
    assert.ok(user.includes(`\n${code}\n</context>`), user);
    assert.ok(user.startsWith('Input:\nquestion = "What does add return?"\n<context>\n'), user);
  });
});
