import assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { emptyPanelState, parsePanelState } from '../../../src/shared/panelProtocol';
import {
  COMPACT_DIFF_LINES,
  FileChanges,
  MAX_FILE_CHANGES,
  compactDiff,
  proposedContent,
} from '../../../src/vscode/editor/fileChanges';
import { reducePanel } from '../../../src/vscode/panel/panelReducer';

const read = async (file: string): Promise<string | undefined> => fsp.readFile(file, 'utf8').catch(() => undefined);

describe('file changes behind "Open diff" (host-side, bounded)', () => {
  let worktree: string;
  beforeEach(async () => {
    worktree = await fsp.mkdtemp(path.join(os.tmpdir(), 'file-changes-'));
    await fsp.mkdir(path.join(worktree, 'src'));
    await fsp.writeFile(path.join(worktree, 'src/fizz.js'), 'export const a = 1;\nexport const b = 2;\n');
  });
  afterEach(() => fsp.rm(worktree, { recursive: true, force: true }));

  it('proposes write_file content as is and applies edit_file to the current text', () => {
    assert.equal(proposedContent('write_file', { path: 'x', content: 'new' }, 'old'), 'new');
    assert.equal(
      proposedContent('edit_file', { path: 'x', search: 'b = 2', replace: 'b = 3' }, 'a = 1\nb = 2\n'),
      'a = 1\nb = 3\n',
    );
    assert.equal(
      proposedContent('edit_file', { path: 'x', search: 'zzz', replace: 'y' }, 'a'),
      undefined,
      'an edit that would fail proposes nothing',
    );
    assert.equal(
      proposedContent('edit_file', { path: 'x', search: 'a', replace: 'b' }, undefined),
      undefined,
      'no edit of a missing file',
    );
    assert.equal(proposedContent('run_command', { command: 'ls' }, 'a'), undefined);
  });

  it("keeps an approval card's current and proposed text, and refuses paths outside the worktree", async () => {
    const changes = new FileChanges();
    const edit = await changes.propose(
      'req-1',
      worktree,
      'edit_file',
      { path: './src/fizz.js', search: 'b = 2', replace: 'b = 3' },
      read,
    );
    assert.deepEqual(edit, {
      path: 'src/fizz.js',
      before: 'export const a = 1;\nexport const b = 2;\n',
      after: 'export const a = 1;\nexport const b = 3;\n',
    });
    const created = await changes.propose(
      'req-2',
      worktree,
      'write_file',
      { path: 'test/new.test.js', content: 'test()\n' },
      read,
    );
    assert.equal(created?.before, undefined, 'a new file has no before');
    assert.equal(
      await changes.propose('req-3', worktree, 'write_file', { path: '../outside.js', content: 'x' }, read),
      undefined,
    );
    assert.equal(changes.get('req-3'), undefined);
    assert.equal(changes.get('req-1')?.after, edit?.after);
  });

  it("records a history entry's change against the last recorded text, else the committed one", async () => {
    const changes = new FileChanges();
    const committed = async (rel: string): Promise<string | undefined> => (rel === 'src/fizz.js' ? 'committed\n' : undefined);
    const first = await changes.record('c1', worktree, 'write_file', { path: 'src/fizz.js' }, read, committed);
    assert.equal(first?.before, 'committed\n');
    await fsp.writeFile(path.join(worktree, 'src/fizz.js'), 'third\n');
    const second = await changes.record('c2', worktree, 'edit_file', { path: 'src/fizz.js' }, read, committed);
    assert.deepEqual(second, { path: 'src/fizz.js', before: first?.after, after: 'third\n' });
    changes.startSession();
    assert.equal(
      (await changes.record('c3', worktree, 'write_file', { path: 'src/fizz.js' }, read, committed))?.before,
      'committed\n',
      'a new session starts from the commit',
    );
  });

  it('keeps at most MAX_FILE_CHANGES changes (the oldest go first)', () => {
    const changes = new FileChanges();
    for (let i = 0; i <= MAX_FILE_CHANGES; i++) changes.set(`id-${i}`, { path: 'a', before: undefined, after: String(i) });
    assert.equal(changes.get('id-0'), undefined);
    assert.equal(changes.get(`id-${MAX_FILE_CHANGES}`)?.after, String(MAX_FILE_CHANGES));
  });

  it('cuts the compact diff at COMPACT_DIFF_LINES lines, and the reducer puts it on the history entry', () => {
    const after = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const diff = compactDiff({ path: 'src/big.js', before: undefined, after });
    const lines = diff.split('\n');
    assert.equal(lines.length, COMPACT_DIFF_LINES + 1);
    assert.match(lines.at(-1)!, /more lines: Open diff/);

    let state = emptyPanelState({ instanceId: 'i', trusted: true });
    state = reducePanel(state, {
      type: 'supervisor',
      at: 1,
      event: {
        type: 'tool_called',
        cycle: 1,
        role: 'implementer',
        callId: 'c1',
        tool: 'write_file',
        params: { path: 'src/big.js' },
        ok: true,
        summary: 'ok',
        approval: 'auto',
        durationMs: 1,
      },
    });
    const unknown = reducePanel(state, { type: 'fileChange', id: 'nope', path: 'src/big.js', diff });
    assert.equal(unknown, state, 'a change for an entry that is gone changes nothing');
    const next = reducePanel(state, { type: 'fileChange', id: 'c1', path: 'src/big.js', diff });
    const entry = next.actions[0];
    assert.ok(entry?.kind === 'toolCall');
    assert.deepEqual(entry.fileChange, { path: 'src/big.js', diff });
    assert.ok(parsePanelState(next));
  });
});
