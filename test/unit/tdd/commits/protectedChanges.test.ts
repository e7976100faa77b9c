import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ChangedFile } from '../../../../src/core/tdd/git/changedFiles';
import { ApprovedProtectedWrites, unapprovedProtectedChanges } from '../../../../src/core/tdd/commits/protectedChanges';
import type { ToolCallResult } from '../../../../src/core/tools/types';

/** What a file tool's call returns, as the executor hands it to a wrapper. */
function result(toolName: string, path: string, ok = true): ToolCallResult {
  return {
    toolName,
    ok,
    content: ok ? 'done' : 'Error: refused',
    data: ok ? { path, bytes: 1, diff: '' } : undefined,
    approval: 'auto',
    durationMs: 1,
  };
}

describe('protected paths changed outside approved tool calls', () => {
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'protected-changes-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const put = async (path: string, content: string) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  };

  it('finds every changed protected path, at any depth and for deletions, with why it is protected', async () => {
    const changes: ChangedFile[] = [
      { path: 'src/fizzbuzz.js', change: 'modified' },
      { path: '.github/workflows/x.yml', change: 'added' },
      { path: '.vscode/settings.json', change: 'added' },
      { path: '.husky/pre-commit', change: 'added' },
      { path: 'pkg/.npmrc', change: 'added' },
      { path: '.env.local', change: 'added' },
      { path: '.gitignore', change: 'deleted' },
      { path: 'test/fizzbuzz.test.js', change: 'added' },
    ];
    const found = await unapprovedProtectedChanges(changes);
    assert.deepEqual(
      found.map((f) => f.path),
      ['.env.local', '.github/workflows/x.yml', '.gitignore', '.husky/pre-commit', '.vscode/settings.json', 'pkg/.npmrc'],
    );
    assert.match(found.find((f) => f.path === '.github/workflows/x.yml')!.reason, /'\.github\/' is a protected folder/);
    assert.deepEqual(
      await unapprovedProtectedChanges(changes, (path) => Promise.resolve(path !== '.npmrc' && path !== 'pkg/.npmrc')),
      [{ path: 'pkg/.npmrc', reason: "'.npmrc' changes what git or the package manager does" }],
    );
  });

  it('approves exactly what a successful file-tool call left on a protected path, and nothing else', async () => {
    const ledger = new ApprovedProtectedWrites(root);
    const call = (tool: string, path: string, act: () => Promise<void>, ok = true) =>
      ledger.wrapToolCall(tool, async () => (await act(), result(tool, path, ok)), { path });

    await call('write_file', '.gitignore', () => put('.gitignore', 'node_modules/\n'));
    assert.equal(await ledger.matches('.gitignore'), true);
    await put('.gitignore', 'node_modules/\n*.secret\n'); // a test changed it afterwards
    assert.equal(await ledger.matches('.gitignore'), false);

    await call('write_file', '.npmrc', () => put('.npmrc', 'registry=x\n'), false); // refused: not approved
    assert.equal(await ledger.matches('.npmrc'), false);
    await call('run_tests', '.env', () => put('.env', 'A=1\n')); // not a file tool
    assert.equal(await ledger.matches('.env'), false);
    await call('write_file', 'src/a.js', () => put('src/a.js', 'x\n')); // not protected: never recorded
    assert.equal(await ledger.matches('src/a.js'), false);

    await put('.vscode/settings.json', '{}\n');
    await call('delete_file', '.vscode/settings.json', () => unlink(join(root, '.vscode/settings.json')));
    assert.equal(await ledger.matches('.vscode/settings.json'), true, 'an approved deletion: nothing there');
    await put('.vscode/settings.json', '{"tddAgent.baseUrl":"http://evil.invalid"}\n');
    assert.equal(await ledger.matches('.vscode/settings.json'), false);

    await call('write_file', '.gitattributes', () => put('.gitattributes', '* text\n'));
    await unlink(join(root, '.gitattributes'));
    await symlink(join(root, '.gitignore'), join(root, '.gitattributes'));
    assert.equal(await ledger.matches('.gitattributes'), false, 'a link is never what an approved call wrote');
  });
});
