/**
 * `tdd-agent eval` on the fixture set with the three scripted players (`npm run bench:eval`, i.e.
 * `tsx bench/eval.ts [runs]`, default 2 runs per kata): the disciplined one, the one that hard-codes each expected
 * value and the one that edits the tests, each served by the loopback server and run through the CLI in process, as
 * `test/integration/cli/eval.test.ts` does. Prints the players' figures side by side and eval's own overhead per run
 * (its wall time beyond the session: the replay of every commit and the acceptance tests on a checkout), and rewrites
 * the `eval` section of docs/benchmarks.md (`BENCH_NO_WRITE=1` only prints it). A second table: the generic players of
 * `test/support/wholeSetPlayers.ts` on the whole bundled set (katas/eval, both languages, one run per kata), with
 * eval's overhead per kata.
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
import { startOpenAIServer, type OpenAITestServer, type RecordedRequest, type ScriptedReply } from '../test/support/openaiServer';
import { WHOLE_SET, wholeSetKatas, wholeSetPlayer } from '../test/support/wholeSetPlayers';
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

interface Table {
  rows: string[];
  readings: string[];
  overheads: number[];
  concurrency: number;
  sandbox: string;
}

/** Runs the three players on one set in one language and returns their rows, readings and eval's overheads. */
async function playAll(
  server: OpenAITestServer,
  dir: string,
  set: string,
  language: 'javascript' | 'python',
  runs: number,
  reply: (player: EvalPlayer) => (req: RecordedRequest) => ScriptedReply,
  labelSuffix = '',
): Promise<Table> {
  const table: Table = { rows: [], readings: [], overheads: [], concurrency: 0, sandbox: '' };
  for (const player of EVAL_PLAYERS) {
    server.setFallback(reply(player));
    const started = performance.now();
    const report = await withBenchCache(() =>
      evaluate([
        'eval',
        '--set',
        set,
        '--language',
        language,
        '--runs',
        String(runs),
        '--out',
        join(dir, `${player}-${language}-${runs}`),
        '--json',
        '--base-url',
        server.baseURL,
        '--model',
        MODEL,
      ]),
    );
    const wall = performance.now() - started;
    table.concurrency = report.concurrency;
    table.sandbox = report.machine.sandbox;
    const s = report.summary;
    const d = s.totals.discipline;
    for (const run of report.runs) table.overheads.push(run.wall_ms - run.session_ms);
    const n = report.runs.length;
    const count = (test: (r: EvalReport['runs'][number]) => boolean): string => `${report.runs.filter(test).length}/${n}`;
    const accepted = report.runs.reduce((sum, r) => sum + r.acceptance.passed, 0);
    const cases = report.runs.reduce((sum, r) => sum + r.acceptance.total, 0);
    table.readings.push(
      `- ${LABEL[player]}${labelSuffix}: ${count((r) => r.finished_green)} runs green, ${count((r) => r.acceptance.passed === r.acceptance.total)} ` +
        `passed every acceptance test (${accepted}/${cases} acceptance tests), ${count((r) => r.discipline.violations > 0)} with role violations, ` +
        `${count((r) => r.discipline.red_commits > 0)} with a red commit.`,
    );
    table.rows.push(
      `| ${LABEL[player]}${labelSuffix} | ${pct(s.pass_at_1)} | ${pct(s.pass_at_k)} | ${pct(s.green_rate)} | ${pct(s.acceptance_rate)} | ` +
        `${d.overshoots} / ${d.violations} / ${d.reverted_refactors} / ${d.red_commits} | ${s.medians.model_requests} | ` +
        `${s.medians.tokens} | $${(s.totals.cost_usd ?? 0).toFixed(4)} | ${secs(s.medians.wall_ms)} | ${secs(wall)} |`,
    );
  }
  return table;
}

const overheadLine = (overheads: number[]): string => {
  const sorted = [...overheads].sort((a, b) => a - b);
  return `over ${sorted.length} runs: median ${secs(median(sorted) ?? 0)}, min ${secs(sorted[0] ?? 0)}, max ${secs(sorted.at(-1) ?? 0)}`;
};

const HEADER = (k: number): string[] => [
  `| player | pass@1 | ${k > 1 ? `pass@${k}` : 'pass@k (k = 1: —)'} | green | acceptance | overshoots / violations / reverted refactors / red commits | median requests | median tokens | total cost | median wall per run | whole eval |`,
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

async function main(): Promise<void> {
  setLogLevel('error');
  const fixtureSet = resolve(__dirname, '..', EVAL_FIXTURE_SET);
  const wholeSet = resolve(__dirname, '..', WHOLE_SET);
  const server = await startOpenAIServer({ models: [MODEL] });
  const dir = await mkdtemp(join(tmpdir(), 'tdd-agent-bench-eval-'));
  let fixture: Table;
  const whole: Record<'javascript' | 'python', Table> = {} as Record<'javascript' | 'python', Table>;
  try {
    fixture = await playAll(server, dir, fixtureSet, 'javascript', RUNS, (player) => evalPlayer(player));
    for (const language of ['javascript', 'python'] as const)
      whole[language] = await playAll(
        server,
        dir,
        wholeSet,
        language,
        1,
        (player) => wholeSetPlayer(player, language),
        `, ${language}`,
      );
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  const katas = wholeSetKatas().length;
  const wholeOverheads = [...whole.javascript.overheads, ...whole.python.overheads];
  const section = [
    '## `tdd-agent eval`: three scripted players on the fixture set and on the whole bundled set',
    '',
    ...machineLines(),
    `- Sandbox: ${fixture.sandbox}; concurrency ${fixture.concurrency} (the default here)`,
    '',
    `How: \`npm run bench:eval\` (\`tsx bench/eval.ts ${RUNS}\`) runs \`tdd-agent eval\` in process against the loopback server, once`,
    "per scripted player and set. The cost is the price table's " + MODEL + " applied to the scripted model's token counts.",
    '',
    `### The fixture set (\`--set test/fixtures/eval-set --language javascript --runs ${RUNS}\`)`,
    '',
    'The players of `test/support/evalPlayers.ts`: Leap and Raindrops, 3 cycles each, ' + `${RUNS} run(s) per kata.`,
    '',
    ...HEADER(RUNS),
    ...fixture.rows,
    '',
    `Eval's own overhead per run (its wall time beyond the session: a checkout of the final commit, the session's tests run`,
    `again on each of its commits, the acceptance tests), ${overheadLine(fixture.overheads)}.`,
    '',
    ...fixture.readings,
    '',
    `### The whole bundled set (\`--set katas/eval --runs 1\`, ${katas} katas, JavaScript and Python)`,
    '',
    'The generic players of `test/support/wholeSetPlayers.ts`, one cycle per kata: the Tester writes the first case of the',
    "kata's acceptance file; the disciplined Implementer writes the reference solution (test/fixtures/eval-solutions); the",
    "hard-coder's module answers every call with its first answer (the first case's expected value, whatever the input); the",
    'test-editor writes a stub and rewrites the test to expect what the stub gives, twice.',
    '',
    ...HEADER(1),
    ...whole.javascript.rows,
    ...whole.python.rows,
    '',
    `Eval's own overhead per kata on the whole set, ${overheadLine(wholeOverheads)} (JavaScript ${overheadLine(whole.javascript.overheads)};`,
    `Python ${overheadLine(whole.python.overheads)}).`,
    '',
    ...whole.javascript.readings,
    ...whole.python.readings,
  ].join('\n');
  await publishSection('eval', section);
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
