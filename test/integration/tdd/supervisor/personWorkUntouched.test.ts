import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptedReply } from '../../../support/openaiServer';
import { fizzbuzzJs, JS, JS_TEST_PATH } from '../../../support/fizzbuzzPlans';
import { dirtyMidMergeRepo, personRepoState } from '../../../support/personRepo';
import { scriptedKataModel } from '../../../support/scriptedKataModel';
import { fileOnBranch, readOrNull, runWithReply, savedSession, SessionHarness, turnOfRequest } from './sessionHarness';

/**
 * The tester's first turn also tries to overwrite the person's ignored `data/db.txt` (an ignored file the
 * old design wrote straight into the person's checkout); everything else is the scripted FizzBuzz.
 */
function withIgnoredFileWrite(
  reply: (req: never) => ScriptedReply | Promise<ScriptedReply>,
): (req: never) => Promise<ScriptedReply> {
  let injected = false;
  return async (req) => {
    const answer = await reply(req);
    const t = turnOfRequest(req);
    if (!injected && t.role === 'tester' && typeof answer === 'object' && 'toolCalls' in answer) {
      injected = true;
      return {
        ...answer,
        toolCalls: [
          ...answer.toolCalls,
          {
            id: 'call_ignored',
            name: 'write_file',
            arguments: JSON.stringify({ path: 'data/db.txt', content: 'overwritten by the tester' }),
          },
        ],
      };
    }
    return answer;
  };
}

describe('TDD supervisor: the person’s repository is never touched (dirty, mid-merge, ignored files, hooks)', function () {
  this.timeout(180_000);
  const h = new SessionHarness();
  let markers: string;
  let before: Record<string, unknown>;
  beforeEach(async () => {
    await h.setUp();
    markers = await mkdtemp(join(tmpdir(), 'tdd-hook-markers-'));
    await dirtyMidMergeRepo(h.workspace, markers);
    before = await personRepoState(h.workspace);
  });
  afterEach(async () => {
    await h.cleanup();
    await rm(markers, { recursive: true, force: true });
  });

  it('runs a whole session: byte-identical at every model call and at the end; the result is on the branch', async () => {
    const script = scriptedKataModel({ cycles: fizzbuzzJs(2) });
    const reply = withIgnoredFileWrite(script.reply as never);
    let checks = 0;
    const { summary } = await runWithReply(h, async (req) => {
      assert.deepEqual(await personRepoState(h.workspace), before, `changed before model call ${checks}`);
      checks++;
      return reply(req as never);
    });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.ok(checks > 5);
    assert.deepEqual(
      await personRepoState(h.workspace),
      before,
      'HEAD, branch, status, index, stash, MERGE_HEAD, hooks and every file unchanged',
    );
    assert.equal(await readFile(join(h.workspace, 'data', 'db.txt'), 'utf8'), 'the person’s ignored database\n');
    assert.deepEqual(await import('node:fs/promises').then((fs) => fs.readdir(markers)), [], 'no hook ran');
    assert.equal(await fileOnBranch(h.workspace, summary.branch, JS_TEST_PATH), JS.testFile(2));
    assert.equal(await fileOnBranch(h.workspace, summary.branch, 'data/db.txt'), null, 'an ignored file is never committed');
    assert.equal(summary.session?.base_branch, 'work');
    assert.equal(summary.session?.worktree, null, 'the finished session’s worktree was removed');
  });

  it('cancelled mid-cycle, then resumed: unchanged after the cancel and after the resume; the worktree is back at the last green commit', async () => {
    const controller = new AbortController();
    const first = scriptedKataModel({ cycles: fizzbuzzJs(3) });
    let worktree = '';
    let redTestOnDisk: string | null = null;
    const cancelled = await runWithReply(
      h,
      async (req) => {
        const t = turnOfRequest(req);
        if (t.role === 'implementer' && t.cycle === 2 && !controller.signal.aborted) {
          redTestOnDisk = await readOrNull(join(worktree, JS_TEST_PATH));
          controller.abort();
        }
        return first.reply(req);
      },
      { signal: controller.signal, onEvent: (e) => e.type === 'session_started' && (worktree = e.worktree) },
    );
    assert.equal(redTestOnDisk, JS.testFile(2), 'the cancel came while the red test of cycle 2 was uncommitted in the worktree');
    assert.equal(cancelled.summary.status, 'cancelled');
    assert.deepEqual(
      cancelled.summary.cycles.map((c) => [c.n, c.outcome]),
      [
        [1, 'green'],
        [2, 'cancelled'],
      ],
    );
    assert.deepEqual(await personRepoState(h.workspace), before);
    assert.equal(cancelled.summary.session?.worktree, worktree, 'a cancelled session keeps its worktree for resuming');
    assert.equal(
      await readFile(join(worktree, JS_TEST_PATH), 'utf8'),
      JS.testFile(1),
      'the worktree is at the last green commit',
    );
    assert.equal((await savedSession(h.workspace, cancelled.summary)).status, 'cancelled');

    const second = scriptedKataModel({ cycles: fizzbuzzJs(3) });
    const resumed = await runWithReply(h, second.reply, { resume: true });
    assert.equal(resumed.summary.status, 'completed', JSON.stringify(resumed.summary.error));
    assert.equal(resumed.summary.branch, cancelled.summary.branch);
    assert.deepEqual(second.played[0], { role: 'tester', cycle: 2, attempt: 1 });
    assert.deepEqual(await personRepoState(h.workspace), before);
    assert.equal((await savedSession(h.workspace, resumed.summary)).status, 'completed');
  });

  it('refuses to resume a record that names the person’s branch, changing nothing', async () => {
    const controller = new AbortController();
    const first = scriptedKataModel({ cycles: fizzbuzzJs(2) });
    const cancelled = await runWithReply(
      h,
      async (req) => {
        if (turnOfRequest(req).role === 'implementer') controller.abort();
        return first.reply(req);
      },
      { signal: controller.signal },
    );
    const recordPath = join(h.workspace, '.git', 'tdd-agent', 'sessions', `${cancelled.summary.session!.id}.json`);
    const record = JSON.parse(await readFile(recordPath, 'utf8'));
    record.git.sessionBranch = 'work';
    await import('node:fs/promises').then((fs) => fs.writeFile(recordPath, JSON.stringify(record)));
    const state = await personRepoState(h.workspace);
    const calls = h.server.chatRequests().length;
    await assert.rejects(
      runWithReply(h, scriptedKataModel({ cycles: fizzbuzzJs(2) }).reply, { resume: true }),
      (e: unknown) => (e as { error_code?: string }).error_code === 'SESSION_STATE_INVALID',
    );
    assert.deepEqual(await personRepoState(h.workspace), state);
    assert.equal(h.server.chatRequests().length, calls, 'refused before any model call');
    assert.equal(
      JSON.parse(await readFile(recordPath, 'utf8')).git.sessionBranch,
      'work',
      'the record is left as it was, for inspection',
    );
  });
});
