import { strict as assert } from 'node:assert';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAgentError } from '../../../../src/core/errors/agentError';
import { deleteFileTool } from '../../../../src/core/tools/builtin/deleteFile';
import { editFileTool } from '../../../../src/core/tools/builtin/editFile';
import { createListFilesTool, listFilesTool, type ListFilesData } from '../../../../src/core/tools/builtin/listFiles';
import { createReadFileTool, readFileTool } from '../../../../src/core/tools/builtin/readFile';
import { searchFilesTool } from '../../../../src/core/tools/builtin/searchFiles';
import { writeFileTool, type FileChangeData } from '../../../../src/core/tools/builtin/writeFile';
import { callTool, createTempWorkspace, escalation, type TempWorkspace } from './support/workspace';

async function fails(promise: Promise<unknown>, code: string, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(isAgentError(e), `expected an AgentError, got ${String(e)}`);
    assert.equal(e.error_code, code, e.message);
    assert.match(e.message, pattern);
    return true;
  });
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

describe('builtin file tools (real files in a temp workspace)', () => {
  let ws: TempWorkspace;
  const file = (...p: string[]) => path.join(ws.root, ...p);
  beforeEach(async () => {
    ws = await createTempWorkspace();
    await mkdir(file('src'));
    await writeFile(file('src', 'calc.ts'), 'export const add = (a: number, b: number) => a + b;\n');
    await writeFile(path.join(ws.outside, 'secret.txt'), 'top secret');
  });
  afterEach(() => ws.cleanup());

  describe('read_file', () => {
    it('returns the text of a file', async () => {
      const out = await callTool(readFileTool, { path: 'src/calc.ts' }, ws.context());
      assert.equal(out.content, 'export const add = (a: number, b: number) => a + b;\n');
      assert.deepEqual(out.data, { path: 'src/calc.ts', bytes: 52, truncated: false });
    });

    it('fails clearly for a missing file, a folder and a binary file', async () => {
      await fails(
        callTool(readFileTool, { path: 'nope.ts' }, ws.context()),
        'TOOL_FAILED',
        /Cannot read 'nope\.ts': it does not exist\. Use list_files/,
      );
      await fails(callTool(readFileTool, { path: 'src' }, ws.context()), 'TOOL_FAILED', /it is a folder/);
      await writeFile(file('img.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
      await fails(callTool(readFileTool, { path: 'img.png' }, ws.context()), 'TOOL_FAILED', /binary file \(4 bytes\)/);
    });

    it('cuts long text with a marker', async () => {
      await writeFile(file('long.txt'), 'x'.repeat(500));
      const out = await callTool(createReadFileTool({ maxChars: 100 }), { path: 'long.txt' }, ws.context());
      assert.match(out.content, /^x{100}\n…\[truncated: 400 more characters not shown/);
      assert.equal((out.data as { truncated: boolean }).truncated, true);
    });

    it('refuses traversal, absolute paths outside and symlink escapes', async () => {
      await fails(
        callTool(readFileTool, { path: '../outside/secret.txt' }, ws.context()),
        'SANDBOX_VIOLATION',
        /outside the workspace/,
      );
      await fails(
        callTool(readFileTool, { path: path.join(ws.outside, 'secret.txt') }, ws.context()),
        'SANDBOX_VIOLATION',
        /absolute path/,
      );
      await symlink(path.join(ws.outside, 'secret.txt'), file('leak.txt'));
      await fails(callTool(readFileTool, { path: 'leak.txt' }, ws.context()), 'SANDBOX_VIOLATION', /symbolic link/);
    });
  });

  describe('write_file', () => {
    it('creates a file with missing folders and returns a diff', async () => {
      const out = await callTool(writeFileTool, { path: 'test/deep/calc.test.ts', content: 'one\ntwo\n' }, ws.context());
      assert.equal(await readFile(file('test', 'deep', 'calc.test.ts'), 'utf8'), 'one\ntwo\n');
      assert.equal(out.content, "Created 'test/deep/calc.test.ts' (8 bytes).");
      const data = out.data as FileChangeData;
      assert.equal(data.created, true);
      assert.equal(data.diff, '--- /dev/null\n+++ b/test/deep/calc.test.ts\n@@ -0,0 +1,2 @@\n+one\n+two\n');
    });

    it('overwrites a file and reports the line changes', async () => {
      const out = await callTool(
        writeFileTool,
        { path: 'src/calc.ts', content: 'export const add = (a: number, b: number) => b + a;\n' },
        ws.context(),
      );
      assert.match(out.content, /Updated 'src\/calc\.ts' \(52 bytes, \+1 -1 lines\)/);
      assert.match((out.data as FileChangeData).diff, /^-export const add = \(a: number, b: number\) => a \+ b;$/m);
      const same = await callTool(
        writeFileTool,
        { path: 'src/calc.ts', content: 'export const add = (a: number, b: number) => b + a;\n' },
        ws.context(),
      );
      assert.match(same.content, /already identical/);
    });

    it('turns file-system errors into workspace-relative messages', async () => {
      await assert.rejects(
        callTool(writeFileTool, { path: 'src/calc.ts/inner.ts', content: 'x' }, ws.context()),
        (e: unknown) => {
          assert.ok(isAgentError(e));
          assert.equal(e.error_code, 'TOOL_FAILED');
          assert.match(
            e.message,
            /^Cannot write 'src\/calc\.ts\/inner\.ts': (a part of the path is a file, not a folder \(ENOTDIR|a file is in the way where a folder is needed \(EEXIST)\)\.$/,
          );
          assert.ok(!e.message.includes(ws.root));
          return true;
        },
      );
    });

    it('refuses to write a folder', async () => {
      await fails(
        callTool(writeFileTool, { path: 'src', content: 'x' }, ws.context()),
        'TOOL_FAILED',
        /it is a folder\. Nothing was changed/,
      );
    });

    it('refuses .git writes, traversal and symlink escapes, changing nothing', async () => {
      await mkdir(file('.git'));
      await writeFile(file('.git', 'config'), '[core]\n');
      for (const p of ['.git/config', 'sub/.git/HEAD', '.GIT/x']) {
        await fails(callTool(writeFileTool, { path: p, content: 'evil' }, ws.context()), 'SANDBOX_VIOLATION', /inside \.git/);
      }
      assert.equal(await readFile(file('.git', 'config'), 'utf8'), '[core]\n');
      assert.equal(await exists(file('sub')), false);
      await fails(
        callTool(writeFileTool, { path: 'a/../../x', content: 'x' }, ws.context()),
        'SANDBOX_VIOLATION',
        /outside the workspace/,
      );
      await symlink(ws.outside, file('out'));
      await fails(
        callTool(writeFileTool, { path: 'out/new.txt', content: 'x' }, ws.context()),
        'SANDBOX_VIOLATION',
        /symbolic link/,
      );
      assert.equal(await exists(path.join(ws.outside, 'new.txt')), false);
      assert.equal(await exists(path.join(path.dirname(ws.root), 'x')), false);
    });

    it('writes a protected path only after a HIGH escalation is approved', async () => {
      await fails(
        callTool(writeFileTool, { path: '.vscode/tasks.json', content: '{}' }, ws.context()),
        'SANDBOX_VIOLATION',
        /needs a one-off approval at HIGH/,
      );
      const denied = escalation(false);
      await fails(
        callTool(
          writeFileTool,
          { path: '.vscode/tasks.json', content: '{}' },
          ws.context({ requestEscalation: denied.requestEscalation }),
        ),
        'SANDBOX_VIOLATION',
        /not approved/,
      );
      assert.equal(await exists(file('.vscode')), false);
      const approved = escalation(true);
      await callTool(
        writeFileTool,
        { path: '.vscode/tasks.json', content: '{}' },
        ws.context({ requestEscalation: approved.requestEscalation }),
      );
      assert.equal(await readFile(file('.vscode', 'tasks.json'), 'utf8'), '{}');
      assert.equal(approved.asked[0]!.level, 'HIGH');
    });
  });

  describe('edit_file', () => {
    it('replaces exactly one occurrence and returns a diff', async () => {
      const out = await callTool(editFileTool, { path: 'src/calc.ts', search: 'a + b', replace: 'a + b + 0' }, ws.context());
      assert.equal(await readFile(file('src', 'calc.ts'), 'utf8'), 'export const add = (a: number, b: number) => a + b + 0;\n');
      assert.equal(out.content, "Edited 'src/calc.ts' (1 replacement, +1 -1 lines).");
      assert.equal((out.data as FileChangeData).replacements, 1);
    });

    it('fails without changing the file when the search text is absent or ambiguous', async () => {
      await writeFile(file('dup.ts'), 'x();\nx();\nx();\n');
      await fails(
        callTool(editFileTool, { path: 'dup.ts', search: 'y()', replace: 'z()' }, ws.context()),
        'TOOL_FAILED',
        /search text was not found.*Nothing was changed/,
      );
      await fails(
        callTool(editFileTool, { path: 'dup.ts', search: 'x()', replace: 'z()' }, ws.context()),
        'TOOL_FAILED',
        /appears 3 times/,
      );
      assert.equal(await readFile(file('dup.ts'), 'utf8'), 'x();\nx();\nx();\n');
      const out = await callTool(
        editFileTool,
        { path: 'dup.ts', search: 'x()', replace: 'z()', replace_all: true },
        ws.context(),
      );
      assert.match(out.content, /3 replacements/);
      assert.equal(await readFile(file('dup.ts'), 'utf8'), 'z();\nz();\nz();\n');
    });

    it('fails for a missing file or a folder, and refuses .git', async () => {
      await fails(
        callTool(editFileTool, { path: 'none.ts', search: 'a', replace: 'b' }, ws.context()),
        'TOOL_FAILED',
        /does not exist \(use write_file/,
      );
      await fails(callTool(editFileTool, { path: 'src', search: 'a', replace: 'b' }, ws.context()), 'TOOL_FAILED', /a folder/);
      await fails(
        callTool(editFileTool, { path: '.git/config', search: 'a', replace: 'b' }, ws.context()),
        'SANDBOX_VIOLATION',
        /\.git/,
      );
    });

    it('rejects an empty search text at the schema', () => {
      assert.equal(editFileTool.parameters.safeParse({ path: 'a', search: '', replace: 'b' }).success, false);
      assert.equal(editFileTool.parameters.safeParse({ path: 'a', edits: [{ search: '', replace: 'b' }] }).success, false);
      assert.equal(editFileTool.parameters.safeParse({ path: 'a', edits: [] }).success, false);
    });

    it('applies several blocks (edits) in order, all or nothing; a failing block is named with its match count', async () => {
      await writeFile(file('multi.js'), "test('one', () => {});\ntest('two', () => {});\n");
      const out = await callTool(
        editFileTool,
        {
          path: 'multi.js',
          edits: [
            { search: "test('one'", replace: "test('first'" },
            { search: "test('two', () => {});\n", replace: "test('two', () => {});\ntest('three', () => {});\n" },
          ],
        },
        ws.context(),
      );
      assert.match(out.content, /^Edited 'multi\.js' \(2 replacements, \+2 -1 lines\)\.$/);
      const edited = "test('first', () => {});\ntest('two', () => {});\ntest('three', () => {});\n";
      assert.equal(await readFile(file('multi.js'), 'utf8'), edited);

      await fails(
        callTool(
          editFileTool,
          {
            path: 'multi.js',
            edits: [
              { search: 'first', replace: 'uno' },
              { search: '() => {});', replace: '() => 1);' },
            ],
          },
          ws.context(),
        ),
        'TOOL_FAILED',
        /block 2 of 2 \(search starting "\(\) => \{\}\);"\): the search text appears 3 times\. Include more surrounding lines to make it unique\. Nothing was changed\./,
      );
      await fails(
        callTool(
          editFileTool,
          {
            path: 'multi.js',
            edits: [
              { search: 'first', replace: 'uno' },
              { search: 'four', replace: 'cuatro' },
            ],
          },
          ws.context(),
        ),
        'TOOL_FAILED',
        /block 2 of 2 \(search starting "four"\): the search text was not found/,
      );
      assert.equal(await readFile(file('multi.js'), 'utf8'), edited, 'block 1 was not applied either');
    });

    it('says where a search text that differs only in whitespace is, and refuses both forms or half of one', async () => {
      await writeFile(file('ws.js'), 'function f() {\n    return 1;\n}\n');
      await fails(
        callTool(editFileTool, { path: 'ws.js', search: '\treturn 1;\n}', replace: '\treturn 2;\n}' }, ws.context()),
        'TOOL_FAILED',
        /not found \(its first non-blank line is at line 2 with other whitespace/,
      );
      await fails(
        callTool(
          editFileTool,
          { path: 'ws.js', search: 'f()', replace: 'g()', edits: [{ search: 'a', replace: 'b' }] },
          ws.context(),
        ),
        'TOOL_FAILED',
        /either search\/replace \(one change\) or edits \(several changes\), not both/,
      );
      await fails(
        callTool(editFileTool, { path: 'ws.js', search: 'f()' }, ws.context()),
        'TOOL_FAILED',
        /give search and replace/,
      );
    });

    it('edits a protected path only after a HIGH escalation is approved', async () => {
      await mkdir(file('.vscode'));
      await writeFile(file('.vscode', 'tasks.json'), '{ "a": 1 }');
      const params = { path: '.vscode/tasks.json', search: '"a": 1', replace: '"a": 2' };
      await fails(callTool(editFileTool, params, ws.context()), 'SANDBOX_VIOLATION', /needs a one-off approval at HIGH/);
      const denied = escalation(false);
      await fails(
        callTool(editFileTool, params, ws.context({ requestEscalation: denied.requestEscalation })),
        'SANDBOX_VIOLATION',
        /not approved/,
      );
      assert.equal(await readFile(file('.vscode', 'tasks.json'), 'utf8'), '{ "a": 1 }');
      const approved = escalation(true);
      await callTool(editFileTool, params, ws.context({ requestEscalation: approved.requestEscalation }));
      assert.equal(await readFile(file('.vscode', 'tasks.json'), 'utf8'), '{ "a": 2 }');
      assert.equal(approved.asked[0]!.level, 'HIGH');
    });

    it('keeps CRLF line endings: LF search and replace texts edit a CRLF file, blocks included', async () => {
      await writeFile(file('crlf.js'), 'const a = 1;\r\nconst b = 2;\r\n');
      await callTool(
        editFileTool,
        {
          path: 'crlf.js',
          edits: [
            { search: 'const a = 1;\nconst b', replace: 'const a = 10;\nconst b' },
            { search: 'const b = 2;\n', replace: 'const b = 2;\nconst c = 3;\n' },
          ],
        },
        ws.context(),
      );
      assert.equal(await readFile(file('crlf.js'), 'utf8'), 'const a = 10;\r\nconst b = 2;\r\nconst c = 3;\r\n');
    });
  });

  describe('delete_file', () => {
    it('deletes a file and returns its removed content as a diff', async () => {
      const out = await callTool(deleteFileTool, { path: 'src/calc.ts' }, ws.context());
      assert.equal(await exists(file('src', 'calc.ts')), false);
      assert.match(out.content, /Deleted 'src\/calc\.ts' \(52 bytes\)/);
      assert.match((out.data as FileChangeData).diff, /\+\+\+ \/dev\/null/);
    });

    it('fails for a missing file and a folder, refuses .git and outside paths', async () => {
      await fails(
        callTool(deleteFileTool, { path: 'nope' }, ws.context()),
        'TOOL_FAILED',
        /does not exist\. Nothing was changed/,
      );
      await fails(callTool(deleteFileTool, { path: 'src' }, ws.context()), 'TOOL_FAILED', /single files only/);
      await mkdir(file('.git'));
      await writeFile(file('.git', 'HEAD'), 'ref: refs/heads/main\n');
      await fails(callTool(deleteFileTool, { path: '.git/HEAD' }, ws.context()), 'SANDBOX_VIOLATION', /never deleted/);
      assert.equal(await exists(file('.git', 'HEAD')), true);
      await fails(
        callTool(deleteFileTool, { path: path.join(ws.outside, 'secret.txt') }, ws.context()),
        'SANDBOX_VIOLATION',
        /absolute path/,
      );
      assert.equal(await exists(path.join(ws.outside, 'secret.txt')), true);
    });
  });

  describe('list_files', () => {
    beforeEach(async () => {
      await mkdir(file('.git', 'objects'), { recursive: true });
      await writeFile(file('.git', 'HEAD'), 'x');
      await mkdir(file('node_modules', 'pkg'), { recursive: true });
      await writeFile(file('node_modules', 'pkg', 'index.js'), 'x');
      await mkdir(file('src', 'lib'));
      await writeFile(file('src', 'lib', 'deep.ts'), 'x');
      await writeFile(file('README.md'), 'x');
      await symlink(ws.outside, file('outlink'));
    });

    it('lists recursively, shows .git and node_modules without entering them, never follows symlinks', async () => {
      const out = await callTool(listFilesTool, {}, ws.context());
      const lines = out.content.split('\n');
      assert.equal(lines[0], '8 entries in the workspace (recursive):');
      assert.deepEqual(lines.slice(1), [
        '.git/ (not listed)',
        'README.md',
        'node_modules/ (not listed)',
        'outlink (symbolic link, not followed)',
        'src/',
        'src/calc.ts',
        'src/lib/',
        'src/lib/deep.ts',
      ]);
      assert.equal((out.data as ListFilesData).truncated, false);
    });

    it('lists one folder, non-recursively', async () => {
      const out = await callTool(listFilesTool, { path: 'src', recursive: false }, ws.context());
      assert.deepEqual(out.content.split('\n'), ["2 entries in 'src':", 'src/calc.ts', 'src/lib/']);
    });

    it('caps the listing with a truncation marker', async () => {
      const out = await callTool(createListFilesTool({ maxEntries: 3 }), {}, ws.context());
      assert.match(out.content, /…\[truncated at 3 entries; list a sub-folder to see more\]$/);
      assert.equal((out.data as ListFilesData).entries.length, 3);
      assert.equal((out.data as ListFilesData).truncated, true);
    });

    it('fails for a file or a missing folder, refuses outside paths', async () => {
      await fails(callTool(listFilesTool, { path: 'README.md' }, ws.context()), 'TOOL_FAILED', /is a file, not a folder/);
      await fails(callTool(listFilesTool, { path: 'nope' }, ws.context()), 'TOOL_FAILED', /does not exist/);
      await fails(callTool(listFilesTool, { path: '..' }, ws.context()), 'SANDBOX_VIOLATION', /outside/);
      await fails(callTool(listFilesTool, { path: 'outlink' }, ws.context()), 'SANDBOX_VIOLATION', /symbolic link/);
    });

    it('says when a folder is empty, and stops when cancelled', async () => {
      await mkdir(file('empty'));
      assert.equal((await callTool(listFilesTool, { path: 'empty' }, ws.context())).content, "'empty' is empty.");
      const ac = new AbortController();
      ac.abort();
      await assert.rejects(callTool(listFilesTool, {}, ws.context({ signal: ac.signal })), /abort/i);
    });
  });

  describe('search_files', () => {
    beforeEach(async () => {
      await writeFile(file('src', 'sub.ts'), 'export const sub = (a: number, b: number) => a - b;\n// TODO: Add tests\n');
      await writeFile(file('.env'), 'OPENAI_API_KEY=sk-should-never-be-searched-123\nexport const add\n');
      await writeFile(file('blob.bin'), Buffer.from('export const add\0'));
      await mkdir(file('node_modules'));
      await writeFile(file('node_modules', 'x.js'), 'export const add');
    });

    it('finds literal text with path and line, skipping secrets, binaries and node_modules', async () => {
      const out = await callTool(searchFilesTool, { query: 'export const' }, ws.context());
      assert.deepEqual(out.content.split('\n'), [
        '2 matching lines for "export const":',
        'src/calc.ts:1: export const add = (a: number, b: number) => a + b;',
        'src/sub.ts:1: export const sub = (a: number, b: number) => a - b;',
      ]);
    });

    it('searches case-insensitively, by regex, and within one file', async () => {
      assert.match(
        (await callTool(searchFilesTool, { query: 'add tests', case_sensitive: false }, ws.context())).content,
        /src\/sub\.ts:2: \/\/ TODO: Add tests/,
      );
      assert.match(
        (await callTool(searchFilesTool, { query: 'add tests' }, ws.context())).content,
        /^No matches for "add tests" in \d+ files\.$/,
      );
      const regex = await callTool(searchFilesTool, { query: '=>\\s*a [-+] b', regex: true }, ws.context());
      assert.match(regex.content, /^2 matching lines/);
      const single = await callTool(searchFilesTool, { query: 'sub', path: 'src/sub.ts' }, ws.context());
      assert.match(single.content, /^1 matching lines/);
    });

    it('caps results with a marker and rejects an invalid regex', async () => {
      const capped = await callTool(searchFilesTool, { query: 'a', max_results: 1 }, ws.context());
      assert.match(capped.content, /…\[stopped at 1 matches; narrow the query or the path\]$/);
      assert.equal((capped.data as { truncated: boolean }).truncated, true);
      await fails(
        callTool(searchFilesTool, { query: '(unclosed', regex: true }, ws.context()),
        'VALIDATION',
        /Invalid regular expression/,
      );
    });

    it('fails for a missing path and refuses an outside one', async () => {
      await fails(callTool(searchFilesTool, { query: 'x', path: 'nope' }, ws.context()), 'TOOL_FAILED', /does not exist/);
      await fails(callTool(searchFilesTool, { query: 'x', path: '../outside' }, ws.context()), 'SANDBOX_VIOLATION', /outside/);
    });
  });
});
