/**
 * `tdd-agent eval` on the fixture set with the three scripted players (`npm run bench:eval`, i.e.
 * `tsx bench/eval.ts [runs]`, default 2 runs per kata): the disciplined one, the one that hard-codes each expected
 * value and the one that edits the tests, each served by the loopback server and run through the CLI in process, as
 * `test/integration/cli/eval.test.ts` does. Prints the players' figures side by side and eval's own overhead per run
 * (its wall time beyond the session: the replay of every commit and the acceptance tests on a checkout), and rewrites
 * the `eval` section of docs/benchmarks.md (`BENCH_NO_WRITE=1` only prints it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../src/cli/runCli';
import type { EvalReport } from '../src/core/eval';
import { median } from '../src/core/eval';
import { setLogLevel } from '../src/core/logging/logger';
import { EVAL_FIXTURE_SET, EVAL_PLAYERS, evalPlayer, type EvalPlayer } from '../test/support/evalPlayers';
import { startOpenAIServer } from '../test/support/openaiServer';
import { machineLines, publishSection, withBenchCache } from './benchDoc';

const RUNS = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 2);
/** A model the price table knows, so the cost column is filled (the tokens are the scripted model's). */
const MODEL = 'gpt-4o-mini';

/** Runs `tdd-agent eval` in process and returns its report. */
async function evaluate(args: string[]): Promise<EvalReport> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  stdin.end();
  const code = await runCli(args, {
    stdout,
    stderr,
    stdin,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    signal: new AbortController().signal,
  });
  if (code !== 0) throw new Error(`tdd-agent eval exited ${code}: ${err}`);
  return JSON.parse(out) as EvalReport;
}

const pct = (x: number | undefined): string => (x === undefined ? '—' : `${Math.round(x * 100)} %`);
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const LABEL: Record<EvalPlayer, string> = {
  disciplined: 'disciplined (small steps, general code)',
  hardcoder: 'hard-codes each expected value',
  testEditor: 'edits the tests',
};

async function main(): Promise<void> {
  setLogLevel('error');
  const set = resolve(__dirname, '..', EVAL_FIXTURE_SET);
  const server = await startOpenAIServer({ models: [MODEL] });
  const dir = await mkdtemp(join(tmpdir(), 'tdd-agent-bench-eval-'));
  const rows: string[] = [];
  const readings: string[] = [];
  const overheads: number[] = [];
  let concurrency = 0;
  let sandbox = '';
  try {
    for (const player of EVAL_PLAYERS) {
      server.setFallback(evalPlayer(player));
      const started = performance.now();
      const report = await withBenchCache(() =>
        evaluate([
          'eval',
          '--set',
          set,
          '--language',
          'javascript',
          '--runs',
          String(RUNS),
          '--out',
          join(dir, player),
          '--json',
          '--base-url',
          server.baseURL,
          '--model',
          MODEL,
        ]),
      );
      const wall = performance.now() - started;
      concurrency = report.concurrency;
      sandbox = report.machine.sandbox;
      const s = report.summary;
      const d = s.totals.discipline;
      for (const run of report.runs) overheads.push(run.wall_ms - run.session_ms);
      const n = report.runs.length;
      const count = (test: (r: EvalReport['runs'][number]) => boolean): string => `${report.runs.filter(test).length}/${n}`;
      readings.push(
        `- ${LABEL[player]}: ${count((r) => r.finished_green)} runs green, ${count((r) => r.acceptance.passed === r.acceptance.total)} ` +
          `passed every acceptance test, ${count((r) => r.discipline.violations > 0)} with role violations, ` +
          `${count((r) => r.discipline.red_commits > 0)} with a red commit.`,
      );
      rows.push(
        `| ${LABEL[player]} | ${pct(s.pass_at_1)} | ${pct(s.pass_at_k)} | ${pct(s.green_rate)} | ${pct(s.acceptance_rate)} | ` +
          `${d.overshoots} / ${d.violations} / ${d.reverted_refactors} / ${d.red_commits} | ${s.medians.model_requests} | ` +
          `${s.medians.tokens} | $${(s.totals.cost_usd ?? 0).toFixed(4)} | ${secs(s.medians.wall_ms)} | ${secs(wall)} |`,
      );
    }
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  const sorted = [...overheads].sort((a, b) => a - b);
  const section = [
    '## `tdd-agent eval`: three scripted players on the fixture set',
    '',
    ...machineLines(),
    `- Sandbox: ${sandbox}; concurrency ${concurrency} (the default here)`,
    '',
    `How: \`npm run bench:eval\` (\`tsx bench/eval.ts ${RUNS}\`) runs \`tdd-agent eval --set test/fixtures/eval-set --language javascript --runs ${RUNS}\` in process against`,
    'the loopback server three times, once per scripted player (`test/support/evalPlayers.ts`): Leap and Raindrops, 3 cycles',
    `each, ${RUNS} run(s) per kata. The cost is the price table's ${MODEL} applied to the scripted model's token counts.`,
    '',
    `| player | pass@1 | pass@${RUNS} | green | acceptance | overshoots / violations / reverted refactors / red commits | median requests | median tokens | total cost | median wall per run | whole eval |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Eval's own overhead per run (its wall time beyond the session: a checkout of the final commit, the session's tests run`,
    `again on each of its commits, the acceptance tests), over ${sorted.length} runs: median ${secs(median(sorted) ?? 0)},`,
    `min ${secs(sorted[0] ?? 0)}, max ${secs(sorted.at(-1) ?? 0)}.`,
    '',
    ...readings,
  ].join('\n');
  await publishSection('eval', section);
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
