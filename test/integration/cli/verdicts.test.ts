import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { simpleGit } from 'simple-git';
import { SessionSummarySchema, type SessionSummary } from '../../../src/core/tdd/sessionSummary';
import { FIZZBUZZ_WITHOUT_EXAMPLES } from '../../support/fizzbuzzPlans';
import { type OpenAITestServer } from '../../support/openaiServer';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { dropsAFailedTest, importOnlyTester, stopsEarly, STRINGS_PROJECT, WHISPER_TASK } from '../../support/verdictPlayers';
import { isolatedEnv, useCliSession } from './cliHarness';

// Issue 35: the supervisor's verdicts cannot be fooled by a clumsy model. Each case is the built `tdd-agent` against the
// loopback server, with real node --test runs in the sandbox and real commits, and a scripted player that makes one
// realistic mistake, then follows the feedback. On the main branch before the change, each of them failed: the import
// line alone was taken as red and committed as `feat:` with no test; KATA_COMPLETE after one FizzBuzz cycle ended
// `completed` (exit 0) with the single `1 → "1"` test; a test red in a rolled-back cycle was dropped without a word.

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

/** Runs the built `tdd-agent` (its exit code, stdout and stderr; a non-zero exit is not thrown). */
async function tddAgent(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [CLI, ...args], { env, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The titles of the tests a commit adds (`+test('…'` lines of its diff in test files). */
async function testsAddedBy(dir: string, sha: string): Promise<string[]> {
  const diff = await simpleGit(dir).raw(['show', '--format=', '--unified=0', sha, '--', 'test']);
  return [...diff.matchAll(/^\+\s*(?:test|it)\(\s*'([^']+)'/gm)].map((m) => m[1]!);
}

/** Each commit of the session's branch (past `base`, when given), oldest first: sha and subject. */
async function branchCommits(dir: string, branch: string, base?: string): Promise<Array<{ sha: string; subject: string }>> {
  const log = await simpleGit(dir).raw(['log', '--reverse', '--format=%H %s', base ? `${base}..${branch}` : branch]);
  return log
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ sha: line.slice(0, 40), subject: line.slice(41) }));
}

/** The context (user) message of a Tester turn, as the model received it. */
function testerContext(server: OpenAITestServer, cycle: number, attempt: number): string {
  for (const req of server.chatRequests()) {
    const messages = (req.body?.messages ?? []) as Array<{ role: string; content?: unknown }>;
    const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
    const user = String(messages.find((m) => m.role === 'user')?.content ?? '');
    const assistant = messages.filter((m) => m.role === 'assistant').length;
    const turn = { cycle: Number(/- cycle: (\d+)/.exec(user)?.[1]), attempt: Number(/- attempt: (\d+)/.exec(user)?.[1]) };
    if (/^agent: tester\//.test(system) && turn.cycle === cycle && turn.attempt === attempt && !assistant) return user;
  }
  throw new Error(`no tester turn for cycle ${cycle}, attempt ${attempt}`);
}

describe('tdd-agent: red is a new test, every feat: commit holds its test, complete is earned (issue 35)', function () {
  this.timeout(300_000);
  const session = useCliSession('cli-verdicts-', { bundle: true });
  const modelArgs = (): string[] => ['--base-url', session.server.baseURL, '--model', 'test-model', '--yes', '--json'];

  it('a Tester that only adds a missing name to the import line is no red: told so, it writes the test, and the feat: commit holds it', async () => {
    for (const [path, content] of Object.entries(STRINGS_PROJECT)) {
      await mkdir(dirname(join(session.dir, path)), { recursive: true });
      await writeFile(join(session.dir, path), content);
    }
    const git = simpleGit(session.dir);
    await git.raw(['init', '-q', '-b', 'main']);
    await git.addConfig('user.name', 'Test').addConfig('user.email', 'test@example.invalid');
    await git.add('.');
    await git.commit('strings');
    session.server.setFallback(scriptedKataModel(importOnlyTester()).reply);

    const r = await tddAgent(['task', WHISPER_TASK, '--workspace', session.dir, ...modelArgs()], isolatedEnv());
    const summary: SessionSummary = SessionSummarySchema.parse(JSON.parse(r.stdout));
    const commits = await branchCommits(session.dir, summary.branch, 'main');
    const feats = commits.filter((c) => c.subject.startsWith('feat: '));
    assert.ok(feats.length > 0, r.stderr);
    for (const feat of feats)
      assert.ok(
        (await testsAddedBy(session.dir, feat.sha)).length > 0,
        `${feat.subject}: a feat: commit without a test of its own`,
      );
    assert.deepEqual(
      feats.map((c) => c.subject),
      ['feat: whisper lower-cases the text'],
      'named after the test it adds',
    );
    // The Tester heard what was wrong, and why nothing ran.
    const retry = testerContext(session.server, 1, 2);
    assert.match(retry, /You added no new test/);
    assert.match(retry, /Your test file no longer loads: 1 test did not run \(shout upper-cases and adds a bang\)/);
    assert.match(r.stderr, /red: Tester \(attempt 2\) — You added no new test/);
    assert.equal(summary.status, 'completed', r.stderr);
    assert.equal(r.code, 0);
  });

  it('KATA_COMPLETE after one FizzBuzz cycle is not taken: asked once more, a Tester that insists ends the session incomplete, naming what has no test (exit 1)', async () => {
    session.server.setFallback(scriptedKataModel(stopsEarly({ insists: true })).reply);
    const r = await tddAgent(['kata', 'fizzbuzz', '--workspace', session.dir, ...modelArgs()], isolatedEnv());
    const summary = SessionSummarySchema.parse(JSON.parse(r.stdout));
    assert.equal(summary.status, 'incomplete', r.stderr);
    assert.equal(r.code, 1);
    assert.deepEqual(summary.untested_examples, ['2 → "2"', '3 → "Fizz"', '5 → "Buzz"', '15 → "FizzBuzz"']);
    assert.equal(summary.error?.error_code, 'INCOMPLETE');
    assert.match(summary.error!.message, /4 examples the kata states have no test .*15 → "FizzBuzz"/);
    assert.equal(summary.totals.commits, 1, 'the one green cycle is on the branch');
    // Asked once: the question named every example without a test.
    const asked = testerContext(session.server, 2, 2);
    assert.match(asked, /KATA_COMPLETE was not taken: 4 examples the kata states have no test yet/);
    assert.match(asked, /- 15 → "FizzBuzz"/);
    assert.match(r.stderr, /Session incomplete: /);
    assert.match(r.stderr, /examples the kata states have no test/);
  });

  it('asked once more, a Tester that follows the question tests the rest, an example the code already handles included, and only then is done', async () => {
    session.server.setFallback(scriptedKataModel(stopsEarly({ insists: false })).reply);
    const r = await tddAgent(
      ['kata', 'fizzbuzz', '--workspace', session.dir, ...modelArgs(), '--max-cycles', '8'],
      isolatedEnv(),
    );
    const summary = SessionSummarySchema.parse(JSON.parse(r.stdout));
    assert.equal(summary.status, 'completed', r.stderr);
    assert.equal(r.code, 0);
    assert.equal(summary.untested_examples, undefined);
    const subjects = (await branchCommits(session.dir, summary.branch)).map((c) => c.subject);
    assert.deepEqual(
      subjects.filter((s) => /^(feat|test):/.test(s)),
      [
        'feat: returns the number itself for 1',
        'feat: returns Fizz for multiples of three',
        'feat: returns Buzz for multiples of five',
        'feat: returns FizzBuzz for multiples of fifteen',
        // `2 → "2"` passed at once (the code handles it): committed as a test of a stated example, not a feature.
        'test: returns the number itself for 2',
      ],
    );
    assert.match(
      testerContext(session.server, 5, 2),
      /KATA_COMPLETE was not taken: 1 example the kata states has no test yet[^]*- 2 → "2"/,
    );
  });

  it('a test that was red in a rolled-back cycle and is gone at the next run is named, in the output and the summary, and the session is not completed', async () => {
    session.server.setFallback(scriptedKataModel(dropsAFailedTest()).reply);
    const r = await tddAgent(['kata', FIZZBUZZ_WITHOUT_EXAMPLES, '--workspace', session.dir, ...modelArgs()], isolatedEnv());
    const summary = SessionSummarySchema.parse(JSON.parse(r.stdout));
    const gone = 'test/fizzbuzz.test.js › returns Fizz for multiples of three (red in cycle 2)';
    assert.deepEqual(summary.gone_red_tests, [gone]);
    assert.equal(summary.status, 'incomplete', r.stderr);
    assert.equal(r.code, 1);
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'failed', 'green', 'kata_complete'],
    );
    assert.match(
      r.stderr,
      new RegExp(`red earlier in this session and gone now \\(1\\)[^\\n]*\\n    - ${gone.replace(/[()]/g, '\\$&')}`),
    );
    assert.match(summary.error!.message, /1 test that was red in this session is gone: test\/fizzbuzz\.test\.js › returns Fizz/);
    // The Tester's KATA_COMPLETE was not taken at once: it was asked about the test it left behind.
    assert.match(
      testerContext(session.server, 4, 2),
      /KATA_COMPLETE was not taken: 1 test that was red in this session is gone[^]*returns Fizz/,
    );
  });
});
