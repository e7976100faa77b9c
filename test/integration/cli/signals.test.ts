import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FIZZBUZZ_WITHOUT_EXAMPLES, fizzbuzzJs, JS, JS_TEST_PATH } from '../../support/fizzbuzzPlans';
import { dirtyMidMergeRepo, git, personRepoState } from '../../support/personRepo';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { cli, isolatedEnv, kataArgs, useCliSession } from './cliHarness';

const ROOT = resolve(__dirname, '..', '..', '..');

// The built CLI in a real child process, stopped by a real signal while cycle 2's red test sits uncommitted in
// the session's worktree. Whatever the signal, the person's dirty, mid-merge repository stays byte-identical.
describe('tdd-agent kata: Ctrl-C, SIGTERM, SIGHUP and kill -9 never touch the person’s repository', function () {
  this.timeout(180_000);
  const session = useCliSession('cli-signal-', { bundle: true });
  let markers: string;
  beforeEach(async () => {
    markers = await session.tempDir('cli-signal-hooks-');
    await dirtyMidMergeRepo(session.dir, markers);
  });

  /** Starts a session and resolves once cycle 2's implementer asks the model (its request is held). */
  async function startAndHold(): Promise<{
    child: ReturnType<typeof spawn>;
    out: () => { stdout: string; stderr: string };
    exited: Promise<number | null>;
    worktree: string;
  }> {
    const script = scriptedKataModel({ cycles: fizzbuzzJs(3) });
    let reached: () => void = () => undefined;
    const atImplementer2 = new Promise<void>((res) => (reached = res));
    session.server.setFallback(async (req) => {
      const user = String(req.body.messages.find((m: { role: string }) => m.role === 'user')?.content ?? '');
      if (String(req.body.messages[0].content).startsWith('agent: implementer/v1') && /- cycle: 2\b/.test(user)) {
        reached();
        await new Promise((res) => setTimeout(res, 30_000));
      }
      return script.reply(req);
    });
    const child = spawn(
      'node',
      [
        join(ROOT, 'dist', 'cli.js'),
        ...kataArgs(FIZZBUZZ_WITHOUT_EXAMPLES, session.dir, session.server.baseURL),
        '--yes',
        '--json',
      ],
      {
        env: isolatedEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += String(d)));
    child.stderr!.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    await atImplementer2;
    // The session's worktree, as git lists it (the person's own checkout is the first entry).
    const worktree =
      git(session.dir, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree '))
        .map((l) => l.slice('worktree '.length))[1] ?? '';
    return { child, out: () => ({ stdout, stderr }), exited, worktree };
  }

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal}: stops after the current step, exits 1 with a resumable session, the worktree at the last green commit`, async () => {
      const before = await personRepoState(session.dir);
      const run = await startAndHold();
      assert.ok(run.worktree, run.out().stderr);
      assert.equal(
        await readFile(join(run.worktree, JS_TEST_PATH), 'utf8'),
        JS.testFile(2),
        'the red test of cycle 2 is in the worktree',
      );
      assert.deepEqual(await personRepoState(session.dir), before, 'unchanged during the session');
      run.child.kill(signal);
      const code = await run.exited;
      const { stdout, stderr } = run.out();
      assert.equal(code, 1, stderr);
      assert.match(stderr, /Stopping after the current step/);
      const summary = JSON.parse(stdout);
      assert.equal(summary.status, 'cancelled');
      assert.deepEqual(
        summary.cycles.map((c: { outcome: string }) => c.outcome),
        ['green', 'cancelled'],
      );
      assert.equal(summary.session.worktree, run.worktree);
      assert.equal(
        await readFile(join(run.worktree, JS_TEST_PATH), 'utf8'),
        JS.testFile(1),
        'the worktree is back at the last green commit',
      );
      assert.deepEqual(await personRepoState(session.dir), before, 'unchanged after the signal');
    });
  }

  it('kill -9: nothing to clean up in the person’s repository; resume rolls the worktree back and finishes', async () => {
    const before = await personRepoState(session.dir);
    const run = await startAndHold();
    run.child.kill('SIGKILL');
    await run.exited;
    assert.deepEqual(await personRepoState(session.dir), before, 'unchanged after kill -9');
    assert.equal(
      await readFile(join(run.worktree, JS_TEST_PATH), 'utf8'),
      JS.testFile(2),
      'the half-done phase is still in the worktree',
    );

    session.server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(3) }).reply);
    const resumed = await cli(
      [...kataArgs(FIZZBUZZ_WITHOUT_EXAMPLES, session.dir, session.server.baseURL), '--yes', '--json', '--resume'],
      isolatedEnv(),
    );
    assert.equal(resumed.code, 0, resumed.stderr);
    const summary = JSON.parse(resumed.stdout);
    assert.equal(summary.status, 'completed');
    assert.deepEqual(
      summary.cycles.map((c: { n: number }) => c.n),
      [1, 2, 3, 4],
    );
    assert.deepEqual(await personRepoState(session.dir), before, 'unchanged after the resume');
  });
});
