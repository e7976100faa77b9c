import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EvalReport } from '../../../src/core/eval';
import { EVAL_FIXTURE_SET, evalPlayer } from '../../support/evalPlayers';
import { cli, isolatedEnv, useCliSession } from './cliHarness';

const ROOT = resolve(__dirname, '..', '..', '..');
const SET = join(ROOT, EVAL_FIXTURE_SET);

/**
 * A report with what depends on the clock taken out: the start and finish, each run's wall and session time (and the
 * medians and totals of them), and each run's final commit, whose hash includes the commit's time.
 */
export function withoutTimes(report: EvalReport): unknown {
  return {
    ...report,
    started_at: undefined,
    finished_at: undefined,
    summary: {
      ...report.summary,
      medians: { ...report.summary.medians, wall_ms: undefined },
      totals: { ...report.summary.totals, wall_ms: undefined },
    },
    runs: report.runs.map((r) => ({
      ...r,
      wall_ms: undefined,
      session_ms: undefined,
      final_commit: r.final_commit ? 'a commit' : null,
    })),
  };
}

/** The built CLI in its own process; resolves to its exit code and output. */
function runBuilt(
  args: string[],
  options: { onStderr?: (text: string, child: ReturnType<typeof spawn>) => void } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], {
    env: isolatedEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => {
    stderr += String(d);
    options.onStderr?.(stderr, child);
  });
  return new Promise((res) => child.on('exit', (code, signal) => res({ code, signal, stdout, stderr })));
}

// Issue 39: one eval run three ways against the loopback model — whole, as three shards in three processes then
// merged, and stopped (SIGTERM, as a cancelled CI job is) then resumed — gives the same report.json but for times.
describe('tdd-agent eval: whole, sharded and merged, interrupted and resumed — one report', function () {
  this.timeout(600_000);
  let whole: EvalReport;
  const reportOf = async (folder: string): Promise<EvalReport> =>
    JSON.parse(await readFile(join(folder, 'report.json'), 'utf8')) as EvalReport;

  const session = useCliSession('cli-eval-shards-', { bundle: true, once: true });
  before(() => session.server.setFallback(evalPlayer('disciplined')));

  const evalArgs = (out: string, ...more: string[]): string[] => [
    'eval',
    '--set',
    SET,
    '--runs',
    '2',
    '--concurrency',
    '1',
    '--out',
    out,
    '--base-url',
    session.server.baseURL,
    '--model',
    'test-model',
    ...more,
  ];

  it('whole: the reference run', async () => {
    const result = await runBuilt(evalArgs(join(session.dir, 'whole')));
    assert.equal(result.code, 0, result.stderr);
    whole = await reportOf(join(session.dir, 'whole'));
    assert.deepEqual(
      whole.runs.map((r) => [r.kata, r.run, r.passed]),
      [
        ['leap', 1, true],
        ['leap', 2, true],
        ['raindrops', 1, true],
        ['raindrops', 2, true],
      ],
    );
    assert.equal(whole.shard, undefined);
    // The progress figure: runs done / total, passing so far, the time left while runs are left.
    assert.match(result.stderr, /^\[1\/4\] PASS leap run 1: .*\(1 passing so far, ~\d+ (s|min) left\)$/m);
    assert.match(result.stderr, /^\[4\/4\] PASS raindrops run 2: .*\(4 passing so far\)$/m);
  });

  it('three shards in three processes, merged: the same report.json as the whole run, the recordings beside it', async () => {
    const shards = await Promise.all(
      [1, 2, 3].map((i) => runBuilt(evalArgs(join(session.dir, `shard-${i}`), '--shard', `${i}/3`))),
    );
    for (const s of shards) assert.equal(s.code, 0, s.stderr);
    const parts = await Promise.all([1, 2, 3].map((i) => reportOf(join(session.dir, `shard-${i}`))));
    assert.deepEqual(
      parts.map((p) => p.shard?.runs.length),
      [1, 1, 2],
      'four runs over three shards: a raindrops run (10 acceptance cases) costs more than a leap run (9), shard 3 takes both leap runs',
    );
    assert.deepEqual(parts.flatMap((p) => p.runs.map((r) => `${r.kata} ${r.run}`)).sort(), [
      'leap 1',
      'leap 2',
      'raindrops 1',
      'raindrops 2',
    ]);
    const out = join(session.dir, 'merged');
    const merged = await cli(
      ['eval', 'merge', join(session.dir, 'shard-2'), join(session.dir, 'shard-1'), join(session.dir, 'shard-3'), '--out', out],
      isolatedEnv(),
    );
    assert.equal(merged.code, 0, merged.stderr);
    const report = await reportOf(out);
    assert.deepEqual(withoutTimes(report), withoutTimes(whole));
    for (const run of report.runs) assert.ok(existsSync(join(out, run.recording)), run.recording);
    assert.ok(existsSync(join(out, 'katas', 'leap.md')));
    const markdown = await readFile(join(out, 'report.md'), 'utf8');
    assert.match(markdown, /\| pass@2 \| 100 % \|/);
  });

  it('stopped by SIGTERM after a run, then --resume: the runs done are kept, the rest run, the same report.json', async () => {
    const out = join(session.dir, 'resumed');
    // One SIGTERM, as a cancelled CI job sends: a second one (the CLI's "quit now") would be sent by every later chunk.
    let sent = false;
    const first = await runBuilt(evalArgs(out), {
      onStderr: (text, child) => {
        if (sent || !/^\[1\/4\]/m.test(text)) return;
        sent = true;
        child.kill('SIGTERM');
      },
    });
    assert.notEqual(first.code, 0, first.stderr);
    const partial = await reportOf(out);
    assert.ok(partial.runs.length >= 1 && partial.runs.length < 4, JSON.stringify(partial.runs.map((r) => r.kata)));
    const kept = partial.runs.map((r) => [r.kata, r.run, r.recording]);
    const resumed = await runBuilt(evalArgs(out, '--resume', out));
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, new RegExp(`Resuming: ${partial.runs.length} of 4 run\\(s\\) already done are kept`));
    assert.doesNotMatch(resumed.stderr, /PASS leap run 1:/, 'leap run 1 did not run again');
    const report = await reportOf(out);
    assert.deepEqual(withoutTimes(report), withoutTimes(whole));
    assert.equal(report.started_at, partial.started_at, 'the eval started when it first did');
    for (const [kata, run] of kept) assert.ok(report.runs.some((r) => r.kata === kata && r.run === run));
  });

  it('merge refuses, in one line naming the file: another eval, overlapping shards, a missing shard', async () => {
    const out = join(session.dir, 'refused');
    const merge = (...folders: string[]) => cli(['eval', 'merge', ...folders, '--out', out], isolatedEnv());
    const other = join(session.dir, 'other-eval');
    const changed = { ...(await reportOf(join(session.dir, 'shard-3'))) };
    changed.runs_per_kata = 3;
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'report.json'), JSON.stringify(changed));

    const cases: Array<[string[], RegExp]> = [
      [
        [join(session.dir, 'shard-1'), join(session.dir, 'shard-2'), other],
        new RegExp(
          `^tdd-agent: CONFIG: ${join(other, 'report.json')} is not a part of the same eval as ${join(session.dir, 'shard-1', 'report.json')}: runs per kata 3, not 2\\.`,
        ),
      ],
      [
        [join(session.dir, 'shard-1'), join(session.dir, 'shard-2'), join(session.dir, 'shard-2')],
        new RegExp(
          `${join(session.dir, 'shard-2', 'report.json')} and ${join(session.dir, 'shard-2', 'report.json')} are both shard 2/3`,
        ),
      ],
      [
        [join(session.dir, 'shard-1'), join(session.dir, 'shard-3')],
        /Shard 2\/3 missing \(.*\): none of .*shard-1\/report\.json, .*shard-3\/report\.json is it\./,
      ],
      [
        [join(session.dir, 'whole'), join(session.dir, 'shard-1')],
        /shard-1\/report\.json \(shard 1\/3\) and .*whole\/report\.json \(a whole eval\) both hold \w+ run \d: overlapping parts\./,
      ],
    ];
    for (const [folders, expected] of cases) {
      const result = await merge(...folders);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, expected);
    }
    assert.equal(existsSync(join(out, 'report.json')), false);
  });
});
