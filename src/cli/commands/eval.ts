import { join, resolve } from 'node:path';
import { AgentError, escapeTerminalText } from '../../core';
import {
  acceptanceFor,
  bundledEvalSetDir,
  defaultConcurrency,
  describeEvalSet,
  evalFolderStamp,
  type EvalProgress,
  type EvalReport,
  type EvalRunResult,
  isLanguage,
  languagesInWords,
  type Language,
  loadEvalSet,
  matchExercises,
  parseShard,
  progressFigure,
  readEvalReport,
  replayCommand,
  runEval,
  selectExercises,
} from '../../core/tddApi';
import { modelPrice } from '../../vscode/config/modelPrices';
import { intFlag, parseCommandArgs, PROVIDER_OPTIONS } from '../args';
import { EXIT, UsageError, type CliIo } from '../cliIo';
import { PRICE_FILE_SHAPE, readPriceFile } from '../priceFile';
import { modelFromFlags } from '../providerFromFlags';
import { SANDBOX_USAGE, sandboxFlag } from '../sandboxFlag';
import { evalMergeCommand } from './evalMerge';

/** `tdd-agent eval --help`. */
export const EVAL_USAGE = `Usage: tdd-agent eval [options]
       tdd-agent eval merge <report folders…> --out DIR   (see tdd-agent eval merge --help)

Runs a set of katas against the configured model, each session in a throw-away repository with the usual
worktree and OS sandbox, then judges each run: finished green, cycles, the held-back acceptance tests (which the
agents never see) on the final commit, discipline events (overshoots, role violations, reverted refactors, red
commits found by running each commit's tests again), model requests, tokens, estimated cost and wall time.
Writes report.json (for machines), report.md (for people) and each run's recording to --out.

Options:
  --katas NAMES          exercises by name or tag, comma-separated or repeated (default: the whole set)
  --language LANG        javascript (default), typescript, python or go: a language the set has acceptance
                         tests in (--list shows them per kata)
  --runs K               sessions per kata (default 1); the report gives pass@1 and pass@K
  --concurrency N        sessions at once (default here: ${defaultConcurrency()}: half the CPUs, 1 to 4)
  --out DIR              where the report and recordings go (default: ./tdd-agent-eval-<time>)
  --shard I/N            run only part I of N of the runs (e.g. 2/3: one machine of three), balanced by each
                         kata's expected cost, the same split everywhere; merge the parts with tdd-agent eval merge
  --resume DIR           finish an eval that stopped (Ctrl-C, a cancelled CI job): the runs already in
                         DIR/report.json are kept, the others run, the report is written to DIR (same flags as the
                         first time; a DIR without report.json starts there)
  --set DIR              a kata set of your own (a folder with set.json; default: the bundled katas/eval)
  --list                 print the set, or the exercises --katas (and --language) select (with --json: each
                         exercise and the languages it has acceptance tests for)
  --max-cycles N         overrides each kata's max_cycles
  --test-timeout MS      per test run (default 60000)
${SANDBOX_USAGE}
  --agents-dir DIR       role configs to use instead of the bundled ones
  --prices FILE          model prices for the estimated cost, over the built-in table (OpenAI list prices of
                         common models): JSON ${PRICE_FILE_SHAPE}
                         (the shape of VS Code's tddAgent.modelPrices setting)
  --provider P           auto | openai | ollama (default auto)
  --base-url URL         any OpenAI-compatible server (default: OPENAI_BASE_URL, or detection)
  --model NAME           model id (default: the provider's)
  --timeout MS           limit of one model call (default 120000)
  --json                 print the whole report as JSON on stdout at the end
  -v, --verbose          a line per run start too

A run passes when its session finished green and every acceptance test passed. Ctrl-C stops the running
sessions; the report keeps the runs that finished (a cut-short run and its recording are dropped). --out holds the kata files too, so a run replays in that
folder, without a model (see report.md):
  ${replayCommand('<kata>', 'LANG', 'recordings/<kata>-LANG-<n>.json')}

A run that ends on a failure of the model provider rather than the model (connection refused or reset, a name
that does not resolve, the key refused, the server not answering or failing) is not scored: it is left out of
every figure and listed apart, and no new run starts after it.

Exit codes: 0 the eval ran (whatever the pass rate), 1 it was interrupted, a run was not scored (the provider
failed) or it could not run, 2 usage or configuration error.`;

/** The flags of `tdd-agent eval`. */
const EVAL_OPTIONS = {
  ...PROVIDER_OPTIONS,
  katas: { type: 'string', multiple: true },
  language: { type: 'string' },
  runs: { type: 'string' },
  concurrency: { type: 'string' },
  out: { type: 'string' },
  set: { type: 'string' },
  list: { type: 'boolean', default: false },
  'max-cycles': { type: 'string' },
  'test-timeout': { type: 'string' },
  sandbox: { type: 'string' },
  'agents-dir': { type: 'string' },
  prices: { type: 'string' },
  shard: { type: 'string' },
  resume: { type: 'string' },
} as const;

/** The folder of the set to run: `--set`, else the bundled one. */
function setDir(value: string | undefined): string {
  if (value !== undefined) return resolve(value);
  const bundled = bundledEvalSetDir();
  if (!bundled)
    throw new AgentError('CONFIG', 'This installation has no eval kata set (katas/eval/set.json). Give one with --set DIR.', {});
  return bundled;
}

/** One line per finished run: how it went. */
export function runLine(r: EvalRunResult): string {
  const d = r.discipline;
  const events = [
    d.overshoots ? `${d.overshoots} overshoot(s)` : '',
    d.violations ? `${d.violations} violation(s)` : '',
    d.reverted_refactors ? `${d.reverted_refactors} reverted refactor(s)` : '',
    d.red_commits ? `${d.red_commits} red commit(s)` : '',
  ].filter(Boolean);
  if (r.scored === false)
    return `NOT SCORED ${r.kata} run ${r.run} (${(r.wall_ms / 1000).toFixed(1)} s): the model provider failed — ${r.error ? `${r.error.error_code}: ${r.error.message}` : 'no answer'}`;
  return (
    `${r.passed ? 'PASS' : 'FAIL'} ${r.kata} run ${r.run}: ${r.finished_green ? 'green' : r.status}, ${r.cycles} cycle(s), ` +
    `acceptance ${r.acceptance.passed}/${r.acceptance.total}${events.length ? `, ${events.join(', ')}` : ''}, ` +
    `${r.model_requests} request(s), ${(r.wall_ms / 1000).toFixed(1)} s`
  );
}

function progressLine(event: EvalProgress, verbose: boolean): string | undefined {
  if (event.type === 'run_started')
    return verbose ? `[${event.index}/${event.total}] ${event.kata} run ${event.run} started` : undefined;
  if (event.type === 'resumed')
    return `Resuming: ${event.kept} of ${event.total} run(s) already done are kept; ${event.total - event.kept} to run.`;
  if (event.type === 'run_finished') return `[${event.done}/${event.total}] ${runLine(event.result)} (${progressFigure(event)})`;
  if (event.type === 'stopping')
    return `Stopping: the model provider failed on ${event.stopped.kata} run ${event.stopped.run} (${event.stopped.error_code}). That is not the model's doing: the run is not scored, and no new run starts; the runs under way finish.`;
  return undefined;
}

/** The few lines printed at the end: pass rates and where the report is. */
export function summaryLines(report: EvalReport, markdownPath: string): string {
  const s = report.summary;
  const pct = (x: number): string => `${Math.round(x * 1000) / 10} %`;
  const cost = s.totals.cost_usd === null ? 'no price known (tokens only)' : `~$${s.totals.cost_usd.toFixed(4)}`;
  const stopped = report.stopped
    ? `Stopped after a failure of the model provider: ${s.not_scored} run(s) not scored, ${report.stopped.not_started} not started. Fix the provider and run the eval again.\n`
    : s.not_scored > 0
      ? `${s.not_scored} run(s) not scored: the model provider failed.\n`
      : '';
  return [
    `\n${report.interrupted ? 'Interrupted: the report keeps the runs that finished.\n' : ''}${stopped}` +
      `pass@1 ${pct(s.pass_at_1)}${s.pass_at_k !== undefined ? `, pass@${s.k} ${pct(s.pass_at_k)}` : ''}, ` +
      `green ${pct(s.green_rate)}, acceptance ${pct(s.acceptance_rate)} over ${s.runs} run(s) of ${s.katas} kata(s)`,
    `${s.totals.model_requests} request(s), ${s.totals.tokens.prompt + s.totals.tokens.completion} tokens, ${cost}`,
    `Report: ${markdownPath} (and report.json beside it)`,
  ].join('\n');
}

/** `tdd-agent eval`: the set against the configured model, the report in --out. */
export async function evalCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'merge') return evalMergeCommand(argv.slice(1), io);
  const { values, positionals } = parseCommandArgs(argv, EVAL_OPTIONS);
  if (values.help) {
    io.stdout.write(`${EVAL_USAGE}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0)
    throw new UsageError(`tdd-agent eval takes no positional argument (got '${positionals[0]}'); choose katas with --katas.`);
  const set = await loadEvalSet(setDir(values.set));
  if (values.list) {
    // --katas (and --language, when given) narrow the list as they narrow a run.
    const language = values.language;
    if (language !== undefined && !isLanguage(language))
      throw new UsageError(`--language must be ${languagesInWords()}, got '${language}'.`);
    const listed = matchExercises(set, values.katas ?? []).filter((e) => !language || acceptanceFor(e, language) !== undefined);
    const list = describeEvalSet(set, listed);
    if (values.json) io.stdout.write(`${JSON.stringify({ set: set.dir, exercises: list })}\n`);
    else
      for (const e of list)
        io.stdout.write(`${e.slug.padEnd(24)} ${e.title.padEnd(28)} ${e.languages.join(', ').padEnd(32)} ${e.tags.join(', ')}\n`);
    return EXIT.ok;
  }
  const language: Language = (values.language ?? 'javascript') as Language;
  if (!isLanguage(language)) throw new UsageError(`--language must be ${languagesInWords()}, got '${values.language}'.`);
  const sandbox = sandboxFlag(values.sandbox);
  if (values.record !== undefined)
    throw new UsageError('--record does not go with eval: every run is recorded already, into <out>/recordings/.');
  if (values.provider === 'replay' || values.cassette !== undefined)
    throw new UsageError(
      'eval runs the configured model; to watch a recorded run, use tdd-agent kata <kata.md> --provider replay --cassette <recording>.',
    );
  const runs = intFlag(values.runs, 'runs') ?? 1;
  const concurrency = intFlag(values.concurrency, 'concurrency') ?? defaultConcurrency();
  const maxCycles = intFlag(values['max-cycles'], 'max-cycles');
  const testTimeoutMs = intFlag(values['test-timeout'], 'test-timeout');
  const exercises = selectExercises(set, values.katas ?? [], language);
  let shard;
  try {
    shard = values.shard !== undefined ? parseShard(values.shard) : undefined;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.resume !== undefined && values.out !== undefined && resolve(values.out) !== resolve(values.resume))
    throw new UsageError('--resume DIR writes the report to DIR: give --out the same folder, or leave it out.');
  const outDir = resolve(values.resume ?? values.out ?? `tdd-agent-eval-${evalFolderStamp()}`);
  const previous = values.resume !== undefined ? await readEvalReport(outDir, { missingOk: true }) : undefined;
  if (values.resume !== undefined && !previous)
    io.stderr.write(`Nothing to resume in ${outDir} (no report.json yet): the eval starts there.\n`);
  const prices = values.prices !== undefined ? await readPriceFile(values.prices) : {};

  const model = await modelFromFlags(values, io.env, io.signal);
  const price = modelPrice(model.model, prices) ?? null;
  io.stderr.write(
    `Eval: ${exercises.length} kata(s) × ${runs} run(s) in ${language}${shard ? ` (shard ${shard.index}/${shard.count} of the runs)` : ''}, ` +
      `${model.provider} ${model.model} (${model.source}), ${concurrency} at once; report in ${outDir}\n`,
  );
  const outcome = await runEval({
    set,
    exercises,
    language,
    runs,
    concurrency,
    llm: model.llm,
    model: model.model,
    provider: model.provider,
    modelTimeoutMs: model.timeoutMs,
    price,
    outDir,
    frontEnd: 'cli',
    sandbox,
    testTimeoutMs,
    maxCycles,
    agentsDir: values['agents-dir'] !== undefined ? resolve(values['agents-dir']) : undefined,
    signal: io.signal,
    ...(shard ? { shard } : {}),
    ...(previous ? { resume: { report: previous, file: join(outDir, 'report.json') } } : {}),
    onProgress: (event) => {
      const line = progressLine(event, values.verbose);
      if (line) io.stderr.write(`${escapeTerminalText(line)}\n`);
    },
  });
  io.stderr.write(`${escapeTerminalText(summaryLines(outcome.report, outcome.markdownPath))}\n`);
  if (values.json) io.stdout.write(`${JSON.stringify(outcome.report)}\n`);
  // A run not scored is an eval that did not measure what it was asked: a script must not take it for a result.
  return outcome.report.interrupted || outcome.report.summary.not_scored > 0 ? EXIT.failed : EXIT.ok;
}
