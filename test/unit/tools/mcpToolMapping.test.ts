import { strict as assert } from 'node:assert';
import { mcpServerConfigSchema } from '../../../src/core/mcp/config';
import { mcpToolName } from '../../../src/core/mcp/toolNames';
import { mcpResultToOutput } from '../../../src/core/mcp/toolResult';
import { TOOL_NAME_PATTERN } from '../../../src/core/tools/registry';

describe('MCP tool names', () => {
  it('prefixes with the server and keeps OpenAI-valid characters', () => {
    assert.equal(mcpToolName('fs', 'read_text_file'), 'fs__read_text_file');
    assert.equal(mcpToolName('every', 'get.sum/v2 beta'), 'every__get_sum_v2_beta');
  });

  it('cuts long names to 64 characters with a hash so distinct tools stay distinct', () => {
    const a = mcpToolName('server', `a${'x'.repeat(80)}`);
    const b = mcpToolName('server', `b${'x'.repeat(80)}`);
    for (const name of [a, b]) {
      assert.equal(name.length, 64);
      assert.match(name, TOOL_NAME_PATTERN);
    }
    assert.notEqual(a, b);
  });

  it('avoids names already taken', () => {
    const taken = new Set(['fs__read']);
    const name = mcpToolName('fs', 'read', (n) => taken.has(n));
    assert.match(name, /^fs__read_[0-9a-f]{8}$/);
    assert.throws(() => mcpToolName('fs', 'read', () => true), /could not find a free tool name/);
  });
});

describe('MCP results as tool output', () => {
  it('joins text, describes images, audio, links and resources, keeps structured content as data', () => {
    const output = mcpResultToOutput({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'audio', data: 'AAAAAAAA' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
        { type: 'resource', resource: { uri: 'file:///b.txt', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'file:///c.bin', mimeType: 'application/zip', blob: 'AAAA' } },
        { type: 'future_kind', value: 1 },
      ],
      structuredContent: { temperature: 21 },
    });
    assert.equal(
      output.content,
      [
        'hello',
        '[image image/png, 3 bytes]',
        '[audio unknown type, 6 bytes]',
        '[resource file:///a.txt "a"]',
        'inline text',
        '[resource file:///c.bin application/zip, 3 bytes]',
        '{"type":"future_kind","value":1}',
      ].join('\n'),
    );
    assert.deepEqual(output.data, { temperature: 21 });
  });

  it('falls back to structured content or a legacy toolResult when there is no content', () => {
    assert.equal(mcpResultToOutput({ structuredContent: { a: 1 } }).content, '{"a":1}');
    assert.equal(mcpResultToOutput({ toolResult: 'legacy' }).content, '"legacy"');
    assert.equal(mcpResultToOutput({}).content, '');
  });
});

describe('MCP server configuration', () => {
  it('accepts stdio and http servers and rejects unknown keys and transports', () => {
    assert.ok(
      mcpServerConfigSchema.safeParse({
        name: 'a',
        transport: 'stdio',
        command: 'node',
        args: ['x'],
        env: { A: 'b' },
        cwd: '/tmp',
      }).success,
    );
    assert.ok(
      mcpServerConfigSchema.safeParse({ name: 'b', transport: 'http', url: 'https://example.com/mcp', headers: { X: 'y' } })
        .success,
    );
    assert.equal(mcpServerConfigSchema.safeParse({ name: 'c', transport: 'stdio', command: 'node', extra: 1 }).success, false);
    assert.equal(mcpServerConfigSchema.safeParse({ name: 'd', transport: 'sse', url: 'https://x' }).success, false);
    assert.equal(mcpServerConfigSchema.safeParse({ name: 'x'.repeat(33), transport: 'stdio', command: 'node' }).success, false);
  });
});
