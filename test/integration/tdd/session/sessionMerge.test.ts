/**
 * Merging a session's branch into the person's branch, with real git: a freshly `git init`ed folder (no commit on
 * main) takes a real session's branch; a fast-forward where the person's branch is behind; a merge commit on request
 * or where the branches diverged; what a conflict and a refusal by git say; and that the person's untracked and
 * ignored files, index and stash are what git's own merge leaves them (never overwritten, never reset).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAgentError } from '../../../../src/core/errors/agentError';
import { createOpenAIClient } from '../../../../src/core/llm';
import { mergeBranch, mergeSession, previewBranchMerge, previewMerge } from '../../../../src/core/tdd/session';
import { runKataSession } from '../../../../src/core/tdd/supervisor/kataSession';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { startOpenAIServer, type OpenAITestServer } from '../../../support/openaiServer';
import { scriptedKataModel } from '../../../support/scriptedKataModel';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Person',
  GIT_AUTHOR_EMAIL: 'p@example.invalid',
  GIT_COMMITTER_NAME: 'Person',
  GIT_COMMITTER_EMAIL: 'p@example.invalid',
};

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();
}

/** A repository on `main` with one commit, and a branch `tdd/x` from it with one more commit adding `feature.js`. */
async function repoWithSessionBranch(dir: string): Promise<void> {
  git(dir, 'init', '-q', '-b', 'main');
  await writeFile(join(dir, 'README.md'), '# mine\n');
  await writeFile(join(dir, '.gitignore'), 'secret.env\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  git(dir, 'checkout', '-q', '-b', 'tdd/x');
  await writeFile(join(dir, 'feature.js'), 'module.exports = 1;\n');
  git(dir, 'add', 'feature.js');
  git(dir, 'commit', '-q', '-m', 'feat: one');
  git(dir, 'checkout', '-q', 'main');
}

describe('merging a session branch into the person’s branch (real git)', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  async function tempDir(prefix: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  }
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  describe('a freshly git-initialised folder (main has no commit)', () => {
    let server: OpenAITestServer;
    let workspace: string;
    let sessionId: string;
    const savedIdentity = Object.fromEntries(Object.keys(IDENTITY).map((k) => [k, process.env[k]]));

    before(async () => {
      Object.assign(process.env, IDENTITY);
      workspace = await tempDir('merge-unborn-');
      git(workspace, 'init', '-q', '-b', 'main');
      await writeFile(join(workspace, '.git', 'info', 'exclude'), 'secret.env\n');
      await writeFile(join(workspace, 'secret.env'), 'TOKEN=mine\n');
      await writeFile(join(workspace, 'notes.txt'), 'my untracked notes\n');
      server = await startOpenAIServer({ models: ['test-model'], ollama: false });
      const script = scriptedKataModel({ cycles: fizzbuzzJs(1) });
      server.setFallback((req) => script.reply(req));
      const summary = await runKataSession({
        workspace,
        kataPath: 'fizzbuzz',
        llm: createOpenAIClient({ baseURL: server.baseURL, apiKey: 'sk-test-000', maxRetries: 0 }),
        model: 'test-model',
        provider: 'openai',
        maxCycles: 1,
        approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
        testTimeoutMs: 20_000,
      });
      assert.equal(summary.status, 'max_cycles', JSON.stringify(summary.error));
      sessionId = summary.session!.id;
    });
    after(async () => {
      for (const [k, v] of Object.entries(savedIdentity)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      await server?.close();
    });

    it('the preview says what will arrive: the commits and the files, into an unborn main', async () => {
      const preview = await previewMerge(workspace, sessionId);
      assert.equal(preview.into, 'main');
      assert.equal(preview.unborn, true);
      assert.equal(preview.fastForward, true);
      assert.equal(preview.blocker, undefined, 'untracked and ignored files do not block a merge');
      assert.ok(preview.commits.length >= 2, preview.commits.join('\n'));
      assert.ok(
        preview.files.some((f) => f.path.endsWith('.test.js') && f.status === 'A'),
        JSON.stringify(preview.files),
      );
      assert.deepEqual(preview.conflicts, []);
    });

    it('merges: main gets the session’s commits and files; untracked and ignored files stay as they were', async () => {
      const result = await mergeSession(workspace, sessionId);
      assert.equal(result.kind, 'unborn');
      assert.equal(result.into, 'main');
      assert.equal(git(workspace, 'rev-parse', 'main'), result.head);
      assert.equal(git(workspace, 'status', '--porcelain', '--untracked-files=no'), '', 'index and files match the new HEAD');
      assert.equal(git(workspace, 'symbolic-ref', '--short', 'HEAD'), 'main');
      assert.match(git(workspace, 'log', '--format=%s', 'main'), /^feat: /m);
      assert.equal(await readFile(join(workspace, 'notes.txt'), 'utf8'), 'my untracked notes\n');
      assert.equal(await readFile(join(workspace, 'secret.env'), 'utf8'), 'TOKEN=mine\n');
    });
  });

  it('fast-forwards where the person’s branch is behind (no merge commit), and says so', async () => {
    const dir = await tempDir('merge-ff-');
    await repoWithSessionBranch(dir);
    const preview = await previewBranchMerge(dir, 'tdd/x');
    assert.deepEqual(
      { commits: preview.commits, files: preview.files, fastForward: preview.fastForward, unborn: preview.unborn },
      { commits: ['feat: one'], files: [{ path: 'feature.js', status: 'A' }], fastForward: true, unborn: false },
    );
    const result = await mergeBranch(dir, 'tdd/x');
    assert.equal(result.kind, 'fast-forward');
    assert.equal(git(dir, 'rev-parse', 'main'), git(dir, 'rev-parse', 'tdd/x'));
  });

  it('records a merge commit when asked to, even where a fast-forward would do', async () => {
    const dir = await tempDir('merge-commit-');
    await repoWithSessionBranch(dir);
    const result = await mergeBranch(dir, 'tdd/x', { mergeCommit: true });
    assert.equal(result.kind, 'merge-commit');
    assert.equal(git(dir, 'log', '-1', '--format=%s'), 'Merge tdd/x (tdd-agent session)');
    assert.equal(git(dir, 'rev-list', '--count', '--merges', 'main'), '1');
  });

  it('diverged branches get a merge commit; the person’s stash and untracked files stay', async () => {
    const dir = await tempDir('merge-diverged-');
    await repoWithSessionBranch(dir);
    await writeFile(join(dir, 'mine.txt'), 'mine\n');
    git(dir, 'add', 'mine.txt');
    git(dir, 'commit', '-q', '-m', 'mine');
    await writeFile(join(dir, 'README.md'), '# mine, stashed\n');
    git(dir, 'stash', '-q');
    await writeFile(join(dir, 'scratch.txt'), 'scratch\n');
    const stash = git(dir, 'stash', 'list', '--format=%H');
    const preview = await previewBranchMerge(dir, 'tdd/x');
    assert.equal(preview.fastForward, false);
    assert.deepEqual(preview.conflicts, []);
    const result = await mergeBranch(dir, 'tdd/x');
    assert.equal(result.kind, 'merge-commit');
    assert.equal(git(dir, 'stash', 'list', '--format=%H'), stash);
    assert.equal(await readFile(join(dir, 'scratch.txt'), 'utf8'), 'scratch\n');
  });

  it('a conflict is named file by file, predicted by the preview, and the checkout is left as it was', async () => {
    const dir = await tempDir('merge-conflict-');
    await repoWithSessionBranch(dir);
    await writeFile(join(dir, 'feature.js'), 'module.exports = 2;\n');
    git(dir, 'add', 'feature.js');
    git(dir, 'commit', '-q', '-m', 'my own feature.js');
    const head = git(dir, 'rev-parse', 'HEAD');
    assert.deepEqual((await previewBranchMerge(dir, 'tdd/x')).conflicts, ['feature.js']);
    await assert.rejects(mergeBranch(dir, 'tdd/x'), (e: unknown) => {
      assert.ok(isAgentError(e));
      assert.match(e.message, /stopped on conflicts in feature\.js; it was aborted and your checkout is as it was/);
      return true;
    });
    assert.equal(git(dir, 'rev-parse', 'HEAD'), head);
    assert.equal(git(dir, 'status', '--porcelain'), '');
  });

  it('an untracked or ignored file in the way: refused before git is asked (no talk of conflicts), the file is kept', async () => {
    for (const ignored of [false, true]) {
      const dir = await tempDir('merge-untracked-');
      await repoWithSessionBranch(dir);
      if (ignored) await writeFile(join(dir, '.gitignore'), 'secret.env\nfeature.js\n');
      if (ignored) git(dir, 'commit', '-qam', 'ignore feature.js');
      await writeFile(join(dir, 'feature.js'), 'my own, not committed\n');
      assert.deepEqual((await previewBranchMerge(dir, 'tdd/x')).inTheWay, ['feature.js']);
      await assert.rejects(mergeBranch(dir, 'tdd/x'), (e: unknown) => {
        assert.ok(isAgentError(e));
        assert.doesNotMatch(e.message, /conflict/i);
        assert.match(e.message, /it adds feature\.js, which your folder already has as an untracked or ignored file\./);
        return true;
      });
      assert.equal(await readFile(join(dir, 'feature.js'), 'utf8'), 'my own, not committed\n');
    }
  });

  it('staged changes block the merge before git is asked; nothing is changed', async () => {
    const dir = await tempDir('merge-staged-');
    await repoWithSessionBranch(dir);
    await writeFile(join(dir, 'README.md'), '# staged\n');
    git(dir, 'add', 'README.md');
    const index = git(dir, 'ls-files', '-s');
    assert.equal((await previewBranchMerge(dir, 'tdd/x')).blocker, 'the checkout has uncommitted changes');
    await assert.rejects(
      mergeBranch(dir, 'tdd/x'),
      /Not merging tdd\/x: the checkout has uncommitted changes\. Nothing was changed\./,
    );
    assert.equal(git(dir, 'ls-files', '-s'), index);
  });
});
