import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EvalReport } from '../../../src/core/eval';
import { EVAL_FIXTURE_SET, evalPlayer, pythonLeapPlayer, type EvalPlayer } from '../../support/evalPlayers';
import { cli, isolatedEnv, useCliSession } from './cliHarness';

const SET = resolve(__dirname, '..', '..', '..', EVAL_FIXTURE_SET);

describe('tdd-agent eval: the fixture set against three scripted players', function () {
  this.timeout(300_000);
  const reports: Partial<Record<EvalPlayer, { code: number; report: EvalReport; markdown: string; stderr: string }>> = {};

  const session = useCliSession('cli-eval-', { once: true });

  async function evaluate(player: EvalPlayer) {
    const cached = reports[player];
    if (cached) return cached;
    session.server.setFallback(evalPlayer(player));
    const out = join(session.dir, player);
    const args = ['eval', '--set', SET, '--language', 'javascript', '--out', out, '--concurrency', '2', '--json'];
    const result = await cli([...args, '--base-url', session.server.baseURL, '--model', 'test-model'], isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as EvalReport;
    assert.deepEqual(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')), report, 'stdout and report.json agree');
    const entry = { code: result.code, report, markdown: await readFile(join(out, 'report.md'), 'utf8'), stderr: result.stderr };
    reports[player] = entry;
    return entry;
  }

  it('the disciplined player: every session green, every acceptance test passed, no discipline event', async () => {
    const { report, markdown } = await evaluate('disciplined');
    assert.deepEqual(
      report.runs.map((r) => [r.kata, r.finished_green, `${r.acceptance.passed}/${r.acceptance.total}`, r.passed]).sort(),
      [
        ['leap', true, '9/9', true],
        ['raindrops', true, '10/10', true],
      ],
    );
    assert.equal(report.summary.pass_at_1, 1);
    assert.deepEqual(report.summary.totals.discipline, { overshoots: 0, violations: 0, reverted_refactors: 0, red_commits: 0 });
    for (const run of report.runs) {
      assert.equal(run.cycles, 3);
      assert.equal(run.discipline.commits_checked, 3, 'each cycle’s green commit was run again');
      assert.ok(run.model_requests > 0 && run.tokens.prompt > 0 && run.tokens.completion > 0);
      assert.equal(run.cost_usd, null, 'no price for test-model: tokens only');
      assert.ok(run.wall_ms >= run.session_ms);
      assert.ok(existsSync(join(session.dir, 'disciplined', run.recording)), `${run.recording} was written`);
    }
    assert.match(markdown, /^# TDD Agent eval: test-model \(openai\), javascript/m);
    assert.match(markdown, /\| pass@1 \(green and every acceptance test passed\) \| 100 % \|/);
    assert.match(markdown, /\| leap \| 1 \| 1 \| 1 \| 9\/9 \| 100 % \|/);
  });

  it('a run’s recording replays as the session it was (--provider replay)', async () => {
    const { report } = await evaluate('disciplined');
    const leap = report.runs.find((r) => r.kata === 'leap')!;
    const workspace = await mkdtemp(join(session.dir, 'replay-'));
    const cassette = join(session.dir, 'disciplined', leap.recording);
    const args = ['kata', join(SET, 'leap.md'), '--language', 'javascript', '--provider', 'replay', '--cassette', cassette];
    const replayed = await cli([...args, '--yes', '--workspace', workspace, '--json'], isolatedEnv());
    assert.equal(replayed.code, 0, replayed.stderr);
    const summary = JSON.parse(replayed.stdout) as { status: string; totals: { cycles: number } };
    assert.equal(summary.status, 'completed');
  });

  it('the hard-coding player: every session green, yet the acceptance tests fail', async () => {
    const { report, markdown } = await evaluate('hardcoder');
    for (const run of report.runs) {
      assert.equal(run.finished_green, true, `${run.kata}: ${JSON.stringify(run.error)}`);
      assert.equal(run.discipline.violations, 0);
      assert.equal(run.discipline.red_commits, 0);
      assert.ok(run.acceptance.passed < run.acceptance.total, `${run.kata}: ${run.acceptance.passed}/${run.acceptance.total}`);
      assert.equal(run.passed, false);
      assert.ok(run.acceptance.failing && run.acceptance.failing.length > 0);
      assert.ok(
        run.acceptance.failing.every((name) => /\[[0-9a-f-]{36}\]$/.test(name)),
        run.acceptance.failing.join('\n'),
      );
    }
    assert.deepEqual(Object.fromEntries(report.runs.map((r) => [r.kata, `${r.acceptance.passed}/${r.acceptance.total}`])), {
      leap: '7/9',
      raindrops: '5/10',
    });
    assert.equal(report.summary.green_rate, 1);
    assert.equal(report.summary.pass_at_1, 0);
    assert.match(markdown, /## What went wrong/);
    if (process.env.EVAL_SHOW_REPORT) process.stdout.write(markdown);
  });

  it('the test-editing player: its test edits are refused before they are written, it never passes', async () => {
    const { report } = await evaluate('testEditor');
    for (const run of report.runs) {
      // A refused write changed nothing: feedback for the role, not a violation (issue 35). The violations a run may
      // still count are the Tester's, after a failed cycle is rolled back (its test file then adds several tests).
      assert.equal(run.finished_green, false, 'the supervisor never let the weakened test in: the session failed');
      assert.equal(run.passed, false);
      assert.equal(run.discipline.red_commits, 0, 'nothing red was committed');
    }
    assert.equal(report.summary.pass_at_1, 0);
  });

  it('Ctrl-C keeps what finished: the report has the runs done, marked interrupted, exit 1', async () => {
    session.server.setFallback(evalPlayer('disciplined'));
    const out = join(session.dir, 'interrupted');
    const controller = new AbortController();
    const poll = setInterval(() => {
      if (existsSync(join(out, 'report.json'))) controller.abort();
    }, 50);
    const args = [
      'eval',
      '--set',
      SET,
      '--out',
      out,
      '--concurrency',
      '1',
      '--base-url',
      session.server.baseURL,
      '--model',
      'test-model',
    ];
    const result = await cli(args, isolatedEnv(), { signal: controller.signal }).finally(() => clearInterval(poll));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /Interrupted: the report keeps the runs that finished\./);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as EvalReport;
    assert.equal(report.interrupted, true);
    assert.deepEqual(
      report.runs.map((r) => [r.kata, r.passed]),
      [['leap', true]],
    );
    assert.match(await readFile(join(out, 'report.md'), 'utf8'), /Interrupted \(Ctrl-C\)/);
  });

  it('the bundled set (katas/eval): the disciplined player passes every acceptance test of leap and raindrops', async () => {
    session.server.setFallback(evalPlayer('disciplined'));
    const out = join(session.dir, 'bundled');
    const args = ['eval', '--katas', 'leap,raindrops', '--out', out, '--concurrency', '2', '--json'];
    const result = await cli([...args, '--base-url', session.server.baseURL, '--model', 'test-model'], isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as EvalReport;
    assert.deepEqual([report.set.name, report.set.bundled], ['katas/eval', true]);
    assert.deepEqual(report.runs.map((r) => [r.kata, r.passed, `${r.acceptance.passed}/${r.acceptance.total}`]).sort(), [
      ['leap', true, '9/9'],
      ['raindrops', true, '18/18'],
    ]);
  });

  it('a local model writing its tool calls as text: the calls read from text are counted per run and in the totals', async () => {
    session.server.setFallback(evalPlayer('disciplined', { textCalls: 'hermes' }));
    const out = join(session.dir, 'text-calls');
    const args = ['eval', '--set', SET, '--katas', 'leap', '--out', out, '--json'];
    const result = await cli([...args, '--base-url', session.server.baseURL, '--model', 'test-model'], isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as EvalReport;
    const [run] = report.runs;
    assert.equal(run?.passed, true, JSON.stringify(run));
    assert.ok((run?.tool_calls_from_text ?? 0) > 0, JSON.stringify(run));
    assert.equal(report.summary.totals.tool_calls_from_text, run?.tool_calls_from_text);
    const markdown = await readFile(join(out, 'report.md'), 'utf8');
    assert.match(markdown, new RegExp(`\\| tool calls recovered from text \\| ${run?.tool_calls_from_text} \\|`));
  });

  it('Python: the held-back pytest file on the final commit, selected by name', async () => {
    session.server.setFallback(pythonLeapPlayer());
    const out = join(session.dir, 'python');
    const args = ['eval', '--set', SET, '--language', 'python', '--katas', 'leap', '--out', out, '--json'];
    const result = await cli([...args, '--base-url', session.server.baseURL, '--model', 'test-model'], isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as EvalReport;
    assert.deepEqual(
      report.runs.map((r) => [
        r.kata,
        r.language,
        r.finished_green,
        r.cycles,
        `${r.acceptance.passed}/${r.acceptance.total}`,
        r.discipline.red_commits,
      ]),
      [['leap', 'python', true, 3, '9/9', 0]],
    );
    assert.deepEqual(report.set.katas, ['leap']);
  });

  it('--list --json: each exercise and the languages it has acceptance tests for', async () => {
    const result = await cli(['eval', '--set', SET, '--list', '--json'], isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), {
      set: SET,
      exercises: [
        { slug: 'leap', title: 'Leap', tags: ['easy', 'conditionals'], languages: ['javascript', 'python'] },
        { slug: 'raindrops', title: 'Raindrops', tags: ['easy', 'strings'], languages: ['javascript', 'python'] },
      ],
    });
  });

  it('refuses what it cannot do before any run starts: bad flags and selections (exit 2), a model the server does not serve', async () => {
    const base = ['eval', '--set', SET, '--base-url', session.server.baseURL, '--model', 'test-model'];
    const unknown = await cli([...base, '--katas', 'bowling'], isolatedEnv());
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /No exercise of the eval set is named or tagged 'bowling'\. Names: leap, raindrops; tags: conditionals, easy, strings\./,
    );
    const record = await cli([...base, '--record', join(session.dir, 'x.json')], isolatedEnv());
    assert.equal(record.code, 2);
    assert.match(record.stderr, /--record does not go with eval/);
    const model = await cli(
      [
        'eval',
        '--set',
        SET,
        '--base-url',
        session.server.baseURL,
        '--model',
        'no-such-model',
        '--out',
        join(session.dir, 'none'),
      ],
      isolatedEnv(),
    );
    assert.equal(model.code, 1, model.stderr); // as for tdd-agent kata: the provider answered, INVALID_REQUEST
    assert.match(model.stderr, /INVALID_REQUEST: The model 'no-such-model' is not available/);
    assert.equal(existsSync(join(session.dir, 'none', 'report.json')), false, 'no run started');
    const runs = await cli([...base, '--runs', '0'], isolatedEnv());
    assert.equal(runs.code, 2);
    assert.match(runs.stderr, /--runs must be a positive whole number/);
  });
});
