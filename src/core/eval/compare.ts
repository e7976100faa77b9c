import { passAtK } from './passAtK';
import type { EvalReport } from './report';

/** One model's row of a comparison: pass rates with the interval of pass@k, and what a green commit cost it. */
export interface EvalComparisonRow {
  model: string;
  provider: string;
  /** The model's merged report, relative to the comparison's folder. */
  report: string;
  /** Scored runs. */
  runs: number;
  pass_at_1: number;
  /** pass@k for k = runs per kata (pass@1 when 1). */
  pass_at_k: number;
  /** A 95 % interval of pass@k (see `passAtKInterval`). */
  interval_95: [number, number];
  /** Green commits over every scored run: one per green cycle. */
  green_commits: number;
  /** Per green commit (null when none): discipline events (overshoots, role violations, reverted refactors, red commits). */
  discipline_per_green_commit: number | null;
  tokens_per_green_commit: number | null;
  /** Null without a price too. */
  cost_usd_per_green_commit: number | null;
  wall_ms_per_green_commit: number | null;
}

/** `comparison.json`: models that ran the same eval, side by side. */
export interface EvalComparison {
  format: 'tdd-agent-eval-comparison';
  version: 1;
  set: EvalReport['set'];
  language: EvalReport['language'];
  runs_per_kata: number;
  k: number;
  tdd_agent_version: string;
  models: EvalComparisonRow[];
}

/** A deterministic pseudo-random generator (mulberry32): the same report gives the same interval everywhere. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 95 % interval of pass@k (the mean over katas of each kata's unbiased pass@k), by a two-level bootstrap: 2,000
 * times, draw the katas with replacement and, within each, its runs with replacement, and compute pass@k again; the
 * interval is the 2.5th to the 97.5th percentile. Seeded, so a report always gives the same interval. Few katas or runs
 * give a wide interval, as they should.
 */
export function passAtKInterval(
  perKata: ReadonlyArray<{ runs: number; passed: number }>,
  k: number,
  resamples = 2000,
): [number, number] {
  const katas = perKata.filter((x) => x.runs >= k);
  if (katas.length === 0) return [0, 0];
  const random = seeded(0x7dd);
  const draw = (n: number): number => Math.min(n - 1, Math.floor(random() * n));
  const values: number[] = [];
  for (let i = 0; i < resamples; i++) {
    let total = 0;
    for (let j = 0; j < katas.length; j++) {
      const kata = katas[draw(katas.length)]!;
      let passed = 0;
      for (let r = 0; r < kata.runs; r++) if (draw(kata.runs) < kata.passed) passed++;
      total += passAtK(kata.runs, passed, k) ?? 0;
    }
    values.push(total / katas.length);
  }
  values.sort((a, b) => a - b);
  const at = (q: number): number => values[Math.min(values.length - 1, Math.max(0, Math.round(q * (values.length - 1))))]!;
  return [at(0.025), at(0.975)];
}

/** The comparison of models' merged reports of one eval (`tdd-agent eval merge` of several models), each with its folder. */
export function compareModels(reports: ReadonlyArray<{ report: EvalReport; folder: string }>): EvalComparison {
  const head = reports[0]!.report;
  const k = head.runs_per_kata;
  const models = reports.map(({ report, folder }): EvalComparisonRow => {
    const scored = report.runs.filter((r) => r.scored !== false);
    const greenCommits = scored.reduce((n, r) => n + r.cycles, 0);
    const per = (total: number | null): number | null => (total === null || greenCommits === 0 ? null : total / greenCommits);
    const d = report.summary.totals.discipline;
    const t = report.summary.totals;
    return {
      model: report.model,
      provider: report.provider,
      report: folder,
      runs: report.summary.runs,
      pass_at_1: report.summary.pass_at_1,
      pass_at_k: report.summary.pass_at_k ?? report.summary.pass_at_1,
      interval_95: passAtKInterval(report.katas, k),
      green_commits: greenCommits,
      discipline_per_green_commit: per(d.overshoots + d.violations + d.reverted_refactors + d.red_commits),
      tokens_per_green_commit: per(t.tokens.prompt + t.tokens.completion),
      cost_usd_per_green_commit: per(t.cost_usd),
      wall_ms_per_green_commit: per(t.wall_ms),
    };
  });
  return {
    format: 'tdd-agent-eval-comparison',
    version: 1,
    set: head.set,
    language: head.language,
    runs_per_kata: k,
    k,
    tdd_agent_version: head.tdd_agent.version,
    models,
  };
}

const percent = (x: number): string => `${Math.round(x * 1000) / 10} %`;

/** `comparison.md`: one table, a row per model, best pass@k first; GitHub Markdown (a job summary, an issue). */
export function renderComparison(comparison: EvalComparison): string {
  const k = comparison.k;
  const rows = [...comparison.models].sort((a, b) => b.pass_at_k - a.pass_at_k || a.model.localeCompare(b.model));
  const or = (x: number | null, show: (x: number) => string): string => (x === null ? '—' : show(x));
  const lines = [
    `# TDD Agent eval: ${comparison.models.length} models compared, ${comparison.language}`,
    '',
    `Set **${comparison.set.name}**, digest \`${comparison.set.digest}\`, ${comparison.set.katas.length} kata(s) × ${comparison.runs_per_kata} run(s); tdd-agent ${comparison.tdd_agent_version}.`,
    '',
    `| model | runs | pass@1 | pass@${k} | 95 % interval of pass@${k} | green commits | discipline events per green commit | tokens per green commit | cost per green commit | time per green commit |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| [${r.model}](${r.report}/report.md) (${r.provider}) | ${r.runs} | ${percent(r.pass_at_1)} | ${percent(r.pass_at_k)} | ` +
        `${percent(r.interval_95[0])} – ${percent(r.interval_95[1])} | ${r.green_commits} | ${or(r.discipline_per_green_commit, (x) => x.toFixed(2))} | ` +
        `${or(r.tokens_per_green_commit, (x) => Math.round(x).toLocaleString('en-US'))} | ${or(r.cost_usd_per_green_commit, (x) => `$${x.toFixed(4)}`)} | ` +
        `${or(r.wall_ms_per_green_commit, (x) => `${(x / 1000).toFixed(1)} s`)} |`,
    ),
    '',
    `pass@${k}: the chance that one of ${k} runs of a kata passes (finished green and every acceptance test passed), averaged over katas. ` +
      'The interval is a bootstrap over katas and their runs (2,000 draws, seeded): with few katas it is wide, and two models whose intervals overlap are not told apart by this eval. ' +
      'A green commit is one green cycle; discipline events are overshoots, role violations, reverted refactors and red commits.',
    '',
  ];
  return `${lines.join('\n')}\n`;
}
