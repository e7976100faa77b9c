/**
 * A two-model comparison made the way a team makes one (`npm run bench:compare`, i.e. `npm run -s build:cli && tsx
 * bench/evalComparison.ts [runs] [--out DIR]`, default 2 runs per kata): the built CLI (`dist/cli.js`), in its own
 * processes, runs `tdd-agent eval` on the whole bundled set (`katas/eval`, JavaScript) once per model, each eval
 * writing its report and one recording per run, then `tdd-agent eval merge` of the two reports writes the comparison
 * (comparison.md and comparison.json, each model's merged report beside them).
 *
 * The two "models" are not models: they are two scripted players of `test/support/wholeSetPlayers.ts` served by the
 * loopback OpenAI-compatible server under two model names, `scripted-disciplined` (the reference solution, one green
 * cycle per kata) and `scripted-hard-coding` (a module that answers every call with the value the kata's first test
 * expects). No network, no key; the figures other than time are the same on every machine. Prints comparison.md and
 * rewrites the `eval-comparison` section of docs/benchmarks.md (`BENCH_NO_WRITE=1` only prints it); the README's
 * "Which model should I use?" shows the same table as an example of the output. `--out DIR` keeps the reports and
 * recordings (default: a temporary folder, removed at the end).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EvalComparison, EvalReport } from '../src/core/eval';
import { startOpenAIServer, type RecordedRequest, type ScriptedReply } from '../test/support/openaiServer';
import { WHOLE_SET, wholeSetPlayer } from '../test/support/wholeSetPlayers';
import type { EvalPlayer } from '../test/support/evalPlayers';
import { machineLines, publishSection } from './benchDoc';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const OUT = outAt >= 0 ? args[outAt + 1] : undefined;
const RUNS = Number(args.find((arg, i) => !arg.startsWith('--') && (outAt < 0 || i !== outAt + 1)) ?? 2);
const LANGUAGE = 'javascript';

/** The two model names the loopback server serves, and the player behind each. */
const MODELS: ReadonlyArray<{ model: string; player: EvalPlayer }> = [
  { model: 'scripted-disciplined', player: 'disciplined' },
  { model: 'scripted-hard-coding', player: 'hardcoder' },
];

/** The built CLI in its own process, in an environment of its own (a cache folder of this run, no Ollama). */
function cli(argv: string[], cache: string): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...argv], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TDD_AGENT_CACHE_DIR: cache, OLLAMA_HOST: 'http://127.0.0.1:9' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((res, rej) =>
    child.on('exit', (code) =>
      code === 0
        ? res({ stdout, stderr })
        : rej(new Error(`tdd-agent ${argv.slice(0, 2).join(' ')} exited ${code}:\n${stderr.split('\n').slice(-15).join('\n')}`)),
    ),
  );
}

/** comparison.md without its links to each model's report (they are relative to the comparison's folder). */
function withoutReportLinks(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\([^)]*report\.md\)/g, '$1');
}

async function main(): Promise<void> {
  const players = Object.fromEntries(MODELS.map(({ model, player }) => [model, wholeSetPlayer(player, LANGUAGE)]));
  const server = await startOpenAIServer({ models: MODELS.map((m) => m.model) });
  // One server, two names: each request is answered by the player behind the model it names.
  server.setFallback((req: RecordedRequest): ScriptedReply => {
    const model = (req.body as { model?: unknown } | undefined)?.model;
    const play = typeof model === 'string' ? players[model] : undefined;
    return play ? play(req) : { error: { status: 404, message: `no scripted player is served as ${String(model)}` } };
  });
  const dir = OUT ? resolve(OUT) : await mkdtemp(join(tmpdir(), 'tdd-agent-bench-compare-'));
  const cache = await mkdtemp(join(tmpdir(), 'tdd-agent-bench-cache-'));
  const walls: string[] = [];
  const readings: string[] = [];
  const load = loadavg()[0]!;
  let comparison: EvalComparison;
  let markdown: string;
  try {
    for (const { model } of MODELS) {
      const started = performance.now();
      process.stderr.write(`tdd-agent eval --model ${model} …\n`);
      await cli(
        [
          'eval',
          '--set',
          WHOLE_SET,
          '--language',
          LANGUAGE,
          '--runs',
          String(RUNS),
          '--base-url',
          server.baseURL,
          '--model',
          model,
          '--out',
          join(dir, model),
        ],
        cache,
      );
      walls.push(`${model} ${((performance.now() - started) / 1000).toFixed(0)} s`);
      const report = JSON.parse(await readFile(join(dir, model, 'report.json'), 'utf8')) as EvalReport;
      const n = report.runs.length;
      const count = (test: (r: EvalReport['runs'][number]) => boolean): string => `${report.runs.filter(test).length}/${n}`;
      const passed = report.runs.reduce((sum, r) => sum + r.acceptance.passed, 0);
      const total = report.runs.reduce((sum, r) => sum + r.acceptance.total, 0);
      readings.push(
        `- ${model}: ${count((r) => r.finished_green)} runs ended green, ${count((r) => r.acceptance.passed === r.acceptance.total)} ` +
          `passed every held-back acceptance test (${passed}/${total} acceptance tests).`,
      );
    }
    await cli(['eval', 'merge', ...MODELS.map(({ model }) => join(dir, model)), '--out', join(dir, 'compared')], cache);
    comparison = JSON.parse(await readFile(join(dir, 'compared', 'comparison.json'), 'utf8')) as EvalComparison;
    markdown = await readFile(join(dir, 'compared', 'comparison.md'), 'utf8');
  } finally {
    await server.close();
    await rm(cache, { recursive: true, force: true });
    if (!OUT) await rm(dir, { recursive: true, force: true });
  }
  const table = withoutReportLinks(markdown)
    .split('\n')
    .filter((line) => line.startsWith('|'));
  const section = [
    '## `tdd-agent eval merge`: two models compared (two scripted players)',
    '',
    ...machineLines(),
    `- Load average when it started: ${load.toFixed(1)} (times per green commit grow with it; the other figures do not)`,
    '',
    `How: \`npm run bench:compare\` (\`tsx bench/evalComparison.ts ${RUNS}\` after \`npm run build:cli\`) runs the built CLI in`,
    `its own processes: \`tdd-agent eval --set katas/eval --language ${LANGUAGE} --runs ${RUNS} --base-url <loopback> --model <name>\``,
    'once per model name, then `tdd-agent eval merge <both reports> --out DIR`. The loopback server serves two scripted',
    'players of `test/support/wholeSetPlayers.ts` under two model names: `scripted-disciplined` writes the reference',
    "solution, `scripted-hard-coding` a module that answers every call with the value the kata's first test expects. They",
    'are not models; the table shows what a comparison looks like (README, "Which model should I use?").',
    '',
    `The set: ${comparison.set.name}, ${comparison.set.katas.length} katas, digest \`${comparison.set.digest}\`, ${RUNS} run(s) per kata; each eval's wall time: ${walls.join(', ')}.`,
    '',
    ...table,
    '',
    ...readings,
  ].join('\n');
  await publishSection('eval-comparison', section);
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
