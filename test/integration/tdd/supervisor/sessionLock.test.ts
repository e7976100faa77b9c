import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { projectViewLayer } from '../../../../src/core/osSandbox';
import { AgentError } from '../../../../src/core/errors/agentError';
import {
  deleteSession,
  diskUsage,
  formatDiskUsage,
  listSessions,
  SessionLock,
  type SessionState,
} from '../../../../src/core/tdd/session';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { scriptedKataModel } from '../../../support/scriptedKataModel';
import { cancelledSession, runWithReply, SessionHarness } from './sessionHarness';

/** The kernel's start time of `pid` (`/proc/<pid>/stat` field 22). */
async function startTimeOf(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

describe('TDD supervisor: one process per session (a real lock file, real processes, real sessions)', function () {
  this.timeout(180_000);
  const h = new SessionHarness();
  let sessions: string;
  let cancelled: SessionState;
  let sleeper: ChildProcess | undefined;

  before(async () => {
    await h.setUp();
    ({ sessions, state: cancelled } = await cancelledSession(h));
  });
  afterEach(() => {
    sleeper?.kill('SIGKILL');
    sleeper = undefined;
  });
  after(() => h.cleanup());

  it('a session run leaves no lock behind when it ends', async () => {
    assert.equal(
      await readFile(join(sessions, `${cancelled.id}.lock`), 'utf8').catch(() => 'none'),
      'none',
      'the cancelled run released its lock',
    );
  });

  it('two resumes of one session started together: exactly one attaches, the other is refused naming the holder', async () => {
    const resume = () => runWithReply(h, scriptedKataModel({ cycles: fizzbuzzJs(2) }).reply, { resume: cancelled.id });
    const results = await Promise.allSettled([resume(), resume()]);
    const refused = results.filter((r) => r.status === 'rejected');
    const ran = results.filter((r) => r.status === 'fulfilled');
    assert.equal(
      ran.length,
      1,
      JSON.stringify(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.value.summary.status))),
    );
    assert.equal(refused.length, 1);
    const error = (refused[0] as PromiseRejectedResult).reason as AgentError;
    assert.ok(error instanceof AgentError, String(error));
    assert.match(error.message, new RegExp(`Session ${cancelled.id} is in use by a kata session \\(process ${process.pid}`));
    assert.match(error.message, /Nothing was changed/);
    // Both runs would have committed the same cycles: the branch has each green state once.
    const subjects = (await h.git().raw(['log', '--format=%s', `${cancelled.branch}`])).split('\n').filter(Boolean);
    assert.equal(new Set(subjects).size, subjects.length, subjects.join('\n'));
  });

  it('refuses while a live process holds the lock, and takes over once it is gone', async () => {
    sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    const pid = sleeper.pid!;
    const holder = { pid, processStart: await startTimeOf(pid), host: hostname(), purpose: 'a Testing-view run', since: 'now' };
    await writeFile(join(sessions, 'held.lock'), JSON.stringify(holder));
    await assert.rejects(SessionLock.acquire(sessions, 'held', 'a kata session'), (err: unknown) => {
      assert.ok(err instanceof AgentError);
      assert.equal(err.error_code, 'CONFIG');
      assert.match(err.message, new RegExp(`in use by a Testing-view run \\(process ${pid}`));
      return true;
    });
    sleeper.kill('SIGKILL');
    await new Promise((resolve) => sleeper!.once('exit', resolve));
    const lock = await SessionLock.acquire(sessions, 'held', 'a kata session');
    assert.equal(JSON.parse(await readFile(join(sessions, 'held.lock'), 'utf8')).pid, process.pid);
    await lock.release();
  });

  it('a lock whose pid now names another process (a reused pid) is stale', async () => {
    sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    const holder = { pid: sleeper.pid!, processStart: '1', host: hostname(), purpose: 'a kata session', since: 'then' };
    await writeFile(join(sessions, 'reused.lock'), JSON.stringify(holder));
    const lock = await SessionLock.acquire(sessions, 'reused', 'a kata session');
    await lock.release();
    assert.equal(await readFile(join(sessions, 'reused.lock'), 'utf8').catch(() => 'gone'), 'gone');
  });

  it('lists a locked session as running, not resumable, and refuses to delete it', async () => {
    sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    const pid = sleeper.pid!;
    const holder = { pid, processStart: await startTimeOf(pid), host: hostname(), purpose: 'a kata session', since: 'now' };
    await writeFile(join(sessions, `${cancelled.id}.lock`), JSON.stringify(holder));
    try {
      const listed = (await listSessions(h.workspace)).find((s) => s.id === cancelled.id)!;
      assert.equal(listed.running, true);
      assert.equal(listed.resumable, false);
      await assert.rejects(deleteSession(h.workspace, cancelled.id), /in use by a kata session/);
    } finally {
      sleeper.kill('SIGKILL');
      await new Promise((resolve) => sleeper!.once('exit', resolve));
    }
    assert.equal((await listSessions(h.workspace)).find((s) => s.id === cancelled.id)!.running, false);
  });

  it('deleting a session says how much disk its worktree and its project view’s layer took, and removes both', async () => {
    const { state } = await cancelledSession(h);
    const layer = projectViewLayer(state.git.worktree);
    await mkdir(join(layer, 'upper', 'node_modules'), { recursive: true });
    await writeFile(join(layer, 'upper', 'node_modules', 'cache.bin'), Buffer.alloc(64 * 1024));
    const expected = (await diskUsage(state.git.worktree)) + (await diskUsage(layer));
    assert.ok(expected > 64 * 1024);
    const result = await deleteSession(h.workspace, state.id);
    assert.equal(result.worktreeRemoved, true);
    assert.equal(result.freedBytes, expected);
    await assert.rejects(access(layer), 'the layer went with the worktree');
    assert.match(formatDiskUsage(result.freedBytes), /^\d+(\.\d)? (kB|MB)$/);
  });
});
