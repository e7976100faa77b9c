import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { SessionSummarySchema } from '../../../src/core/tdd/sessionSummary';
import { closedPort } from '../../support/deadEndpoints';
import { FIZZBUZZ_WITHOUT_EXAMPLES, fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { dirtyMidMergeRepo, git, personRepoState } from '../../support/personRepo';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { cli, isolatedEnv, kataArgs, useCliSession } from './cliHarness';
import { ensureCliBundle } from '../../support/cliBundle';

const ROOT = resolve(__dirname, '..', '..', '..');
const run = promisify(execFile);

/** A kata file from somewhere else (a cloned repository, say) whose test command leaves a marker when it runs. */
async function foreignKata(dir: string, marker: string): Promise<string> {
  const path = join(dir, 'foreign.kata.md');
  await writeFile(
    path,
    `---\ntitle: Foreign\ntest_command: touch ${marker} && node --test\n---\n# Foreign\n\nWrite add(a, b).\n`,
  );
  return path;
}

// Everything that can refuse a session refuses before anything is created: the folder stays exactly as it was.
describe('tdd-agent kata: preflight, before anything changes', function () {
  this.timeout(120_000);
  const session = useCliSession('cli-preflight-');
  let elsewhere: string;
  beforeEach(async () => (elsewhere = await session.tempDir('cli-preflight-kata-')));

  it('an unreachable model server: one clear error, no git init, no commit, no branch', async () => {
    await writeFile(join(session.dir, 'notes.txt'), 'mine');
    const r = await cli(
      [
        'kata',
        'fizzbuzz',
        '--workspace',
        session.dir,
        '--base-url',
        `http://127.0.0.1:${await closedPort()}/v1`,
        '--model',
        'm',
        '--yes',
      ],
      isolatedEnv(),
    );
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /CONNECTION/);
    assert.deepEqual(await readdir(session.dir), ['notes.txt'], 'no .git, nothing else');
  });

  it('a model the server does not serve: refused with the models it has, nothing created', async () => {
    const r = await cli(
      ['kata', 'fizzbuzz', '--workspace', session.dir, '--base-url', session.server.baseURL, '--model', 'no-such-model', '--yes'],
      isolatedEnv(),
    );
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no-such-model.*test-model/);
    assert.deepEqual(await readdir(session.dir), []);
    assert.equal(session.server.chatRequests().length, 0);
  });

  it('a kata that is not bundled: its test command needs a HIGH approval before it ever runs', async () => {
    const marker = join(elsewhere, 'test-command-ran');
    const kata = await foreignKata(elsewhere, marker);
    const denied = await cli([...kataArgs(kata, session.dir, session.server.baseURL), '--yes'], isolatedEnv());
    assert.equal(denied.code, 2, denied.stderr);
    assert.match(denied.stderr, /KATA_NOT_APPROVED.*touch .*test-command-ran.*--yes=HIGH/);
    assert.deepEqual(await readdir(session.dir), [], 'nothing created');
    assert.deepEqual((await readdir(elsewhere)).sort(), ['foreign.kata.md'], 'the command never ran');

    session.server.setFallback(() => ({ text: 'KATA_COMPLETE' }));
    const approved = await cli(
      [...kataArgs(kata, session.dir, session.server.baseURL), '--yes=HIGH', '--max-cycles', '1', '--json'],
      isolatedEnv(),
    );
    assert.ok((await readdir(elsewhere)).length >= 1, approved.stderr);
    assert.ok(SessionSummarySchema.parse(JSON.parse(approved.stdout)));
  });

  it('a bundled kata needs no such approval', async () => {
    session.server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(1) }).reply);
    const r = await cli(
      [...kataArgs('fizzbuzz', session.dir, session.server.baseURL), '--yes', '--max-cycles', '1', '--json'],
      isolatedEnv(),
    );
    assert.equal(r.code, 0, r.stderr);
  });

  describe('the OS sandbox (built binary)', () => {
    before(async function () {
      this.timeout(60_000);
      await ensureCliBundle();
    });
    const bin = (args: string[], env: NodeJS.ProcessEnv) =>
      run('node', [join(ROOT, 'dist', 'cli.js'), ...args], { env, cwd: session.dir }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );

    it('no working sandbox: refused with the reason and the way to opt out, nothing created', async () => {
      const r = await bin(
        [...kataArgs('fizzbuzz', session.dir, session.server.baseURL), '--yes'],
        isolatedEnv({ TDD_AGENT_BWRAP: join(elsewhere, 'no-bwrap') }),
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /SANDBOX_UNAVAILABLE: No OS sandbox is available here .*--sandbox=off/);
      assert.match(r.stderr, /bubblewrap \(bwrap\) is not installed\./, 'the diagnosis names the failure mode');
      assert.deepEqual(await readdir(session.dir), []);
      assert.equal(session.server.chatRequests().length, 0);

      const doctor = await bin(['doctor'], isolatedEnv({ TDD_AGENT_BWRAP: join(elsewhere, 'no-bwrap') }));
      assert.equal(doctor.code, 1);
      assert.match(doctor.stdout, /sandbox: none/);
      assert.match(doctor.stdout, /^why: bubblewrap \(bwrap\) is not installed\.$/m);
      assert.match(doctor.stdout, /^fix: Install bubblewrap: `sudo apt-get install bubblewrap` \(Debian, Ubuntu\)/m);
    });

    it('doctor names the sandbox in use', async () => {
      const doctor = await bin(['doctor'], isolatedEnv());
      assert.equal(doctor.code, 0, doctor.stderr);
      assert.match(doctor.stdout, /sandbox: bubblewrap/);
      // Which mechanism bounds a run's processes on this host: RLIMIT_NPROC, a pids cgroup, or none and why.
      assert.match(
        doctor.stdout,
        /^process limit: (RLIMIT_NPROC in the sandbox's user namespace|a pids cgroup per run under \/\S+ \((cgroup v[12]|hybrid cgroups[^)]*)\)|none: .* \((cgroup v[12]|hybrid|no cgroups)[^)]*\)\.)/m,
      );
    });
  });
});

describe('tdd-agent kata in a dirty, mid-merge repository; tdd-agent sessions', function () {
  this.timeout(120_000);
  const session = useCliSession('cli-dirty-');
  let markers: string;
  beforeEach(async () => {
    markers = await session.tempDir('cli-dirty-hooks-');
    await dirtyMidMergeRepo(session.dir, markers);
  });

  it('runs without touching the checkout, says how to review and merge, and lists the session', async () => {
    const before = await personRepoState(session.dir);
    session.server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(1) }).reply);
    const r = await cli([...kataArgs(FIZZBUZZ_WITHOUT_EXAMPLES, session.dir, session.server.baseURL), '--yes'], isolatedEnv());
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await personRepoState(session.dir), before);
    const branch = /The result is on branch (tdd\/fizzbuzz-[\d-]+); your checkout was not changed/.exec(r.stderr)?.[1];
    assert.ok(branch, r.stderr);
    assert.match(r.stderr, new RegExp(`review: +git -C .* log --stat work\\.\\.${branch}`));
    assert.match(r.stderr, new RegExp(`take it: git -C .* merge ${branch}`));
    assert.ok(git(session.dir, 'log', '--format=%s', branch).includes('feat: returns the number itself'));

    const listed = await cli(['sessions', '--workspace', session.dir], isolatedEnv());
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, new RegExp(`${branch.slice(4)}  completed  2 cycle\\(s\\)  branch ${branch}  worktree removed`));
    const pruned = await cli(['sessions', '--workspace', session.dir, '--prune'], isolatedEnv());
    assert.match(pruned.stderr, /Removed 1 finished session/);
    assert.match(pruned.stdout, /No sessions/);
    assert.ok(git(session.dir, 'rev-parse', branch), 'the branch stays');
    assert.deepEqual(await personRepoState(session.dir), before);
  });

  it('--from-working-tree starts from the uncommitted files; --sandbox takes auto or off', async () => {
    session.server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(1) }).reply);
    const r = await cli(
      [...kataArgs(FIZZBUZZ_WITHOUT_EXAMPLES, session.dir, session.server.baseURL), '--yes', '--from-working-tree', '--json'],
      isolatedEnv(),
    );
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.ok(git(session.dir, 'log', '--format=%s', summary.branch).includes('chore: snapshot of the working tree (tdd-agent)'));
    assert.equal(git(session.dir, 'show', `${summary.branch}:scratch.txt`), 'untracked thoughts, no final newline');

    const bad = await cli(['kata', 'fizzbuzz', '--workspace', session.dir, '--sandbox', 'maybe'], isolatedEnv());
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--sandbox takes auto or off/);
  });
});
