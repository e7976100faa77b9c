import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { ToolRegistrationError, ToolCallError } from '../../../src/core/tools/errors';
import { ToolRegistry, type RegisteredTool } from '../../../src/core/tools/registry';
import { toToolSpecs, toolParametersJsonSchema } from '../../../src/core/tools/toolSpecs';
import { defineTool, type DangerLevel, type ToolCategory } from '../../../src/core/tools/types';

function tool(
  name: string,
  category: ToolCategory = 'file',
  dangerLevel: DangerLevel = 'SAFE',
  description = `does ${name}`,
): RegisteredTool {
  return defineTool({
    name,
    description,
    category,
    dangerLevel,
    parameters: z.object({ path: z.string().describe('workspace-relative path'), limit: z.number().int().default(10) }),
    execute: async (p) => `ran ${p.path}`,
  });
}

describe('ToolRegistry', () => {
  it('registers, gets, lists in registration order and unregisters', () => {
    const registry = new ToolRegistry().register(tool('read_file'), tool('write_file', 'file', 'MEDIUM'));
    assert.equal(registry.size, 2);
    assert.deepEqual(registry.names(), ['read_file', 'write_file']);
    assert.equal(registry.get('read_file')?.name, 'read_file');
    assert.equal(registry.has('write_file'), true);
    assert.equal(registry.unregister('write_file'), true);
    assert.equal(registry.unregister('write_file'), false);
    assert.deepEqual(
      registry.list().map((t) => t.name),
      ['read_file'],
    );
  });

  it('refuses a duplicate name with a typed CONFIG error', () => {
    const registry = new ToolRegistry().register(tool('read_file'));
    assert.throws(
      () => registry.register(tool('read_file')),
      (e: unknown) =>
        e instanceof ToolRegistrationError &&
        e.error_code === 'CONFIG' &&
        /already registered/.test(e.message) &&
        e.toolName === 'read_file',
    );
  });

  it('refuses names OpenAI would reject, unknown categories and danger levels, and tools without a schema', () => {
    const registry = new ToolRegistry();
    for (const bad of ['', 'has space', 'dot.name', 'x'.repeat(65), 'ünïcode']) {
      assert.throws(() => registry.register(tool(bad)), ToolRegistrationError, bad);
    }
    assert.doesNotThrow(() => registry.register(tool('x'.repeat(64))));
    assert.throws(() => registry.register(tool('a', 'weird' as ToolCategory)), /unknown category "weird"/);
    assert.throws(() => registry.register(tool('b', 'file', 'EXTREME' as DangerLevel)), /unknown danger level "EXTREME"/);
    assert.throws(() => registry.register({ ...tool('c'), parameters: undefined as never }), /zod "parameters" schema/);
    assert.equal(registry.has('a'), false);
  });

  it('require() names the available tools when a tool is missing', () => {
    const registry = new ToolRegistry().register(tool('read_file'), tool('list_files'));
    assert.throws(
      () => registry.require('rm_rf'),
      (e: unknown) => e instanceof ToolCallError && e.error_code === 'TOOL_NOT_FOUND' && /read_file, list_files/.test(e.message),
    );
    assert.throws(() => new ToolRegistry().require('x'), /\(none\)/);
    assert.equal(registry.require('read_file').name, 'read_file');
  });

  it('discovers tools by category, safety, maximum danger and keyword', () => {
    const registry = new ToolRegistry().register(
      tool('read_file', 'file', 'SAFE', 'Read a file'),
      tool('write_file', 'file', 'MEDIUM', 'Write a file'),
      tool('run_command', 'shell', 'HIGH', 'Run a shell command'),
      tool('git_status', 'git', 'SAFE', 'Show the working tree status'),
    );
    const names = (q: Parameters<ToolRegistry['discoverTools']>[0]) => registry.discoverTools(q).map((t) => t.name);
    assert.deepEqual(names({}), ['read_file', 'write_file', 'run_command', 'git_status']);
    assert.deepEqual(names({ category: 'file' }), ['read_file', 'write_file']);
    assert.deepEqual(names({ safeOnly: true }), ['read_file', 'git_status']);
    assert.deepEqual(names({ maxDangerLevel: 'MEDIUM' }), ['read_file', 'write_file', 'git_status']);
    assert.deepEqual(names({ keyword: 'FILE' }), ['read_file', 'write_file']);
    assert.deepEqual(names({ keyword: 'status', safeOnly: true, category: 'git' }), ['git_status']);
    assert.deepEqual(names({ keyword: 'nothing-like-this' }), []);
  });
});

describe('toToolSpecs', () => {
  it('turns zod parameters into OpenAI function tools with z.toJSONSchema (input side)', () => {
    const [spec] = toToolSpecs([tool('read_file')]);
    assert.equal(spec!.type, 'function');
    assert.equal(spec!.function.name, 'read_file');
    assert.match(spec!.function.description!, /does read_file \[danger: SAFE\]/);
    const params = spec!.function.parameters as any;
    assert.equal(params.type, 'object');
    assert.equal(params.$schema, undefined);
    assert.equal(params.properties.path.description, 'workspace-relative path');
    // `limit` has a default, so the model may omit it.
    assert.deepEqual(params.required, ['path']);
  });

  it("passes an MCP server's JSON schema through as-is", () => {
    const schema = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
    const mcp: RegisteredTool = { ...tool('srv__echo', 'mcp', 'MEDIUM'), inputJsonSchema: schema };
    assert.equal(toolParametersJsonSchema(mcp), schema);
    assert.deepEqual(toToolSpecs([mcp])[0]!.function.parameters, schema);
  });
});
