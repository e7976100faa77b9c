/**
 * What the panel lists and what "Review changes" reads, on a real repository with real kata sessions
 * (the loopback model server playing FizzBuzz, real git worktrees, tests in the OS sandbox): statuses,
 * commit counts, the merged flag, the merge blocker, the changed files and their content — and that
 * reading all of it leaves the person's checkout byte for byte as it was (index included).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '../../../src/core/llm';
import { mergeSession } from '../../../src/core/tdd/session';
import { runKataSession } from '../../../src/core/tdd/supervisor/kataSession';
import type { SessionSummary } from '../../../src/core/tdd/sessionSummary';
import {
  fileAtRevision,
  findSessionRecord,
  kataPathOf,
  readRepositorySessions,
  sessionChanges,
  uncommittedChangeCount,
} from '../../../src/vscode/session/repositorySessions';
import { JS, JS_SOURCE_PATH, JS_TEST_PATH, fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { personRepoState } from '../../support/personRepo';
import { scriptedKataModel } from '../../support/scriptedKataModel';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Person',
  GIT_AUTHOR_EMAIL: 'p@example.invalid',
  GIT_COMMITTER_NAME: 'Person',
  GIT_COMMITTER_EMAIL: 'p@example.invalid',
};

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();
}

describe('repository sessions as the panel lists them (real git, real sessions)', function () {
  this.timeout(180_000);
  let workspace: string;
  let server: OpenAITestServer;
  let completed: SessionSummary;
  let cancelled: SessionSummary;

  async function run(cycles: number, abortAtImplementerOfCycle?: number): Promise<SessionSummary> {
    const script = scriptedKataModel({ cycles: fizzbuzzJs(cycles) });
    const controller = new AbortController();
    server.setFallback((req) => {
      const messages = (req.body?.messages ?? []) as Array<{ role: string; content?: unknown }>;
      const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
      const user = String(messages.find((m) => m.role === 'user')?.content ?? '');
      const cycle = Number(/- cycle: (\d+)/.exec(user)?.[1] ?? 0);
      if (abortAtImplementerOfCycle && /^agent: implementer\//.test(system) && cycle === abortAtImplementerOfCycle)
        controller.abort();
      return script.reply(req);
    });
    return runKataSession({
      workspace,
      kataPath: 'fizzbuzz',
      llm: createOpenAIClient({ baseURL: server.baseURL, apiKey: 'sk-test-000', maxRetries: 0 }),
      model: 'test-model',
      provider: 'openai',
      maxCycles: cycles,
      approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
      testTimeoutMs: 20_000,
      signal: controller.signal,
    });
  }

  const savedIdentity = Object.fromEntries(Object.keys(IDENTITY).map((k) => [k, process.env[k]]));
  before(async () => {
    Object.assign(process.env, IDENTITY);
    workspace = await mkdtemp(join(tmpdir(), 'vscode-sessions-'));
    git(workspace, 'init', '-q', '-b', 'main');
    await writeFile(join(workspace, 'README.md'), '# mine\n');
    await writeFile(join(workspace, '.gitignore'), 'secret.env\n');
    git(workspace, 'add', '-A');
    git(workspace, 'commit', '-q', '-m', 'base');
    server = await startOpenAIServer({ models: ['test-model'], ollama: false });
    completed = await run(2);
    assert.equal(completed.status, 'max_cycles', JSON.stringify(completed.error));
    cancelled = await run(3, 2);
    assert.equal(cancelled.status, 'cancelled', JSON.stringify(cancelled.error));
  });

  after(async () => {
    // The identity is this suite's alone: later suites check which identity git falls back to.
    for (const [k, v] of Object.entries(savedIdentity)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await server?.close();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  it('lists both sessions newest first: the cancelled one resumable, the finished one with its commits, neither merged', async () => {
    const repository = await readRepositorySessions(workspace);
    assert.ok(repository);
    assert.equal(repository.branch, 'main');
    assert.equal(repository.mergeBlocker, undefined, 'a clean checkout on a branch can take a merge');
    assert.deepEqual(
      repository.sessions.map((s) => s.id),
      [cancelled.session!.id, completed.session!.id],
    );
    const [stopped, done] = repository.sessions;
    assert.equal(stopped!.status, 'cancelled');
    assert.equal(stopped!.resumable, true);
    assert.equal(stopped!.cycles, 1, 'one finished cycle before the stop');
    assert.equal(done!.status, 'max_cycles');
    assert.equal(done!.resumable, false, 'a finished session has no worktree left');
    assert.equal(done!.commits, Number(git(workspace, 'rev-list', '--count', `main..${completed.branch}`)));
    assert.ok(done!.commits >= 2);
    assert.equal(done!.merged, false);
    assert.equal(done!.baseBranch, 'main');
    assert.equal(done!.sandbox, 'bubblewrap');
    assert.equal(done!.kata, 'FizzBuzz');
  });

  it('says why a merge cannot happen now (uncommitted changes), and counts them', async () => {
    await writeFile(join(workspace, 'README.md'), '# mine, edited\n');
    await writeFile(join(workspace, 'scratch.txt'), 'untracked\n');
    await writeFile(join(workspace, 'secret.env'), 'ignored\n');
    try {
      assert.equal(await uncommittedChangeCount(workspace), 2, 'the modified and the untracked file; not the ignored one');
      const repository = await readRepositorySessions(workspace);
      assert.equal(repository?.mergeBlocker, 'the checkout has uncommitted changes');
    } finally {
      git(workspace, 'checkout', '--', 'README.md');
      await rm(join(workspace, 'scratch.txt'));
      await rm(join(workspace, 'secret.env'));
    }
    assert.equal(await uncommittedChangeCount(workspace), 0);
  });

  it('reading sessions, counting changes and reading files leaves the checkout and its index untouched', async () => {
    await writeFile(join(workspace, 'README.md'), '# mine, edited again\n');
    await writeFile(join(workspace, 'secret.env'), 'ignored\n');
    // An index whose stat data is stale: a status that refreshed the index would rewrite it.
    spawnSync('touch', ['-d', '2001-01-01', join(workspace, '.gitignore')]);
    try {
      const before = await personRepoState(workspace);
      const indexBefore = await stat(join(workspace, '.git', 'index'));
      const indexBytes = await readFile(join(workspace, '.git', 'index'));
      await readRepositorySessions(workspace);
      await uncommittedChangeCount(workspace);
      const record = await findSessionRecord(workspace, completed.session!.id);
      const changes = await sessionChanges(record!);
      await fileAtRevision(changes.repository, changes.head, changes.files[0]!.path);
      assert.deepEqual(await personRepoState(workspace), before);
      assert.deepEqual(await readFile(join(workspace, '.git', 'index')), indexBytes, 'the index bytes are the same');
      assert.equal((await stat(join(workspace, '.git', 'index'))).mtimeMs, indexBefore.mtimeMs, 'the index was not rewritten');
    } finally {
      git(workspace, 'checkout', '--', 'README.md');
      await rm(join(workspace, 'secret.env'));
    }
  });

  it('"Review changes" reads the files changed between the base commit and the branch, and their content there', async () => {
    const record = await findSessionRecord(workspace, completed.session!.id);
    assert.ok(record);
    const changes = await sessionChanges(record);
    assert.equal(changes.base, completed.session!.base_commit);
    assert.equal(changes.head, git(workspace, 'rev-parse', completed.branch));
    assert.equal(changes.branch, completed.branch);
    const byPath = new Map(changes.files.map((f) => [f.path, f.status]));
    assert.equal(byPath.get(JS_TEST_PATH), 'A');
    assert.equal(byPath.get(JS_SOURCE_PATH), 'A');
    assert.equal(byPath.has('README.md'), false, 'unchanged files are not listed');
    assert.equal(await fileAtRevision(changes.repository, changes.head, JS_TEST_PATH), JS.testFile(2));
    assert.equal(await fileAtRevision(changes.repository, changes.base, 'README.md'), '# mine\n');
    await assert.rejects(fileAtRevision(changes.repository, 'HEAD; rm -rf /', 'README.md'), /not a commit id/);
    await assert.rejects(sessionChanges({ git: { ...record.git, sessionBranch: 'tdd/gone-1' } }), /no longer exists/);
  });

  it('after a merge the session is listed as merged', async () => {
    const { into } = await mergeSession(workspace, completed.session!.id);
    assert.equal(into, 'main');
    const repository = await readRepositorySessions(workspace);
    const done = repository?.sessions.find((s) => s.id === completed.session!.id);
    assert.equal(done?.merged, true);
    const other = repository?.sessions.find((s) => s.id === cancelled.session!.id);
    assert.equal(
      other?.merged,
      false,
      `the other session is not merged: ${git(workspace, 'log', '--oneline', '--graph', '--all')}`,
    );
  });

  it('a running record of a dead process is interrupted and resumable; one this window runs is running', async () => {
    const id = cancelled.session!.id;
    const file = join(workspace, '.git', 'tdd-agent', 'sessions', `${id}.json`);
    const original = await readFile(file, 'utf8');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!; // exited: its pid is free
    try {
      await writeFile(file, JSON.stringify({ ...JSON.parse(original), status: 'running', pid: dead }));
      let listed = (await readRepositorySessions(workspace))?.sessions.find((s) => s.id === id);
      assert.equal(listed?.status, 'interrupted');
      assert.equal(listed?.resumable, true);
      await writeFile(file, JSON.stringify({ ...JSON.parse(original), status: 'running', pid: process.pid }));
      listed = (await readRepositorySessions(workspace, { runningHere: (s) => s === id }))?.sessions.find((s) => s.id === id);
      assert.equal(listed?.status, 'running');
      assert.equal(listed?.resumable, false, 'a session running in this window cannot be resumed');
      listed = (await readRepositorySessions(workspace, { runningHere: () => false }))?.sessions.find((s) => s.id === id);
      assert.equal(listed?.status, 'interrupted', 'this window does not run it: it was interrupted here');
    } finally {
      await writeFile(file, original);
    }
  });

  it('an unreadable record is left out and reported', async () => {
    const file = join(workspace, '.git', 'tdd-agent', 'sessions', 'broken-1.json');
    await writeFile(file, '{ not json');
    try {
      const skipped: string[] = [];
      const repository = await readRepositorySessions(workspace, { onSkipped: (s) => skipped.push(s.id) });
      assert.deepEqual(skipped, ['broken-1']);
      assert.equal(repository?.sessions.length, 2);
    } finally {
      await rm(file);
    }
  });

  it('resuming names the kata file when it still exists, else its slug', async () => {
    const record = await findSessionRecord(workspace, cancelled.session!.id);
    assert.ok(record?.kata.fileName);
    assert.equal(await kataPathOf(record), record.kata.fileName);
    assert.equal(await kataPathOf({ kata: { ...record.kata, fileName: join(workspace, 'gone.md') } }), 'fizzbuzz');
    assert.equal(await findSessionRecord(workspace, 'no-such-1'), undefined);
  });

  it('no listing outside a repository or in a folder inside one', async () => {
    const plain = await mkdtemp(join(tmpdir(), 'vscode-plain-'));
    try {
      assert.equal(await readRepositorySessions(plain), null);
      assert.equal(await uncommittedChangeCount(join(plain, 'missing')), 0);
      await mkdir(join(workspace, 'sub'));
      assert.equal(await readRepositorySessions(join(workspace, 'sub')), null);
    } finally {
      await rm(plain, { recursive: true, force: true });
      await rm(join(workspace, 'sub'), { recursive: true, force: true });
    }
  });
});
