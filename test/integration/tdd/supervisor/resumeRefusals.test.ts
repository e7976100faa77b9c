import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '../../../../src/core/errors/agentError';
import { findResumableSession } from '../../../../src/core/tdd/session';
import type { SessionState } from '../../../../src/core/tdd/session/sessionState';
import { cancelledSession, SessionHarness } from './sessionHarness';

/** Rejects with an AgentError of `code` whose message matches `message`. */
async function refused(promise: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof AgentError, String(err));
    assert.equal(err.error_code, code);
    assert.match(err.message, message);
    return true;
  });
}

describe('TDD supervisor: which saved session a resume picks, and what it refuses (real records of a real session)', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  let sessions: string;
  let cancelled: SessionState;
  before(async () => {
    await h.setUp();
    ({ sessions, state: cancelled } = await cancelledSession(h));
  });
  after(() => h.cleanup());

  /** Saves a copy of the cancelled session's record under another id, with `change` applied. */
  async function copyAs(id: string, change: Partial<SessionState>): Promise<void> {
    await writeFile(join(sessions, `${id}.json`), JSON.stringify({ ...cancelled, id, ...change }, null, 2));
  }

  it('finds the cancelled session by kata and by id', async () => {
    assert.equal((await findResumableSession(sessions, 'fizzbuzz')).id, cancelled.id);
    assert.equal((await findResumableSession(sessions, 'fizzbuzz', cancelled.id)).id, cancelled.id);
  });

  it('refuses an unknown id (naming the sessions command) and a kata without sessions', async () => {
    await refused(
      findResumableSession(sessions, 'fizzbuzz', 'no-such-session'),
      'CONFIG',
      /no session 'no-such-session'.*tdd-agent sessions/,
    );
    await refused(findResumableSession(sessions, 'leap-year'), 'CONFIG', /no session of the kata 'leap-year'/);
  });

  it('refuses an unreadable record as SESSION_STATE_INVALID', async () => {
    await writeFile(join(sessions, 'broken.json'), '{ not json');
    await refused(findResumableSession(sessions, 'fizzbuzz', 'broken'), 'SESSION_STATE_INVALID', /./);
  });

  it('refuses a completed session and one whose worktree was removed, saying its branch keeps the commits', async () => {
    await copyAs('done-1', { status: 'completed' });
    await refused(
      findResumableSession(sessions, 'fizzbuzz', 'done-1'),
      'CONFIG',
      /cannot be resumed: it completed\. Its branch .* keeps its commits/,
    );
    await copyAs('gone-1', { worktreeKept: false });
    await refused(findResumableSession(sessions, 'fizzbuzz', 'gone-1'), 'CONFIG', /cannot be resumed: its worktree was removed/);
  });

  it('refuses a session another live process is still running', async () => {
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await copyAs('live-1', { status: 'running', pid: other.pid });
      await refused(
        findResumableSession(sessions, 'fizzbuzz', 'live-1'),
        'CONFIG',
        new RegExp(`still running \\(process ${other.pid}\\); stop it first`),
      );
    } finally {
      other.kill('SIGKILL');
    }
  });
});
