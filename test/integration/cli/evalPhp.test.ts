import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalReport } from '../../../src/core/eval';
import type { EvalPlayer } from '../../support/evalPlayers';
import { requirePhpunit } from '../../support/phpToolchain';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { wholeSetPlayer } from '../../support/wholeSetPlayers';
import { requireBubblewrap } from '../osSandbox/fixture';
import { cli, isolatedEnv } from './cliHarness';

// The bundled set in PHP, through the built CLI and the real phpunit in the sandbox: the generic players of
// test/support/wholeSetPlayers.ts on three katas — a predicate (leap), a method that throws InvalidArgumentException
// (hamming), an array keyed by word (word-count). The held-back test runs from acceptance/ on the final commit,
// requiring the session's src/<Class>.php.
const KATAS = ['leap', 'hamming', 'word-count'];
const CASES: Record<string, number> = { leap: 9, hamming: 9, 'word-count': 14 };

describe('tdd-agent eval --language php: the bundled set with the real phpunit', function () {
  this.timeout(600_000);
  let server: OpenAITestServer;
  let dir: string;

  before(async function () {
    requirePhpunit(this);
    await requireBubblewrap(this);
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'cli-eval-php-'));
  });
  after(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function evaluate(player: EvalPlayer): Promise<EvalReport> {
    server.setFallback(wholeSetPlayer(player, 'php'));
    const args = [
      'eval',
      '--language',
      'php',
      '--katas',
      KATAS.join(','),
      '--out',
      join(dir, player),
      '--concurrency',
      '2',
      '--json',
    ];
    const result = await cli([...args, '--base-url', server.baseURL, '--model', 'test-model'], isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as EvalReport;
    assert.equal(report.language, 'php');
    assert.deepEqual(report.runs.map((r) => r.kata).sort(), [...KATAS].sort());
    return report;
  }

  const line = (run: EvalReport['runs'][number]): string =>
    `${run.kata}: ${JSON.stringify(run.error)} ${run.status} ${run.cycles} ${JSON.stringify(run.discipline)} ` +
    `${run.acceptance.passed}/${run.acceptance.total} ${run.acceptance.reason ?? ''}`;

  it('disciplined: every session green, every held-back case passed, counted by test identity', async () => {
    const report = await evaluate('disciplined');
    for (const run of report.runs) {
      assert.equal(run.finished_green, true, line(run));
      // Each canonical case once, a data set each; the session's own tests/ are not counted.
      assert.deepEqual([run.acceptance.passed, run.acceptance.total], [CASES[run.kata], CASES[run.kata]], line(run));
      assert.equal(run.acceptance.status, 'passed');
      assert.equal(run.acceptance.failing, undefined);
      assert.equal(run.discipline.violations, 0);
      assert.equal(run.discipline.red_commits, 0, 'each commit passes phpunit again on a checkout of it');
      assert.ok(run.discipline.commits_checked >= 1);
      assert.equal(run.passed, true);
    }
    assert.equal(report.summary.pass_at_1, 1);
  });

  it('hard-coder: every session green, yet the held-back cases fail, each named', async () => {
    const report = await evaluate('hardcoder');
    for (const run of report.runs) {
      assert.equal(run.finished_green, true, line(run));
      assert.equal(run.discipline.violations, 0);
      assert.equal(run.acceptance.status, 'failed', line(run));
      assert.equal(run.acceptance.total, CASES[run.kata]);
      assert.ok(run.acceptance.passed < run.acceptance.total, line(run));
      const failing = run.acceptance.failing ?? [];
      assert.equal(failing.length, run.acceptance.total - run.acceptance.passed, line(run));
      // A failing case by its data set, the canonical case's words ending with its UUID.
      for (const name of failing) assert.match(name, /AcceptanceTest > test\w+ with data set ".* \[[0-9a-f-]{36}\]"$/);
      assert.equal(run.passed, false);
    }
    assert.equal(report.summary.green_rate, 1);
    assert.equal(report.summary.pass_at_1, 0);
  });

  it('--list --json shows php for the katas that have PHP acceptance tests; bowling, which has none, is refused', async () => {
    const list = await cli(['eval', '--list', '--json'], isolatedEnv());
    assert.equal(list.code, 0, list.stderr);
    const exercises = (JSON.parse(list.stdout) as { exercises: Array<{ slug: string; languages: string[] }> }).exercises;
    const inPhp = exercises.filter((e) => e.languages.includes('php')).map((e) => e.slug);
    assert.ok(inPhp.length >= 12, inPhp.join(', '));
    for (const slug of KATAS) assert.ok(inPhp.includes(slug));
    assert.ok(!inPhp.includes('bowling'));

    const bowling = await cli(
      ['eval', '--language', 'php', '--katas', 'bowling', '--base-url', server.baseURL, '--model', 'test-model'],
      isolatedEnv(),
    );
    assert.equal(bowling.code, 2, bowling.stderr);
    assert.match(
      bowling.stderr,
      /None of the selected exercises has acceptance tests in php\. The eval set has them in javascript, typescript, python, go, php and ruby\./,
    );
  });
});
