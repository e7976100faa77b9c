import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerSecret } from '../../../../src/core/security/redact';
import {
  emptySessionMetrics,
  newCycleState,
  SessionStateError,
  SessionStore,
  type SessionState,
} from '../../../../src/core/tdd/session';

function sampleState(workspace: string): SessionState {
  const cycle = newCycleState(1, new Date('2026-01-01T00:00:00Z'));
  cycle.phase = 'IMPLEMENTING';
  cycle.attempts.tester = 1;
  cycle.phases.push({ role: 'tester', attempts: 1, outcome: 'red', durationMs: 1200, overshoots: 0, violations: 0, reverts: 0 });
  cycle.tests = { passed: 0, failed: 1, total: 1 };
  return {
    version: 2,
    questions: [],
    id: 'fizzbuzz-20260101-000000',
    status: 'running',
    kata: {
      title: 'FizzBuzz',
      slug: 'fizzbuzz',
      description: '# FizzBuzz',
      language: 'javascript',
      sourceDir: 'src',
      testDir: 'test',
    },
    workspace,
    branch: 'tdd/fizzbuzz-20260101-000000',
    git: {
      repository: workspace,
      commonDir: join(workspace, '.git'),
      worktree: join(workspace, 'worktree'),
      worktreeGitDir: join(workspace, '.git', 'worktrees', 'worktree'),
      sessionBranch: 'tdd/fizzbuzz-20260101-000000',
      baseCommit: 'abc',
      baseBranch: 'main',
      createdRepository: false,
      fromWorkingTree: false,
    },
    worktreeKept: true,
    maxCycles: 6,
    startedAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:01Z',
    cycles: [cycle],
    metrics: emptySessionMetrics(),
  };
}

describe('SessionStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tdd-session-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns undefined when nothing was saved, and round-trips a state', async () => {
    const store = new SessionStore(dir, 'fizzbuzz-20260101-000000');
    assert.equal(await store.load(), undefined);
    const state = sampleState(dir);
    await store.save(state);
    assert.deepEqual(await store.load(), state);
    assert.equal(store.path, join(dir, 'fizzbuzz-20260101-000000.json'));
  });

  it('reads a record from before tool calls read from text were counted as 0 of them', async () => {
    const store = new SessionStore(dir, 'fizzbuzz-20260101-000000');
    const state = sampleState(dir);
    const { toolCallsFromText, ...olderMetrics } = state.metrics;
    assert.equal(toolCallsFromText, 0);
    await writeFile(store.path, JSON.stringify({ ...state, metrics: olderMetrics }));
    assert.equal((await store.load())?.metrics.toolCallsFromText, 0);
    await store.save({ ...state, metrics: { ...state.metrics, toolCallsFromText: 3 } });
    assert.equal((await store.load())?.metrics.toolCallsFromText, 3);
  });

  it('reads a role error recorded as TIMED_OUT (before one word, TIMEOUT, named every deadline) as TIMEOUT', async () => {
    const store = new SessionStore(dir, 'fizzbuzz-20260101-000000');
    const state = sampleState(dir);
    const result = { success: false, files_modified: [], tests_passed: 0, overshoot_detected: false, commits_made: [] };
    const older = structuredClone(state) as unknown as { cycles: { phases: Record<string, unknown>[] }[] };
    older.cycles[0]!.phases[0]!.result = { ...result, error: { error_code: 'TIMED_OUT', message: 'The tests timed out.' } };
    await writeFile(store.path, JSON.stringify(older));
    assert.deepEqual((await store.load())?.cycles[0]!.phases[0]!.result?.error, {
      error_code: 'TIMEOUT',
      message: 'The tests timed out.',
    });
  });

  it('writes atomically and in call order, leaving no temp files', async () => {
    const store = new SessionStore(dir, 'fizzbuzz-20260101-000000');
    const saves = [1, 2, 3, 4, 5].map((n) => store.save({ ...sampleState(dir), id: `session-${n}` }));
    await Promise.all(saves);
    assert.equal((await store.load())?.id, 'session-5', 'the last save wins');
    assert.deepEqual((await readdir(dir)).sort(), ['fizzbuzz-20260101-000000.json']);
  });

  it('reports a corrupt file clearly and leaves it untouched', async () => {
    await writeFile(join(dir, 'fizzbuzz-20260101-000000.json'), '{ "version": 1, ');
    const store = new SessionStore(dir, 'fizzbuzz-20260101-000000');
    await assert.rejects(store.load(), (e: unknown) => {
      assert.ok(e instanceof SessionStateError);
      assert.equal(e.error_code, 'SESSION_STATE_INVALID');
      assert.match(e.message, /not valid JSON.*delete it or start a new session/);
      return true;
    });
    assert.equal(await readFile(join(dir, 'fizzbuzz-20260101-000000.json'), 'utf8'), '{ "version": 1, ');
  });

  it('names the field when the file does not match the schema', async () => {
    const bad = { ...sampleState(dir), status: 'exploded' };
    await writeFile(join(dir, 'fizzbuzz-20260101-000000.json'), JSON.stringify(bad));
    await assert.rejects(
      new SessionStore(dir, 'fizzbuzz-20260101-000000').load(),
      (e: unknown) => e instanceof SessionStateError && /status/.test(e.message),
    );
  });

  it('refuses to save an invalid state', async () => {
    const state = sampleState(dir);
    (state.cycles[0] as { phase: string }).phase = 'DANCING';
    await assert.rejects(
      new SessionStore(dir, 'fizzbuzz-20260101-000000').save(state),
      (e: unknown) => e instanceof SessionStateError && /cycles\.0\.phase/.test(e.message),
    );
  });

  it('never writes a registered secret to disk', async () => {
    const secret = 'sk-test-abcdefghijklmnopqrstuvwxyz123456';
    registerSecret(secret);
    const state = sampleState(dir);
    state.error = { error_code: 'AUTH', message: `bad key ${secret}` };
    const store = new SessionStore(dir, 'fizzbuzz-20260101-000000');
    await store.save(state);
    assert.ok(!(await readFile(store.path, 'utf8')).includes(secret));
  });

  it('keeps paths under the home folder verbatim (redaction would shorten them to ~)', async () => {
    const state = sampleState(join(homedir(), 'katas', 'fizz'));
    state.kata.fileName = join(homedir(), 'katas', 'fizzbuzz.md');
    const store = new SessionStore(dir, 'fizzbuzz-20260101-000000');
    await store.save(state);
    const loaded = await store.load();
    assert.equal(loaded?.workspace, state.workspace);
    assert.equal(loaded?.kata.fileName, state.kata.fileName);
  });

  it('lists every record of the folder, newest first, with unreadable ones and their problem', async () => {
    const older = { ...sampleState(dir), id: 'fizzbuzz-20250101-000000', updatedAt: '2025-01-01T00:00:00Z' };
    await new SessionStore(dir, older.id).save(older);
    await new SessionStore(dir, 'fizzbuzz-20260101-000000').save(sampleState(dir));
    await writeFile(join(dir, 'broken.json'), '{');
    const listed = await SessionStore.list(dir);
    assert.deepEqual(
      listed.filter((r) => r.state).map((r) => r.id),
      ['fizzbuzz-20260101-000000', 'fizzbuzz-20250101-000000'],
    );
    assert.match(listed.find((r) => r.id === 'broken')?.problem ?? '', /not valid JSON/);
    assert.deepEqual(await SessionStore.list(join(dir, 'missing')), []);
  });

  it('refuses a session id that could name a path', () => {
    for (const id of ['../x', 'a/b', '', '.hidden']) assert.throws(() => new SessionStore(dir, id), /is not a session id/);
  });

  it('clears the saved state', async () => {
    const store = new SessionStore(dir, 'fizzbuzz-20260101-000000');
    await store.save(sampleState(dir));
    await store.clear();
    assert.equal(await store.load(), undefined);
  });
});
