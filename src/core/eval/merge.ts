import { AgentError } from '../errors/agentError';
import { summarize, type EvalReport, type EvalRunResult } from './report';
import { evalMismatch } from './sameEval';

/** A report to merge and the file it was read from (every refusal names it). */
export interface EvalReportPart {
  file: string;
  report: EvalReport;
}

/** A model's merged report and the parts it was made of. */
export interface MergedEvalReport {
  report: EvalReport;
  parts: EvalReportPart[];
}

const refuse = (message: string, details: Record<string, unknown>): never => {
  throw new AgentError('CONFIG', message, details);
};
const key = (kata: string, run: number): string => `${kata} run ${run}`;
const shardName = (part: EvalReportPart): string =>
  part.report.shard ? `shard ${part.report.shard.index}/${part.report.shard.count}` : 'a whole eval';

/**
 * Merges the reports of one eval's parts (`--shard i/n`, each run on its own machine) into the report an unsharded run
 * writes: the runs in the report's order, pass@1 and pass@k, medians and totals computed again over all of them; the
 * earliest start and the latest finish. Reports of several models (each whole or in parts) that ran the same eval
 * give one merged report per model, in the order they first appear, for a comparison.
 *
 * Refused, each as an AgentError (`CONFIG`) in one line naming the file: a part of another eval (set, katas, version,
 * language, runs per kata, options; for one model its price too), two parts holding the same run (the same shard
 * twice, a whole report beside its shards), and a run no part holds (a missing shard, or a part that was interrupted:
 * `tdd-agent eval --resume` finishes it).
 */
export function mergeEvalReports(parts: readonly EvalReportPart[]): MergedEvalReport[] {
  if (parts.length === 0) refuse('Nothing to merge: name the folders of the parts.', {});
  const first = parts[0]!;
  const groups = new Map<string, EvalReportPart[]>();
  for (const part of parts) {
    if (part.report.format !== 'tdd-agent-eval')
      refuse(`${part.file} is not a tdd-agent eval report (format ${String(part.report.format)}).`, { file: part.file });
    const problem = evalMismatch(part.report, first.report, false);
    if (problem)
      refuse(`${part.file} is not a part of the same eval as ${first.file}: ${problem}.`, { file: part.file, other: first.file });
    const model = `${part.report.provider} ${part.report.model}`;
    groups.set(model, [...(groups.get(model) ?? []), part]);
  }
  return [...groups.values()].map((group) => ({ report: mergeOneModel(group), parts: group }));
}

function mergeOneModel(parts: readonly EvalReportPart[]): EvalReport {
  const first = parts[0]!;
  const head = first.report;
  for (const part of parts) {
    const problem = evalMismatch(part.report, head);
    if (problem)
      refuse(`${part.file} is not a part of the same eval as ${first.file}: ${problem}.`, { file: part.file, other: first.file });
    const a = part.report.shard;
    const b = head.shard;
    if (a && b && a.count !== b.count)
      refuse(
        `${part.file} is shard ${a.index}/${a.count}, ${first.file} a shard of ${b.count}: parts of two splits of the eval.`,
        {
          file: part.file,
          other: first.file,
        },
      );
  }
  const holder = new Map<string, { run: EvalRunResult; part: EvalReportPart }>();
  const byShard = new Map<number, EvalReportPart>();
  for (const part of parts) {
    const shard = part.report.shard;
    const twin = shard ? byShard.get(shard.index) : undefined;
    if (shard && twin)
      refuse(`${part.file} and ${twin.file} are both shard ${shard.index}/${shard.count}: merge each shard once.`, {
        file: part.file,
        other: twin.file,
      });
    if (shard) byShard.set(shard.index, part);
    for (const run of part.report.runs) {
      const other = holder.get(key(run.kata, run.run));
      if (other)
        refuse(
          `${part.file} (${shardName(part)}) and ${other.part.file} (${shardName(other.part)}) both hold ${key(run.kata, run.run)}: overlapping parts.`,
          { file: part.file, other: other.part.file, run: key(run.kata, run.run) },
        );
      holder.set(key(run.kata, run.run), { run, part });
    }
  }
  const order = head.set.katas.flatMap((kata) => Array.from({ length: head.runs_per_kata }, (_, i) => key(kata, i + 1)));
  const missing = order.filter((k) => !holder.has(k));
  if (missing.length > 0) {
    const listed = `${missing.slice(0, 4).join(', ')}${missing.length > 4 ? `, … (${missing.length} runs)` : ''}`;
    const unfinished = parts.find((p) => p.report.shard?.runs.some((r) => !holder.has(key(r.kata, r.run))));
    const count = head.shard?.count;
    const absent = count ? Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byShard.has(i)) : [];
    if (unfinished)
      refuse(
        `${unfinished.file} (${shardName(unfinished)}) lacks ${listed}: it did not finish; run it again with tdd-agent eval --resume <its folder>, then merge.`,
        { file: unfinished.file, missing },
      );
    if (absent.length > 0)
      refuse(
        `Shard ${absent.map((i) => `${i}/${count}`).join(', ')} missing (${listed}): none of ${parts.map((p) => p.file).join(', ')} is it.`,
        { files: parts.map((p) => p.file), missing },
      );
    refuse(`No part holds ${listed}: ${parts.map((p) => p.file).join(', ')} leave it out.`, {
      files: parts.map((p) => p.file),
      missing,
    });
  }
  const runs = order.map((k) => holder.get(k)!.run);
  const { summary, katas } = summarize(runs, head.runs_per_kata, head.price);
  const stopped = parts.find((p) => p.report.stopped)?.report.stopped;
  const times = parts.map((p) => p.report);
  return {
    format: 'tdd-agent-eval',
    version: 1,
    started_at: times.map((r) => r.started_at).sort()[0]!,
    finished_at: times
      .map((r) => r.finished_at)
      .sort()
      .at(-1)!,
    interrupted: false,
    model: head.model,
    provider: head.provider,
    language: head.language,
    runs_per_kata: head.runs_per_kata,
    concurrency: head.concurrency,
    tdd_agent: head.tdd_agent,
    set: head.set,
    price: head.price,
    machine: head.machine,
    ...(head.options ? { options: head.options } : {}),
    ...(stopped ? { stopped } : {}),
    summary,
    katas,
    runs,
  };
}
