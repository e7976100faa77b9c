import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolCallResult } from '../../../../src/core/tools/types';
import { fileRuleHook, greenPhase, redPhase, refuseCall, type FileRefusal } from '../../../../src/core/tdd/phases';
import type { FileWriteOutcome } from '../../../../src/core/tdd/roles/turnFeedback';

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

  it('tells onWrite what each write call did: applied, refused (by the rule or a team’s hook after it), failed; reads are not writes', async () => {
    const outcomes: FileWriteOutcome[] = [];
    const hook = fileRuleHook({ rule: greenPhase.files, kata: KATA, workspaceRoot: root, onWrite: (o) => outcomes.push(o) });
    const failed: ToolCallResult = {
      toolName: 'edit_file',
      ok: false,
      content: "Error: the search text was not found in 'src/b.js'.\nRead the file first.",
      approval: 'auto',
      durationMs: 1,
    };
    await hook.wrapToolCall!('write_file', () => Promise.resolve(ran), { path: 'src/a.js', content: 'x' });
    await hook.wrapToolCall!('write_file', () => Promise.resolve(ran), { path: 'test/a.test.js', content: 'x' });
    await hook.wrapToolCall!('edit_file', () => Promise.resolve(failed), { path: 'src/b.js', edits: [] });
    await hook.wrapToolCall!('write_file', () => Promise.resolve(refuseCall('write_file', 'no console.log (team rule)')), {
      path: 'src/c.js',
      content: 'console.log(1)',
    });
    await hook.wrapToolCall!('read_file', () => Promise.resolve(ran), { path: 'src/a.js' });
    assert.deepEqual(outcomes, [
      { tool: 'write_file', path: 'src/a.js', outcome: 'applied' },
      {
        tool: 'write_file',
        path: 'test/a.test.js',
        outcome: 'refused',
        reason:
          'The Implementer may not change test files, but test/a.test.js was modified. Make the tests pass by changing production code only.',
      },
      { tool: 'edit_file', path: 'src/b.js', outcome: 'failed', reason: "Error: the search text was not found in 'src/b.js'." },
      { tool: 'write_file', path: 'src/c.js', outcome: 'refused', reason: 'no console.log (team rule)' },
    ]);
  });
});

describe('a phase’s file rule hook in a hostile worktree', () => {
  let root: string;
  let outside: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'file-rule-'));
    outside = mkdtempSync(join(tmpdir(), 'file-rule-outside-'));
    mkdirSync(join(root, 'test'));
    // A folder link planted by generated code, pointing at a folder of the person's where the file exists.
    writeFileSync(join(outside, 'a.test.js'), 'the person’s file');
    symlinkSync(outside, join(root, 'test', 'linked'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const judge = async (params: unknown) => {
    const judged: string[] = [];
    let called = false;
    const hook = fileRuleHook({
      rule: (changes, kata) => {
        judged.push(...changes.map((c) => `${c.path}:${c.change}`));
        return greenPhase.files(changes, kata);
      },
      kata: KATA,
      workspaceRoot: root,
    });
    const result = await hook.wrapToolCall!(
      'write_file',
      () => {
        called = true;
        return Promise.resolve({ toolName: 'write_file', ok: true, content: 'wrote', approval: 'auto', durationMs: 1 });
      },
      params,
    );
    return { judged, called, result };
  };

  it('does not look through a linked folder: a file below it is judged as git sees it (added), not by what the link points at', async () => {
    const { judged, called } = await judge({ path: 'test/linked/a.test.js', content: 'x' });
    assert.deepEqual(judged, ['test/linked/a.test.js:added']);
    assert.equal(called, false, 'the Implementer may not add a test file either');
  });

  it('judges the normalised path, and leaves a path outside the workspace to the tool (never probes the host)', async () => {
    writeFileSync(join(root, 'test', 'b.test.js'), 'test');
    const inside = await judge({ path: 'src/../test/b.test.js', content: 'x' });
    assert.deepEqual(inside.judged, ['test/b.test.js:modified']);
    assert.equal(inside.called, false);
    for (const path of ['../outside.txt', join(outside, 'a.test.js'), 'test/\0x']) {
      const escaping = await judge({ path, content: 'x' });
      assert.deepEqual([escaping.judged, escaping.called], [[], true], path);
    }
  });
});
