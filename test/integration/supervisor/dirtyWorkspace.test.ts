import { strict as assert } from 'node:assert';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAgentError } from '../../../src/core/errors/agentError';
import { runKataSession } from '../../../src/core/tdd/supervisor/kataSession';
import { createOpenAIClient } from '../../../src/core/llm';
import { fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { initPersonRepo, SessionHarness } from './sessionHarness';

const COMMITTED = { 'README.md': '# My katas\n', 'notes/ideas.md': 'first idea\n' };
const MODIFIED_README = '# My katas\n\nHalf-written paragraph, not committed yet…\n';
const UNTRACKED = { path: 'scratch.txt', content: 'untracked thoughts\r\nwith CRLF and no final newline' };

/** Every file outside .git, with its bytes. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const rel = full.slice(root.length + 1);
    if (rel.startsWith('.git/')) continue;
    files[rel] = (await readFile(full)).toString('base64');
  }
  return files;
}

describe('TDD supervisor: a workspace with uncommitted work', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(async () => {
    await h.setUp();
    await initPersonRepo(h.workspace, COMMITTED, 'work');
    await writeFile(join(h.workspace, 'README.md'), MODIFIED_README);
    await writeFile(join(h.workspace, UNTRACKED.path), UNTRACKED.content);
  });
  afterEach(() => h.cleanup());

  it('refuses with WORKSPACE_DIRTY before touching anything', async () => {
    const git = h.git();
    const before = await snapshot(h.workspace);
    const exclude = await readFile(join(h.workspace, '.git', 'info', 'exclude'), 'utf8').catch(() => null);
    const refs = await git.raw(['for-each-ref']);

    await assert.rejects(
      runKataSession({
        workspace: h.workspace,
        kataPath: 'fizzbuzz',
        llm: createOpenAIClient({ baseURL: h.server.baseURL, apiKey: 'sk-test-session-key-000', maxRetries: 0 }),
        model: 'test-model',
        provider: 'openai',
      }),
      (err: unknown) => {
        assert.ok(isAgentError(err), String(err));
        assert.equal(err.error_code, 'WORKSPACE_DIRTY');
        assert.match(err.message, /README\.md \(modified\)/);
        assert.match(err.message, /scratch\.txt \(added\)/);
        assert.match(err.message, /Nothing was changed/);
        return true;
      },
    );

    assert.deepEqual(await snapshot(h.workspace), before, 'files byte-identical, no .tdd folder');
    assert.equal(await readFile(join(h.workspace, '.git', 'info', 'exclude'), 'utf8').catch(() => null), exclude);
    assert.equal(await git.raw(['for-each-ref']), refs, 'no new branch, no stash');
    assert.equal((await git.revparse(['--abbrev-ref', 'HEAD'])).trim(), 'work');
    assert.equal(h.server.chatRequests().length, 0, 'no model call');
  });

  it('with stashDirty runs the session and gives the person their changes back byte for byte, on their branch', async () => {
    const git = h.git();
    const before = await snapshot(h.workspace);
    const head = (await git.revparse(['HEAD'])).trim();

    const { summary } = await h.run({ cycles: fizzbuzzJs(1) }, { stashDirty: true });

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.equal(summary.totals.commits, 1);
    assert.equal((await git.revparse(['--abbrev-ref', 'HEAD'])).trim(), 'work');
    assert.equal((await git.revparse(['HEAD'])).trim(), head);
    const after = await snapshot(h.workspace);
    // The session's own folder (.tdd/: session.json and its .gitignore) is the only addition.
    for (const path of Object.keys(after)) if (path.startsWith('.tdd/')) delete after[path];
    assert.deepEqual(after, before);
    assert.equal(await readFile(join(h.workspace, 'README.md'), 'utf8'), MODIFIED_README);
    assert.equal(await readFile(join(h.workspace, UNTRACKED.path), 'utf8'), UNTRACKED.content);
    const status = await git.status();
    assert.deepEqual(status.modified, ['README.md']);
    assert.deepEqual(status.not_added, [UNTRACKED.path]);
    assert.equal((await git.raw(['stash', 'list'])).trim(), '', 'the stash was popped, not left behind');
    // The session's own work stayed on its branch.
    assert.ok((await git.branchLocal()).all.includes(summary.branch));
    assert.ok(!('src/fizzbuzz.js' in after));
  });
});
