import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { access, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { dirtyMidMergeRepo, personRepoState } from '../../../support/personRepo';
import { scriptedKataModel } from '../../../support/scriptedKataModel';
import { fileOnBranch, runWithReply, SessionHarness } from './sessionHarness';

const SECRET = 'sk-hostile-test-target-7d1c2e';
const SLEEP_SECONDS = '4242.125'; // unique, so `ps` on the host finds only this run's sleep

/**
 * A test file a model could write: it passes, and on the way tries to write outside its folder, find the
 * API key in any process's environment, reach the model server, plant a git hook and leave a process
 * running. It records what it got in `test/escape-report.json`, which the session then commits.
 */
function hostileTest(targets: { outside: string; hook: string; url: string }): string {
  return `import { test } from 'node:test';
import fs from 'node:fs';
import http from 'node:http';
import { spawn } from 'node:child_process';
const report = {};
const tryIt = (fn) => { try { fn(); return 'done'; } catch (e) { return 'blocked: ' + (e.code ?? e.message); } };
test('only records', async () => {
  report.outside = tryIt(() => fs.writeFileSync(${JSON.stringify(targets.outside)}, 'escaped'));
  report.hook = tryIt(() => fs.writeFileSync(${JSON.stringify(targets.hook)}, '#!/bin/sh\\necho pwned\\n', { mode: 0o755 }));
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n))) {
    try { const env = fs.readFileSync('/proc/' + pid + '/environ', 'latin1'); if (env.includes('sk-hostile')) found.push(Buffer.from(env).toString('base64')); } catch {}
  }
  report.environ = found.length ? found : 'no key found';
  report.network = await new Promise((resolve) => {
    const req = http.get(${JSON.stringify(targets.url)}, (res) => resolve('reached: ' + res.statusCode));
    req.on('error', (e) => resolve('blocked: ' + e.code));
    req.setTimeout(3000, () => { req.destroy(); resolve('blocked: timeout'); });
  });
  spawn('sleep', ['${SLEEP_SECONDS}'], { detached: true, stdio: 'ignore' }).unref();
  fs.writeFileSync('test/escape-report.json', JSON.stringify(report));
});
`;
}

describe('TDD supervisor: a generated test that tries to get out (real bubblewrap)', function () {
  this.timeout(180_000);
  const h = new SessionHarness({ wire: true }); // about what reaches the network: the loopback server
  let markers: string;
  let savedKey: string | undefined;
  beforeEach(async () => {
    await h.setUp();
    markers = await mkdtemp(join(tmpdir(), 'tdd-hostile-hooks-'));
    await dirtyMidMergeRepo(h.workspace, markers);
    savedKey = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = SECRET; // in this (the supervisor's) process: what /proc/<parent>/environ would show
  });
  afterEach(async () => {
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
    try {
      execFileSync('pkill', ['-f', `sleep ${SLEEP_SECONDS}`]);
    } catch {
      /* none left: as expected */
    }
    await h.cleanup();
    await rm(markers, { recursive: true, force: true });
  });

  it('gets none of it, and the session goes on to green commits', async () => {
    const before = await personRepoState(h.workspace);
    const outside = join(h.workspace, 'escaped.txt');
    const hook = join(h.workspace, '.git', 'hooks', 'post-checkout');
    const hooksBefore = await readdir(join(h.workspace, '.git', 'hooks'));
    const cycles = fizzbuzzJs(2);
    cycles[0]!.tester.writes!.push({
      path: 'test/escape.test.js',
      content: hostileTest({ outside, hook, url: `${h.wireServer!.baseURL}/escape` }),
    });
    const requestsBefore = () => h.wireServer!.requests.filter((r) => r.path.includes('escape')).length;

    const { summary } = await runWithReply(h, scriptedKataModel({ cycles }).reply);

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.ok(summary.totals.commits >= 2, 'the session went on');
    const report = JSON.parse((await fileOnBranch(h.workspace, summary.branch, 'test/escape-report.json')) ?? 'null');
    assert.ok(report, 'the hostile test ran and its report was committed');
    // Inside, the write may "succeed" into the sandbox's private /tmp (the person's repository lies under the
    // host's /tmp here); what counts is that the person's folder on the host never gets the file.
    assert.match(report.hook, /^blocked: (EROFS|EACCES|ENOENT)/, JSON.stringify(report));
    assert.equal(report.environ, 'no key found');
    assert.match(report.network, /^blocked/);
    await assert.rejects(access(outside));
    assert.deepEqual(await readdir(join(h.workspace, '.git', 'hooks')), hooksBefore);
    assert.equal(requestsBefore(), 0, 'the model server never saw the test’s request');
    assert.throws(() => execFileSync('pgrep', ['-f', `sleep ${SLEEP_SECONDS}`]), 'no background process outlived its test run');
    const history = execFileSync('git', ['log', '--all', '-p', '--format=%B'], { cwd: h.workspace, encoding: 'utf8' });
    assert.ok(
      !history.includes(SECRET) && !history.includes(Buffer.from(`OPENAI_API_KEY=${SECRET}`).toString('base64').slice(0, 24)),
      'the key is in no commit',
    );
    assert.ok(!JSON.stringify(h.server.chatRequests()).includes(SECRET), 'the key never went to the model');
    assert.deepEqual(await personRepoState(h.workspace), before);
  });
});
