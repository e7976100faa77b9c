import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolCallResult } from '../../../src/core/tools/types';
import { fileRuleHook, greenPhase, redPhase, type FileRefusal } from '../../../src/core/tdd/phases';

const KATA = { title: 'k', slug: 'k', description: '', language: 'javascript', sourceDir: 'src', testDir: 'test' };

describe('a phase’s file rule as a wrapToolCall hook', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'file-rule-'));
    mkdirSync(join(root, 'test'));
    writeFileSync(join(root, 'test', 'a.test.js'), 'test');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const ran: ToolCallResult = { toolName: 'write_file', ok: true, content: 'wrote', approval: 'auto', durationMs: 1 };
  const call = async (rule: typeof redPhase.files, tool: string, params: unknown) => {
    const refused: FileRefusal[] = [];
    let called = false;
    const hook = fileRuleHook({ rule, kata: KATA, workspaceRoot: root, onRefused: (r) => refused.push(r) });
    const result = await hook.wrapToolCall!(
      tool,
      () => {
        called = true;
        return Promise.resolve(ran);
      },
      params,
    );
    return { result, refused, called };
  };

  it('refuses the Tester’s write of production code before it runs, with the same sentence as the diff check', async () => {
    const { result, refused, called } = await call(redPhase.files, 'write_file', { path: './src/a.js', content: 'x' });
    assert.equal(called, false);
    assert.equal(result.ok, false);
    assert.equal(result.approval, 'policy_denied');
    assert.match(
      result.content,
      /^Error: refused by the role rules, nothing was changed: The Tester may only change test files, but src\/a\.js \(production code\) was added/,
    );
    assert.equal(refused.length, 1);
    assert.equal(refused[0]!.path, 'src/a.js');
  });

  it('refuses the Implementer’s edit of an existing test file (modified), and lets its production writes and reads through', async () => {
    const edit = await call(greenPhase.files, 'edit_file', { path: 'test/a.test.js', edits: [] });
    assert.equal(edit.called, false);
    assert.match(edit.refused[0]!.message, /may not change test files, but test\/a\.test\.js was modified/);
    for (const [tool, params] of [
      ['write_file', { path: 'src/a.js', content: 'x' }],
      ['read_file', { path: 'test/a.test.js' }],
      ['run_tests', {}],
    ] as const) {
      const passed = await call(greenPhase.files, tool, params);
      assert.deepEqual([passed.called, passed.refused.length, passed.result], [true, 0, ran], tool);
    }
  });
});
