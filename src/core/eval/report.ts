import type { AcceptanceResult } from './acceptance';
import type { EvalSetIdentity } from './evalSet';
import { median, passAtK } from './passAtK';
import { type Language } from '../vocabulary';

/** A model's price in USD per million tokens (input = prompt, output = completion). */
export interface TokenPrice {
  input: number;
  output: number;
}

/** What the supervisor caught or the replay found in one run. */
export interface DisciplineEvents {
  /** The Implementer made more tests pass than the new one (or the Tester's test passed at once). */
  overshoots: number;
  /** A role changed files its role may not (the Implementer a test, the Tester production code). */
  violations: number;
  /** Refactorings undone because they turned the tests red. */
  reverted_refactors: number;
  /** Commits of the session whose own tests were not green when run again on a checkout of them. */
  red_commits: number;
  /** How many of the session's commits were run again. */
  commits_checked: number;
}

/** One session of one kata in an eval. */
export interface EvalRunResult {
  kata: string;
  title: string;
  /** 1-based: the run's number among the kata's `--runs`. */
  run: number;
  language: Language;
  /**
   * The session's status (`completed`, `incomplete`, `max_cycles`, `failed`, `cancelled`), or `error` when it could not
   * start.
   */
  status: string;
  /**
   * The session ended with every test green (completed; incomplete: the Tester stopped with a stated example untested;
   * or stopped at max cycles while green) and made a green commit.
   */
  finished_green: boolean;
  /** Green cycles (see `greenCycles`): not a failed cycle, nor the Tester's closing KATA_COMPLETE turn. */
  cycles: number;
  acceptance: AcceptanceResult;
  /** Finished green and every acceptance test passed: what pass@k counts. */
  passed: boolean;
  /**
   * False when the run ended on a failure of the model provider that is not the model's doing (the server went away,
   * the key was refused: see `isProviderFailure`); `error` says which. Such a run is left out of pass@k, the medians
   * and the totals, and listed apart.
   */
  scored: boolean;
  discipline: DisciplineEvents;
  model_requests: number;
  tokens: { prompt: number; completion: number };
  /** Tool calls recovered from the model's text (local models), when the session counts them. */
  tool_calls_from_text?: number;
  /** Estimated from the price table; null when the model's price is not known (tokens only). */
  cost_usd: number | null;
  /** The whole run: session, replay of its commits and the acceptance tests. */
  wall_ms: number;
  /** The session alone. */
  session_ms: number;
  /** The recording of every model exchange, relative to the report's folder (`--provider replay --cassette` plays it). */
  recording: string;
  /** The session's final commit (on a branch of a repository that was thrown away). */
  final_commit: string | null;
  /** Why the run did not finish green, when it did not. */
  error?: { error_code: string; message: string };
}

/** Figures of one kata over its runs. */
export interface EvalKataSummary {
  kata: string;
  runs: number;
  passed: number;
  green: number;
  pass_at_1: number;
  /** With `--runs k`: the chance that one of k runs passes. */
  pass_at_k?: number;
  acceptance: { passed: number; total: number };
}

/** Pass rates, medians and totals over every run. */
export interface EvalSummary {
  runs: number;
  katas: number;
  /** Runs not scored (a provider failure, not the model's doing), left out of every other figure. */
  not_scored: number;
  /** The mean over katas of each kata's pass@1. */
  pass_at_1: number;
  /** The mean over katas of each kata's pass@k, k = runs per kata (absent for one run per kata). */
  pass_at_k?: number;
  k: number;
  green_rate: number;
  /** Acceptance tests passed over all acceptance tests of every run. */
  acceptance_rate: number;
  medians: { cycles: number; wall_ms: number; model_requests: number; tokens: number; cost_usd: number | null };
  totals: {
    wall_ms: number;
    model_requests: number;
    tokens: { prompt: number; completion: number };
    cost_usd: number | null;
    discipline: Omit<DisciplineEvents, 'commits_checked'>;
    tool_calls_from_text?: number;
  };
}

/** The whole report: `report.json` (for machines) and, rendered, `report.md` (for people). */
export interface EvalReport {
  format: 'tdd-agent-eval';
  version: 1;
  started_at: string;
  finished_at: string;
  /** Ctrl-C stopped it: only the runs that had finished are in it. */
  interrupted: boolean;
  model: string;
  provider: string;
  language: Language;
  runs_per_kata: number;
  concurrency: number;
  /** The tdd-agent that ran the eval, and from where: the command line (`tdd-agent eval`) or VS Code's command. */
  tdd_agent: { version: string; front_end: EvalFrontEnd };
  /** Which set ran (its name, digest and source commits: no local path) and the exercises asked for. */
  set: EvalSetIdentity & { katas: string[] };
  price: TokenPrice | null;
  /**
   * The eval stopped starting runs: the first run that ended on a provider failure (not scored), and how many runs
   * never started. Absent when it ran what it was asked (or Ctrl-C stopped it: `interrupted`).
   */
  stopped?: { kata: string; run: number; error_code: string; message: string; not_started: number };
  /** The machine: its OS sandbox, CPUs and Node version. */
  machine: { sandbox: string; cpus: number; node: string; platform: string };
  /** The options that change what a run does (absent in reports of earlier versions): parts of one eval share them. */
  options?: EvalRunOptions;
  /**
   * A part of an eval (`--shard i/n`): which part, and the runs it was given. Absent for a whole eval, and for the
   * report `tdd-agent eval merge` makes of all the parts.
   */
  shard?: { index: number; count: number; runs: Array<{ kata: string; run: number }> };
  summary: EvalSummary;
  katas: EvalKataSummary[];
  runs: EvalRunResult[];
}

/** The options of an eval that change what its runs do (not where or how many at once they run). */
export interface EvalRunOptions {
  /** `--max-cycles`, or null for each kata's own. */
  max_cycles: number | null;
  /** `--test-timeout`, or null for the default. */
  test_timeout_ms: number | null;
  /** `--timeout`: the limit of one model call, or null for the agents' own. */
  model_timeout_ms: number | null;
  /** The role configs: the bundled ones, or a folder of one's own (`--agents-dir`). */
  agents: 'bundled' | 'own';
}

/** Where an eval was started: `tdd-agent eval`, or VS Code's "Evaluate the configured model…". */
export type EvalFrontEnd = 'cli' | 'vscode';

/**
 * The command that replays a recorded run, as report.md, the README and `tdd-agent eval --help` print it: run in the
 * report's folder, which holds the kata files (`katas/`) and the recordings (`recordings/`). The session goes to a
 * new temporary folder, so the report's folder is never made a repository.
 */
export function replayCommand(kata: string, language: string, recording: string): string {
  return `tdd-agent kata katas/${kata}.md --language ${language} --provider replay --cassette ${recording} --yes --workspace "$(mktemp -d)"`;
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
const mean = (values: readonly number[]): number => (values.length ? sum(values) / values.length : 0);

/** The per-kata figures and the summary of a list of runs (`k` = runs per kata). */
export function summarize(
  all: readonly EvalRunResult[],
  k: number,
  price: TokenPrice | null,
): { summary: EvalSummary; katas: EvalKataSummary[] } {
  // A run the provider's failure ended says nothing about the model: it counts nowhere but in not_scored.
  const runs = all.filter((r) => r.scored !== false);
  const byKata = new Map<string, EvalRunResult[]>();
  for (const run of runs) byKata.set(run.kata, [...(byKata.get(run.kata) ?? []), run]);
  const katas: EvalKataSummary[] = [...byKata.entries()].map(([kata, list]) => {
    const passed = list.filter((r) => r.passed).length;
    const atK = k > 1 ? passAtK(list.length, passed, k) : undefined;
    return {
      kata,
      runs: list.length,
      passed,
      green: list.filter((r) => r.finished_green).length,
      pass_at_1: passAtK(list.length, passed, 1) ?? 0,
      ...(atK !== undefined ? { pass_at_k: atK } : {}),
      acceptance: { passed: sum(list.map((r) => r.acceptance.passed)), total: sum(list.map((r) => r.acceptance.total)) },
    };
  });
  const withK = katas.filter((x) => x.pass_at_k !== undefined);
  const tokens = (r: EvalRunResult): number => r.tokens.prompt + r.tokens.completion;
  const fromText = runs.filter((r) => r.tool_calls_from_text !== undefined);
  const acceptanceTotal = sum(runs.map((r) => r.acceptance.total));
  const summary: EvalSummary = {
    runs: runs.length,
    katas: katas.length,
    not_scored: all.length - runs.length,
    pass_at_1: mean(katas.map((x) => x.pass_at_1)),
    ...(k > 1 && withK.length > 0 ? { pass_at_k: mean(withK.map((x) => x.pass_at_k!)) } : {}),
    k,
    green_rate: runs.length ? runs.filter((r) => r.finished_green).length / runs.length : 0,
    acceptance_rate: acceptanceTotal ? sum(runs.map((r) => r.acceptance.passed)) / acceptanceTotal : 0,
    medians: {
      cycles: median(runs.map((r) => r.cycles)) ?? 0,
      wall_ms: Math.round(median(runs.map((r) => r.wall_ms)) ?? 0),
      model_requests: median(runs.map((r) => r.model_requests)) ?? 0,
      tokens: median(runs.map(tokens)) ?? 0,
      cost_usd: price ? (median(runs.map((r) => r.cost_usd ?? 0)) ?? 0) : null,
    },
    totals: {
      wall_ms: sum(runs.map((r) => r.wall_ms)),
      model_requests: sum(runs.map((r) => r.model_requests)),
      tokens: { prompt: sum(runs.map((r) => r.tokens.prompt)), completion: sum(runs.map((r) => r.tokens.completion)) },
      cost_usd: price ? sum(runs.map((r) => r.cost_usd ?? 0)) : null,
      discipline: {
        overshoots: sum(runs.map((r) => r.discipline.overshoots)),
        violations: sum(runs.map((r) => r.discipline.violations)),
        reverted_refactors: sum(runs.map((r) => r.discipline.reverted_refactors)),
        red_commits: sum(runs.map((r) => r.discipline.red_commits)),
      },
      ...(fromText.length ? { tool_calls_from_text: sum(fromText.map((r) => r.tool_calls_from_text!)) } : {}),
    },
  };
  return { summary, katas };
}

/** The estimated cost of some tokens at `price`, or null without a price. */
export function costOf(tokens: { prompt: number; completion: number }, price: TokenPrice | null): number | null {
  return price ? (tokens.prompt * price.input + tokens.completion * price.output) / 1_000_000 : null;
}

const percent = (x: number): string => `${Math.round(x * 1000) / 10} %`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const usd = (x: number | null): string => (x === null ? '—' : x < 0.0001 && x > 0 ? '<$0.0001' : `$${x.toFixed(4)}`);
const count = (n: number): string => n.toLocaleString('en-US');
/** A table cell: no line break, no pipe that would end the cell. */
const cell = (text: string): string => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');

/** A price table's shape, as its hints and usage errors show it (`tddAgent.modelPrices`, `tdd-agent eval --prices FILE`). */
export function priceTableShape(model = '<model id>'): string {
  return `{ "${model}": { "input": <USD per million prompt tokens>, "output": <USD per million completion tokens> } }`;
}

/**
 * What report.md says when the model has no price: how to give one where the eval was started (the command line reads
 * no VS Code setting, VS Code passes no flag), in the same shape either way.
 */
export function noPriceHint(report: Pick<EvalReport, 'model' | 'tdd_agent'>): string {
  const how =
    report.tdd_agent.front_end === 'vscode'
      ? `add it to the \`tddAgent.modelPrices\` setting`
      : `run \`tdd-agent eval\` with \`--prices FILE\``;
  return `No price is known for ${report.model}: tokens only. To estimate the cost, ${how}: \`${priceTableShape(report.model)}\`.`;
}

/**
 * The report for people: what was run, the summary (pass rates, medians, totals), a table per kata and one per run,
 * and how to replay a run. GitHub-flavoured Markdown, readable in VS Code's preview and pasted into an issue.
 */
export function renderMarkdown(report: EvalReport): string {
  const lines: string[] = [];
  const scored = report.runs.filter((r) => r.scored !== false);
  markdownHeading(lines, report);
  markdownSummary(lines, report);
  markdownPerKata(lines, report);
  markdownPerRun(lines, report, scored);
  markdownProblems(lines, report, scored);
  markdownReplay(lines, report);
  return `${lines.join('\n')}\n`;
}

/** The report's title, what was run where, and why it stopped early. */
function markdownHeading(lines: string[], report: EvalReport): void {
  lines.push(`# TDD Agent eval: ${report.model} (${report.provider}), ${report.language}`, '');
  const set = report.set;
  const sources = set.source_commits.map((c) => c.slice(0, 12)).join(', ');
  lines.push(
    `Set **${set.name}**${set.bundled ? ' (bundled)' : ''}, digest \`${set.digest}\`${sources ? `, exercises from source commit ${sources}` : ''}; ` +
      `tdd-agent ${report.tdd_agent.version} (${report.tdd_agent.front_end === 'vscode' ? 'VS Code' : 'CLI'}).`,
    '',
  );
  lines.push(
    `${report.summary.katas} kata(s) × ${report.runs_per_kata} run(s), ${report.started_at.slice(0, 19).replace('T', ' ')} UTC; ` +
      `concurrency ${report.concurrency}; sandbox ${report.machine.sandbox}; Node ${report.machine.node} on ${report.machine.platform} (${report.machine.cpus} CPUs).` +
      (report.interrupted ? ' **Interrupted (Ctrl-C): only the runs that finished are here.**' : ''),
    '',
  );
  if (report.stopped)
    lines.push(
      `**Stopped after a failure of the model provider** (${cell(report.stopped.error_code)} on ${cell(report.stopped.kata)} run ${report.stopped.run}): ` +
        `not the model's doing, so that run is not scored and no new run started (${report.stopped.not_started} not started). ` +
        'Fix the provider and run the eval again.',
      '',
    );
}

/** The pass rates, medians and totals. */
function markdownSummary(lines: string[], report: EvalReport): void {
  const s = report.summary;
  lines.push('## Summary', '', '| figure | value |', '| --- | --- |');
  lines.push(`| pass@1 (green and every acceptance test passed) | ${percent(s.pass_at_1)} |`);
  if (s.pass_at_k !== undefined) lines.push(`| pass@${s.k} | ${percent(s.pass_at_k)} |`);
  lines.push(`| finished green | ${percent(s.green_rate)} of ${s.runs} run(s) |`);
  if (s.not_scored > 0)
    lines.push(`| not scored (the model provider failed, not the model; left out of every figure) | ${s.not_scored} run(s) |`);
  lines.push(`| acceptance tests passed | ${percent(s.acceptance_rate)} |`);
  lines.push(
    `| discipline events (total) | ${s.totals.discipline.overshoots} overshoot(s), ${s.totals.discipline.violations} role violation(s), ${s.totals.discipline.reverted_refactors} reverted refactor(s), ${s.totals.discipline.red_commits} red commit(s) on replay |`,
  );
  lines.push(`| median cycles | ${s.medians.cycles} |`);
  lines.push(`| median wall time per run | ${seconds(s.medians.wall_ms)} |`);
  lines.push(`| median model requests per run | ${s.medians.model_requests} |`);
  lines.push(`| median tokens per run | ${count(s.medians.tokens)} |`);
  lines.push(`| median estimated cost per run | ${usd(s.medians.cost_usd)} |`);
  lines.push(
    `| total | ${count(s.totals.model_requests)} requests, ${count(s.totals.tokens.prompt)} prompt + ${count(s.totals.tokens.completion)} completion tokens, ${usd(s.totals.cost_usd)}, ${seconds(s.totals.wall_ms)} of runs |`,
  );
  if (s.totals.tool_calls_from_text)
    // a local model's calls written as text; shown when there were any
    lines.push(`| tool calls recovered from text | ${s.totals.tool_calls_from_text} |`);
  lines.push('');
  if (!report.price) lines.push(noPriceHint(report), '');
}

/** A row per kata. */
function markdownPerKata(lines: string[], report: EvalReport): void {
  const s = report.summary;
  lines.push(
    '## Per kata',
    '',
    `| kata | runs | passed | green | acceptance | pass@1${s.pass_at_k !== undefined ? ` | pass@${s.k}` : ''} |`,
  );
  lines.push(`| --- | --- | --- | --- | --- | ---${s.pass_at_k !== undefined ? ' | ---' : ''} |`);
  for (const k of report.katas)
    lines.push(
      `| ${cell(k.kata)} | ${k.runs} | ${k.passed} | ${k.green} | ${k.acceptance.passed}/${k.acceptance.total} | ${percent(k.pass_at_1)}${k.pass_at_k !== undefined ? ` | ${percent(k.pass_at_k)}` : ''} |`,
    );
  lines.push('');
}

/** A row per scored run. */
function markdownPerRun(lines: string[], report: EvalReport, scored: EvalRunResult[]): void {
  const fromText = report.runs.some((r) => (r.tool_calls_from_text ?? 0) > 0);
  lines.push(
    '## Per run',
    '',
    `| kata | run | status | green | cycles | acceptance | overshoots | violations | reverted refactors | red commits | requests | prompt tok | completion tok${fromText ? ' | calls from text' : ''} | cost | wall |`,
    `| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | ---${fromText ? ' | ---' : ''} | --- | --- |`,
  );
  for (const r of scored) {
    const d = r.discipline;
    lines.push(
      `| ${cell(r.kata)} | ${r.run} | ${cell(r.status)} | ${r.finished_green ? 'yes' : 'no'} | ${r.cycles} | ${r.acceptance.passed}/${r.acceptance.total} | ${d.overshoots} | ${d.violations} | ${d.reverted_refactors} | ${d.red_commits}/${d.commits_checked} | ${r.model_requests} | ${count(r.tokens.prompt)} | ${count(r.tokens.completion)}${fromText ? ` | ${r.tool_calls_from_text ?? '—'}` : ''} | ${usd(r.cost_usd)} | ${seconds(r.wall_ms)} |`,
    );
  }
  lines.push('');
}

/** The runs not scored, and what went wrong in the scored ones. */
function markdownProblems(lines: string[], report: EvalReport, scored: EvalRunResult[]): void {
  const notScored = report.runs.filter((r) => r.scored === false);
  if (notScored.length > 0) {
    lines.push('## Not scored', '', 'These runs ended on a failure of the model provider, not of the model:', '');
    for (const r of notScored)
      lines.push(
        `- **${cell(r.kata)} run ${r.run}**: ${r.error ? cell(`${r.error.error_code}: ${r.error.message}`) : 'the provider failed'} (recording \`${r.recording}\`)`,
      );
    lines.push('');
  }
  const notes = scored.filter((r) => r.error || r.acceptance.reason || r.acceptance.failing);
  if (notes.length > 0) {
    lines.push('## What went wrong', '');
    for (const r of notes) {
      const parts = [
        r.error ? `${r.error.error_code}: ${r.error.message}` : undefined,
        r.acceptance.failing
          ? `acceptance tests failed: ${r.acceptance.failing.slice(0, 5).join('; ')}${r.acceptance.failing.length > 5 ? '; …' : ''}`
          : undefined,
        !r.acceptance.failing && r.acceptance.reason ? `acceptance: ${r.acceptance.reason}` : undefined,
      ].filter(Boolean);
      lines.push(`- **${cell(r.kata)} run ${r.run}**: ${cell(parts.join(' — '))}`);
    }
    lines.push('');
  }
}

/** How to watch a run again, and each run's recording. */
function markdownReplay(lines: string[], report: EvalReport): void {
  lines.push(
    '## Replaying a run',
    '',
    "Each run was recorded. To watch one again (no model, no key), in this report's folder (it holds the katas and the recordings):",
    '',
    '```sh',
    replayCommand('<kata>', report.language, `recordings/<kata>-${report.language}-<n>.json`),
    '```',
    '',
    ...report.runs.map((r) => `- ${r.kata} run ${r.run}: \`${r.recording}\``),
    '',
  );
}
