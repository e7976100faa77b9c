import { strict as assert } from 'node:assert';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAgentError } from '../../../src/core/errors/agentError';
import { isGitInternalPath, protectedPathReason } from '../../../src/core/workspaceSandbox/protectedPaths';
import { SandboxViolationError } from '../../../src/core/workspaceSandbox/sandboxError';
import { confineToWorkspace, resolveWorkspacePath, toWorkspaceRelative } from '../../../src/core/workspaceSandbox/workspacePath';
import { createTempWorkspace, escalation, type TempWorkspace } from '../../integration/tools/builtin/support/workspace';

async function refused(promise: Promise<unknown>, pattern: RegExp, ws?: TempWorkspace): Promise<SandboxViolationError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SandboxViolationError, `expected SandboxViolationError, got ${String(error)}`);
    assert.equal(error.error_code, 'SANDBOX_VIOLATION');
    assert.equal(error.name, 'SandboxViolationError');
    assert.match(error.message, pattern);
    assert.match(error.message, /Nothing was read or changed\./);
    if (ws) assert.ok(!error.message.includes(ws.root), `message leaks the absolute root: ${error.message}`);
    return error;
  }
  assert.fail('expected a SandboxViolationError');
}

describe('sandbox: resolveWorkspacePath', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await createTempWorkspace();
    await mkdir(path.join(ws.root, 'src'));
    await writeFile(path.join(ws.root, 'src', 'a.ts'), 'a');
    await writeFile(path.join(ws.outside, 'secret.txt'), 'secret');
  });
  afterEach(() => ws.cleanup());

  it('resolves relative, empty, "." and inside-absolute paths to workspace-relative names', async () => {
    const ctx = ws.context();
    assert.equal((await resolveWorkspacePath(ctx, 'src/a.ts', 'read')).relative, 'src/a.ts');
    assert.equal((await resolveWorkspacePath(ctx, 'src/./b/../a.ts', 'write')).relative, 'src/a.ts');
    assert.equal((await resolveWorkspacePath(ctx, '', 'read')).relative, '.');
    assert.equal((await resolveWorkspacePath(ctx, '.', 'read')).relative, '.');
    const abs = await resolveWorkspacePath(ctx, path.join(ws.root, 'src', 'new.ts'), 'write');
    assert.equal(abs.relative, 'src/new.ts');
    assert.equal(abs.absolute, path.join(ws.root, 'src', 'new.ts'));
    assert.equal(toWorkspaceRelative(ws.root, ws.root), '.');
  });

  it('accepts the workspace under a non-real name (a symlinked root) and maps absolute paths to it', async () => {
    const alias = path.join(ws.outside, 'alias');
    await symlink(ws.root, alias);
    const resolved = await resolveWorkspacePath({ workspaceRoot: alias }, path.join(alias, 'src', 'a.ts'), 'read');
    assert.equal(resolved.relative, 'src/a.ts');
    assert.equal(resolved.root, ws.root);
  });

  it('refuses ".." traversal out of the root', async () => {
    await refused(
      resolveWorkspacePath(ws.context(), '../x', 'read'),
      /Refused '\.\.\/x': it leads outside the workspace through '\.\.'/,
      ws,
    );
    await refused(resolveWorkspacePath(ws.context(), 'a/../../x', 'write'), /outside the workspace/, ws);
    await refused(resolveWorkspacePath(ws.context(), '../outside/secret.txt', 'read'), /outside the workspace/, ws);
  });

  it('refuses absolute paths outside the root', async () => {
    const err = await refused(
      resolveWorkspacePath(ws.context(), '/etc/passwd', 'read'),
      /absolute path outside the workspace/,
      ws,
    );
    assert.equal(err.details.path, '/etc/passwd');
    await refused(resolveWorkspacePath(ws.context(), path.join(ws.outside, 'secret.txt'), 'write'), /absolute path outside/);
  });

  it('refuses NUL bytes', async () => {
    await refused(resolveWorkspacePath(ws.context(), 'src/a.ts\0.png', 'read'), /NUL byte/, ws);
  });

  it('refuses a file symlink whose real path leaves the workspace (read and write)', async () => {
    await symlink(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    await refused(
      resolveWorkspacePath(ws.context(), 'link.txt', 'read'),
      /'link\.txt' is or goes through a symbolic link whose real location is outside/,
      ws,
    );
    await refused(resolveWorkspacePath(ws.context(), 'link.txt', 'write'), /symbolic link/, ws);
  });

  it('refuses a directory symlink that leaves the workspace, also for new files below it', async () => {
    await symlink(ws.outside, path.join(ws.root, 'out'));
    await refused(resolveWorkspacePath(ws.context(), 'out/secret.txt', 'read'), /symbolic link/, ws);
    await refused(
      resolveWorkspacePath(ws.context(), 'out/new/deeper.txt', 'write'),
      /'out\/new\/deeper\.txt' is or goes through a symbolic link/,
      ws,
    );
  });

  it('refuses a dangling symlink (its target could be created anywhere)', async () => {
    await symlink(path.join(ws.outside, 'not-yet.txt'), path.join(ws.root, 'dangling'));
    await refused(resolveWorkspacePath(ws.context(), 'dangling', 'write'), /symbolic link whose target does not exist/, ws);
  });

  it('refuses a loop of symbolic links', async () => {
    await symlink(path.join(ws.root, 'loop-b'), path.join(ws.root, 'loop-a'));
    await symlink(path.join(ws.root, 'loop-a'), path.join(ws.root, 'loop-b'));
    await refused(resolveWorkspacePath(ws.context(), 'loop-a/x.txt', 'write'), /loop of symbolic links/, ws);
  });

  it('fails clearly when the workspace root does not exist', async () => {
    await assert.rejects(
      resolveWorkspacePath({ workspaceRoot: path.join(ws.outside, 'missing') }, 'a.txt', 'read'),
      (e: unknown) => {
        return isAgentError(e) && e.error_code === 'CONFIG' && /workspace root is not accessible \(ENOENT\)/.test(e.message);
      },
    );
  });

  it('follows symlinks that stay inside the workspace', async () => {
    await symlink(path.join(ws.root, 'src'), path.join(ws.root, 'srclink'));
    const r = await resolveWorkspacePath(ws.context(), 'srclink/a.ts', 'write');
    assert.equal(r.relative, 'srclink/a.ts');
  });

  it('refuses any write or delete under .git, at any depth and any case, also through a symlink', async () => {
    await mkdir(path.join(ws.root, '.git'));
    for (const p of ['.git/config', 'sub/.git/HEAD', '.GIT/x', '.git', '.Git./hooks/pre-commit']) {
      await refused(resolveWorkspacePath(ws.context(), p, 'write'), /inside \.git; git's internal files are never written/, ws);
    }
    await refused(resolveWorkspacePath(ws.context(), '.git/index', 'delete'), /never deleted/, ws);
    await symlink(path.join(ws.root, '.git'), path.join(ws.root, 'gitdir'));
    await refused(resolveWorkspacePath(ws.context(), 'gitdir/config', 'write'), /inside \.git/, ws);
    // Reading git's files is fine.
    assert.equal((await resolveWorkspacePath(ws.context(), '.git/config', 'read')).relative, '.git/config');
  });

  it('refuses writing or deleting the workspace root itself', async () => {
    await refused(resolveWorkspacePath(ws.context(), '.', 'delete'), /workspace root itself, which cannot be deleted/, ws);
    await refused(resolveWorkspacePath(ws.context(), '', 'write'), /cannot be written/, ws);
  });

  it('refuses a protected path when there is no one to ask', async () => {
    const err = await refused(
      resolveWorkspacePath(ws.context(), '.vscode/settings.json', 'write'),
      /Writing '\.vscode\/settings\.json' needs a one-off approval at HIGH.*no one to ask/,
      ws,
    );
    assert.equal(err.details.protected, true);
  });

  it('refuses a protected path when the escalation is denied or fails', async () => {
    const denied = escalation(false);
    await refused(
      resolveWorkspacePath(ws.context({ requestEscalation: denied.requestEscalation }), '.github/workflows/ci.yml', 'write'),
      /was not approved/,
      ws,
    );
    assert.deepEqual(
      denied.asked.map((a) => a.level),
      ['HIGH'],
    );
    assert.match(denied.asked[0]!.reason, /Writing '\.github\/workflows\/ci\.yml' needs a one-off approval at HIGH/);
    const broken = escalation(new Error('channel closed'));
    await refused(
      resolveWorkspacePath(ws.context({ requestEscalation: broken.requestEscalation }), '.env', 'delete'),
      /Deleting '\.env'.*not approved/,
      ws,
    );
  });

  it('allows a protected path once the escalation is approved, asking each time', async () => {
    const approved = escalation(true);
    const ctx = ws.context({ requestEscalation: approved.requestEscalation });
    assert.equal((await resolveWorkspacePath(ctx, '.vscode/settings.json', 'write')).relative, '.vscode/settings.json');
    assert.equal((await resolveWorkspacePath(ctx, 'pkg/.gitignore', 'write')).relative, 'pkg/.gitignore');
    assert.equal(approved.asked.length, 2);
  });

  it('asks before reading secret files, but not templates or ordinary files', async () => {
    await refused(
      resolveWorkspacePath(ws.context(), '.env.local', 'read'),
      /Reading '\.env\.local' needs a one-off approval/,
      ws,
    );
    assert.equal((await resolveWorkspacePath(ws.context(), '.env.example', 'read')).relative, '.env.example');
    assert.equal((await resolveWorkspacePath(ws.context(), '.vscode/settings.json', 'read')).relative, '.vscode/settings.json');
  });

  it('confineToWorkspace reports the real relative path behind an inside symlink', async () => {
    await symlink(path.join(ws.root, 'src'), path.join(ws.root, 'srclink'));
    const r = await confineToWorkspace(ws.root, 'srclink/a.ts');
    assert.equal(r.realRelative, 'src/a.ts');
  });
});

describe('sandbox: protected path rules', () => {
  it('recognises .git at any depth and case, and nothing else', () => {
    assert.equal(isGitInternalPath('.git'), true);
    assert.equal(isGitInternalPath('a/b/.GIT/objects'), true);
    assert.equal(isGitInternalPath('a\\.git\\x'), true);
    assert.equal(isGitInternalPath('.gitignore'), false);
    assert.equal(isGitInternalPath('my.git/x'), false);
    assert.equal(isGitInternalPath('...'), false);
  });

  it('names why a path is protected for writes, and only secrets for reads', () => {
    assert.match(protectedPathReason('.vscode/tasks.json', 'write')!, /'\.vscode\/' is a protected folder/);
    assert.match(protectedPathReason('.VSCode', 'delete')!, /protected folder/);
    assert.match(protectedPathReason('a/.tdd/session.json', 'write')!, /\.tdd/);
    assert.match(protectedPathReason('.env.production', 'write')!, /secrets/);
    assert.match(protectedPathReason('.npmrc', 'write')!, /package manager/);
    assert.equal(protectedPathReason('src/env.ts', 'write'), undefined);
    assert.equal(protectedPathReason('.vscode/tasks.json', 'read'), undefined);
    assert.match(protectedPathReason('.env', 'read')!, /secrets/);
    assert.equal(protectedPathReason('.env.sample', 'read'), undefined);
  });
});
