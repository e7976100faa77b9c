import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { simpleGit } from 'simple-git';
import { SessionSummarySchema } from '../../../src/core/tdd/sessionSummary';
import { clumsyPlayer, requestsPerTurn } from '../../support/clumsyPlayer';
import { fizzbuzzJs, JS } from '../../support/fizzbuzzPlans';
import { isolatedEnv, kataArgs, useCliSession } from './cliHarness';

const run = promisify(execFile);
const CLI = join(resolve(__dirname, '..', '..', '..'), 'dist', 'cli.js');

/**
 * Issue 35, item 4, as a person runs it: the built `tdd-agent` against the loopback server, real `node --test` runs in
 * the sandbox, and a clumsy model that makes one mistake per cycle and then follows what it is told. Each mistake costs
 * at most one model request more than the same turn played well: a turn whose writes reach its goal takes one request
 * (the supervisor's own run ends it), a turn that reads its file first takes two.
 */
describe('tdd-agent kata with a clumsy model: the feedback steers it, one extra request per mistake at most', function () {
  this.timeout(180_000);
  const session = useCliSession('cli-clumsy-', { bundle: true });

  it('code in a message, a Tester writing code, an Implementer editing the test, a file read again and again: four green cycles, no violation', async () => {
    session.server.setFallback(
      clumsyPlayer(fizzbuzzJs(4, { refactor: false }), {
        1: 'codeInMessage',
        2: 'testerWritesCode',
        3: 'implementerWritesTest',
        4: 'rereadsFile',
      }).reply,
    );
    const r = await run('node', [CLI, ...kataArgs('fizzbuzz', session.dir, session.server.baseURL), '--yes', '--json'], {
      env: isolatedEnv(),
      timeout: 150_000,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`exit ${String(err.code)}\n${err.stderr ?? ''}\n${err.stdout ?? ''}`);
    });
    const summary = SessionSummarySchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      summary.cycles.slice(0, 4).map((c) => c.outcome),
      ['green', 'green', 'green', 'green'],
      r.stderr,
    );
    assert.equal(summary.totals.violations, 0, 'no write the role rules refused counts as a violation');

    const per = requestsPerTurn(session.server.chatRequests());
    const took = Object.fromEntries(['implementer:1', 'tester:2', 'implementer:3', 'implementer:4'].map((k) => [k, per.get(k)]));
    // Played well: 1, 1, 1 and 2 (read, then write). Each mistake may add one.
    assert.deepEqual(took, { 'implementer:1': 2, 'tester:2': 1, 'implementer:3': 1, 'implementer:4': 3 }, JSON.stringify(took));
    for (const key of ['tester:1', 'implementer:2', 'tester:3', 'tester:4']) assert.equal(per.get(key), 1, key);

    // What the person saw: the refused writes as refused tool calls, no violation.
    assert.doesNotMatch(r.stderr, /violation/i);
    // The branch holds the Tester's tests as written, and every commit's tests pass.
    const git = simpleGit(session.dir);
    assert.equal(await git.show([`${summary.branch}:test/fizzbuzz.test.js`]), JS.testFile(4));
  });
});
