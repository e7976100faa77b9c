import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAgentError } from '../../../../src/core/errors/agentError';
import {
  gitCommitTool,
  gitDiffTool,
  gitStatusTool,
  type GitCommitData,
  type GitStatusData,
} from '../../../../src/core/tools/builtin/gitTools';
import { FALLBACK_GIT_IDENTITY } from '../../../../src/core/hostGit/gitEnvironment';
import { callTool, createTempWorkspace, type TempWorkspace } from './support/workspace';

async function fails(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(isAgentError(e), String(e));
    assert.equal(e.error_code, 'TOOL_FAILED');
    assert.match(e.message, pattern);
    return true;
  });
}

describe('builtin git tools (real git repositories)', () => {
  let ws: TempWorkspace;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws.root, encoding: 'utf8' });
  const file = (...p: string[]) => path.join(ws.root, ...p);

  beforeEach(async () => {
    ws = await createTempWorkspace('c1-git-');
    git('init', '-q', '-b', 'main');
    git('config', 'user.name', 'Test Person');
    git('config', 'user.email', 'person@example.test');
    git('config', 'commit.gpgsign', 'false');
    await writeFile(file('a.txt'), 'one\n');
    git('add', '.');
    git('commit', '-q', '-m', 'initial');
  });
  afterEach(() => ws.cleanup());

  it('git_status reports a clean tree, then staged, changed and untracked files', async () => {
    const clean = await callTool(gitStatusTool, {}, ws.context());
    assert.equal(clean.content, 'On branch main\nNothing to commit, working tree clean.');
    assert.equal((clean.data as GitStatusData).clean, true);

    await writeFile(file('a.txt'), 'two\n');
    await writeFile(file('b.txt'), 'new\n');
    await writeFile(file('c.txt'), 'staged\n');
    git('add', 'c.txt');
    const dirty = await callTool(gitStatusTool, {}, ws.context());
    const lines = dirty.content.split('\n');
    assert.equal(lines[0], 'On branch main');
    assert.ok(lines.includes(' M a.txt'), dirty.content);
    assert.ok(lines.includes('?? b.txt'), dirty.content);
    assert.ok(lines.includes('A  c.txt'), dirty.content);
    assert.equal((dirty.data as GitStatusData).files.length, 3);
  });

  it('git_diff shows unstaged and staged changes, for the workspace or one path', async () => {
    await writeFile(file('a.txt'), 'one\nmore\n');
    await writeFile(file('c.txt'), 'c\n');
    git('add', 'c.txt');
    const unstaged = await callTool(gitDiffTool, {}, ws.context());
    assert.match(unstaged.content, /^\+more$/m);
    assert.doesNotMatch(unstaged.content, /c\.txt/);
    const staged = await callTool(gitDiffTool, { staged: true }, ws.context());
    assert.match(staged.content, /b\/c\.txt/);
    const onePath = await callTool(gitDiffTool, { path: 'c.txt' }, ws.context());
    assert.match(onePath.content, /^No unstaged changes in 'c\.txt' \(untracked files are not shown; see git_status\)\.$/);
    await assert.rejects(
      callTool(gitDiffTool, { path: '../x' }, ws.context()),
      (e: unknown) => isAgentError(e) && e.error_code === 'SANDBOX_VIOLATION',
    );
  });

  it('git_commit stages everything and commits with the configured identity, never skipping hooks', async () => {
    await writeFile(file('a.txt'), 'changed\n');
    await mkdir(file('src'));
    await writeFile(file('src', 'new.ts'), 'export {};\n');
    const out = await callTool(gitCommitTool, { message: 'Green: add new module' }, ws.context());
    const data = out.data as GitCommitData;
    assert.match(out.content, /^Committed [0-9a-f]+ on main: "Green: add new module" \(2 files changed, \+2 -1\)\.$/);
    assert.equal(data.fallbackAuthor, false);
    assert.equal(git('log', '-1', '--format=%an <%ae>|%s').trim(), 'Test Person <person@example.test>|Green: add new module');
    assert.equal(git('status', '--porcelain'), '');
  });

  it('git_commit refuses when there is nothing to commit', async () => {
    await fails(
      callTool(gitCommitTool, { message: 'nothing' }, ws.context()),
      /Nothing to commit: there are no staged changes\. Nothing was committed\./,
    );
    await writeFile(file('a.txt'), 'unstaged change\n');
    await fails(callTool(gitCommitTool, { message: 'only staged', stage_all: false }, ws.context()), /Nothing to commit/);
    assert.equal(git('rev-list', '--count', 'HEAD').trim(), '1');
  });

  it('git_commit reports a rejecting pre-commit hook and commits nothing', async () => {
    const hook = file('.git', 'hooks', 'pre-commit');
    await writeFile(hook, '#!/bin/sh\necho "hook says no" >&2\nexit 1\n');
    await chmod(hook, 0o755);
    await writeFile(file('a.txt'), 'blocked\n');
    await fails(
      callTool(gitCommitTool, { message: 'blocked' }, ws.context()),
      /git commit \(a hook may have rejected it\) failed: .*hook says no.*Nothing was committed; the changes stay staged/s,
    );
    assert.equal(git('rev-list', '--count', 'HEAD').trim(), '1');
  });

  it('git_commit uses a fallback author when git has no identity (fresh CI machine) and redacts secrets', async () => {
    git('config', '--unset', 'user.name');
    git('config', '--unset', 'user.email');
    const emptyHome = await mkdtemp(path.join(tmpdir(), 'c1-home-'));
    const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
    process.env.HOME = emptyHome;
    process.env.XDG_CONFIG_HOME = emptyHome;
    try {
      await writeFile(file('a.txt'), 'ci\n');
      const out = await callTool(gitCommitTool, { message: 'Use key sk-abcdefghijklmnopqrstu in config' }, ws.context());
      assert.equal((out.data as GitCommitData).fallbackAuthor, true);
    } finally {
      process.env.HOME = saved.HOME;
      if (saved.XDG_CONFIG_HOME === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved.XDG_CONFIG_HOME;
      await rm(emptyHome, { recursive: true, force: true });
    }
    assert.equal(git('log', '-1', '--format=%an <%ae>').trim(), `${FALLBACK_GIT_IDENTITY.name} <${FALLBACK_GIT_IDENTITY.email}>`);
    const subject = git('log', '-1', '--format=%s').trim();
    assert.ok(!subject.includes('sk-abcdefghijklmnopqrstu'), subject);
    assert.match(subject, /\[REDACTED\]/);
  });

  it('git_commit never commits secret files: it unstages them and says so', async () => {
    await writeFile(file('.env'), 'OPENAI_API_KEY=sk-zzzzzzzzzzzzzzzzzzzz\n');
    await writeFile(file('.env.example'), 'OPENAI_API_KEY=\n');
    await writeFile(file('a.txt'), 'with env\n');
    const out = await callTool(gitCommitTool, { message: 'Change a' }, ws.context());
    assert.match(out.content, /Left out secret files \(unstaged, not committed\): \.env\.$/);
    assert.deepEqual((out.data as GitCommitData).leftOut, ['.env']);
    assert.deepEqual(git('show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort(), ['.env.example', 'a.txt']);
    assert.equal(git('status', '--porcelain').trim(), '?? .env');
    await fails(
      callTool(gitCommitTool, { message: 'only env' }, ws.context()),
      /Nothing to commit.*never committed by this tool: \.env\./,
    );
  });

  it('git_commit makes the first commit of a fresh repository, leaving secrets out', async () => {
    await rm(file('.git'), { recursive: true, force: true });
    git('init', '-q', '-b', 'trunk');
    git('config', 'user.name', 'Test Person');
    git('config', 'user.email', 'person@example.test');
    await writeFile(file('config'), 'x\n');
    await mkdir(file('pkg'));
    await writeFile(file('pkg', '.env.local'), 'TOKEN=abc\n');
    const out = await callTool(gitCommitTool, { message: 'First' }, ws.context());
    assert.match(out.content, /^Committed [0-9a-f]+ on trunk: "First"/);
    assert.deepEqual((out.data as GitCommitData).leftOut, ['pkg/.env.local']);
    assert.deepEqual(git('show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort(), ['a.txt', 'config']);
  });

  it('every git tool fails clearly outside a git repository', async () => {
    await rm(file('.git'), { recursive: true, force: true });
    await fails(callTool(gitStatusTool, {}, ws.context()), /not a git repository \(run `git init` first\)/);
    await fails(callTool(gitDiffTool, {}, ws.context()), /not a git repository/);
    await fails(callTool(gitCommitTool, { message: 'x' }, ws.context()), /not a git repository/);
  });
});
