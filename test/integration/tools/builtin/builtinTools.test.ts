import { strict as assert } from 'node:assert';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  createBuiltinTools,
  createWorkspaceTools,
  previewToolCall,
  type ToolCallPreview,
} from '../../../../src/core/tools/builtin';
import { TOOL_CATEGORIES } from '../../../../src/core/tools/types';
import { callTool, createTempWorkspace, type TempWorkspace } from './support/workspace';

type JsonSchema = {
  type?: string;
  properties?: Record<string, { description?: string }>;
  required?: string[];
  additionalProperties?: unknown;
};
const schemaOf = (p: z.ZodType) => z.toJSONSchema(p, { io: 'input' }) as JsonSchema;

describe('builtin tools: the set and its contract', () => {
  it('createBuiltinTools gives the twelve tools with honest danger levels and known categories', () => {
    const tools = createBuiltinTools();
    const levels = Object.fromEntries(tools.map((t) => [t.name, `${t.category}/${t.dangerLevel}`]));
    assert.deepEqual(levels, {
      read_file: 'file/SAFE',
      write_file: 'file/MEDIUM',
      edit_file: 'file/MEDIUM',
      delete_file: 'file/HIGH',
      list_files: 'file/SAFE',
      search_files: 'search/SAFE',
      run_command: 'shell/HIGH',
      run_tests: 'test/MEDIUM',
      git_status: 'git/SAFE',
      git_diff: 'git/SAFE',
      git_commit: 'git/MEDIUM',
      http_request: 'http/HIGH',
    });
    for (const tool of tools) {
      assert.ok((TOOL_CATEGORIES as readonly string[]).includes(tool.category));
      assert.match(tool.name, /^[a-z_]{1,64}$/);
      assert.ok(tool.description.length > 20, `${tool.name} needs a real description`);
    }
  });

  it('every parameter of every tool carries a description in the JSON schema the model sees', () => {
    for (const tool of createBuiltinTools()) {
      const schema = schemaOf(tool.parameters);
      assert.equal(schema.type, 'object', tool.name);
      for (const [field, prop] of Object.entries(schema.properties ?? {})) {
        assert.ok(prop.description && prop.description.length > 5, `${tool.name}.${field} has no description`);
      }
    }
  });

  it('createWorkspaceTools gives the five TDD tools with exactly the agreed parameters', () => {
    const tools = createWorkspaceTools();
    const shapes = Object.fromEntries(
      tools.map((t) => {
        const s = schemaOf(t.parameters);
        return [t.name, { props: Object.keys(s.properties ?? {}), required: s.required ?? [] }];
      }),
    );
    assert.deepEqual(shapes, {
      list_files: { props: ['path'], required: [] },
      read_file: { props: ['path'], required: ['path'] },
      write_file: { props: ['path', 'content'], required: ['path', 'content'] },
      edit_file: { props: ['path', 'search', 'replace', 'replace_all', 'edits'], required: ['path'] },
      run_tests: { props: [], required: [] },
    });
  });

  it('the workspace list_files is always recursive', async () => {
    const ws = await createTempWorkspace();
    try {
      await mkdir(path.join(ws.root, 'a', 'b'), { recursive: true });
      await writeFile(path.join(ws.root, 'a', 'b', 'c.txt'), 'x');
      const listFiles = createWorkspaceTools().find((t) => t.name === 'list_files')!;
      const out = await callTool(listFiles, {}, ws.context());
      assert.match(out.content, /^a\/b\/c\.txt$/m);
    } finally {
      await ws.cleanup();
    }
  });
});

describe('builtin tools: previewToolCall (before approval, changes nothing)', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await createTempWorkspace();
    await writeFile(path.join(ws.root, 'calc.ts'), 'const a = 1;\nconst b = 2;\n');
    await writeFile(path.join(ws.outside, 'secret.txt'), 'secret\n');
  });
  afterEach(() => ws.cleanup());

  it('shows the diff a write_file would make, for new and existing files, without writing', async () => {
    const created = await previewToolCall('write_file', { path: 'src/new.ts', content: 'x\n' }, ws.root);
    assert.deepEqual(created, { kind: 'diff', path: 'src/new.ts', diff: '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1 @@\n+x\n' });
    const updated = (await previewToolCall(
      'write_file',
      { path: 'calc.ts', content: 'const a = 1;\nconst b = 3;\n' },
      ws.root,
    )) as ToolCallPreview & { diff: string };
    assert.match(updated.diff, /^-const b = 2;\n\+const b = 3;$/m);
    assert.equal(await readFile(path.join(ws.root, 'calc.ts'), 'utf8'), 'const a = 1;\nconst b = 2;\n');
  });

  it('shows edit_file and delete_file diffs, and nothing for an edit that would fail', async () => {
    const edit = (await previewToolCall('edit_file', { path: 'calc.ts', search: 'a = 1', replace: 'a = 10' }, ws.root)) as {
      diff: string;
    };
    assert.match(edit.diff, /^\+const a = 10;$/m);
    assert.equal(await previewToolCall('edit_file', { path: 'calc.ts', search: 'missing', replace: 'x' }, ws.root), undefined);
    assert.equal(await previewToolCall('edit_file', { path: 'none.ts', search: 'a', replace: 'b' }, ws.root), undefined);
    const del = (await previewToolCall('delete_file', { path: 'calc.ts' }, ws.root)) as { diff: string };
    assert.match(del.diff, /\+\+\+ \/dev\/null\n@@ -1,2 \+0,0 @@/);
    assert.equal(await previewToolCall('delete_file', { path: 'none.ts' }, ws.root), undefined);
  });

  it('shows command lines and requests', async () => {
    assert.deepEqual(await previewToolCall('run_command', { command: 'npm test' }, ws.root), {
      kind: 'command',
      commandLine: 'npm test',
    });
    assert.deepEqual(await previewToolCall('git_commit', { message: 'Red: add test' }, ws.root), {
      kind: 'command',
      commandLine: 'git add -A -- . && git commit -m "Red: add test"',
    });
    assert.deepEqual(await previewToolCall('git_commit', { message: 'x', stage_all: false }, ws.root), {
      kind: 'command',
      commandLine: 'git commit -m "x"',
    });
    assert.deepEqual(await previewToolCall('http_request', { url: 'https://example.com', method: 'POST', body: '{}' }, ws.root), {
      kind: 'request',
      method: 'POST',
      url: 'https://example.com',
      hasBody: true,
    });
  });

  it('gives no preview for outside paths, binary files, invalid parameters and tools without one', async () => {
    assert.equal(await previewToolCall('write_file', { path: '../outside/secret.txt', content: 'x' }, ws.root), undefined);
    await symlink(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'leak'));
    assert.equal(await previewToolCall('delete_file', { path: 'leak' }, ws.root), undefined);
    await writeFile(path.join(ws.root, 'bin.dat'), Buffer.from([1, 0, 2]));
    assert.equal(await previewToolCall('write_file', { path: 'bin.dat', content: 'x' }, ws.root), undefined);
    for (const name of ['write_file', 'edit_file', 'delete_file', 'run_command', 'git_commit', 'http_request']) {
      assert.equal(await previewToolCall(name, { nonsense: true }, ws.root), undefined, name);
    }
    assert.equal(await previewToolCall('read_file', { path: 'calc.ts' }, ws.root), undefined);
  });
});
