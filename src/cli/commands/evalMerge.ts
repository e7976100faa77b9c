import { copyFile, lstat, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { escapeTerminalText } from '../../core';
import {
  compareModels,
  type EvalReport,
  type EvalReportPart,
  mergeEvalReports,
  readEvalReport,
  renderComparison,
  renderMarkdown,
} from '../../core/tddApi';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type CliIo } from '../cliIo';

/** `tdd-agent eval merge --help`. */
export const EVAL_MERGE_USAGE = `Usage: tdd-agent eval merge <report folders…> --out DIR [--json]

Merges the reports of one eval run in parts (tdd-agent eval --shard i/n, each on its own machine) into the
report.json and report.md an unsharded run writes: pass@1 and pass@k, medians and totals over every run, the
recordings and kata files copied beside them. The parts must be one eval: the same set (digest), katas, language,
runs per kata, tdd-agent version and options. Two parts holding the same run (a shard given twice) and a run no
part holds (a missing shard, a part that did not finish: tdd-agent eval --resume finishes it) are refused, in one
line naming the file.

Reports of several models that ran the same eval (each whole, or in parts) give a comparison: DIR/comparison.md
and comparison.json, one table with a row per model (pass@1, pass@k and its 95 % interval, discipline events,
tokens, cost and time per green commit), and each model's merged report in DIR/<provider>-<model>/.

Options:
  --out DIR              where the merged report goes (created; not one of the parts)
  --json                 print the merged report (or the comparison) as JSON on stdout

Exit codes: 0 merged, 2 the parts do not make one eval (or a usage error).`;

const OPTIONS = {
  out: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Writes a file through a temporary name, so a reader never sees half of it. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, path);
}

/** Copies `from` to `to` when it is a regular file (a part is shared data: a link in it is not followed). */
async function copyRegular(from: string, to: string): Promise<boolean> {
  const info = await lstat(from).catch(() => undefined);
  if (!info?.isFile()) return false;
  await mkdir(dirname(to), { recursive: true });
  await copyFile(from, to);
  return true;
}

/** The merged report in `out`, with the recordings its runs list and the kata files of its parts. */
async function writeMerged(report: EvalReport, parts: readonly EvalReportPart[], out: string): Promise<void> {
  await mkdir(join(out, 'recordings'), { recursive: true });
  for (const part of parts) {
    const from = dirname(part.file);
    for (const run of part.report.runs) await copyRegular(join(from, run.recording), join(out, run.recording));
    const katas = await readdir(join(from, 'katas')).catch(() => [] as string[]);
    for (const name of katas) await copyRegular(join(from, 'katas', name), join(out, 'katas', basename(name)));
  }
  await writeAtomically(join(out, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeAtomically(join(out, 'report.md'), renderMarkdown(report));
}

/** A model's folder in a comparison: `<provider>-<model>`, safe as one path segment. */
function modelFolder(report: EvalReport): string {
  return `${report.provider}-${report.model}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'model';
}

/** `tdd-agent eval merge`: the parts of an eval (or of several models' evals) into one report (or a comparison). */
export async function evalMergeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS);
  if (values.help) {
    io.stdout.write(`${EVAL_MERGE_USAGE}\n`);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError('tdd-agent eval merge needs the report folders to merge.');
  if (values.out === undefined) throw new UsageError('tdd-agent eval merge needs --out DIR: where the merged report goes.');
  const out = resolve(values.out);
  const parts: EvalReportPart[] = [];
  for (const dir of positionals) {
    const file = resolve(dir.endsWith('.json') ? dir : join(dir, 'report.json'));
    if (dirname(file) === out) throw new UsageError(`--out ${values.out} is one of the parts: merge into a new folder.`);
    parts.push({ file, report: (await readEvalReport(file))! });
  }
  const merged = mergeEvalReports(parts);
  if (merged.length === 1) {
    const { report } = merged[0]!;
    await writeMerged(report, parts, out);
    const s = report.summary;
    io.stderr.write(
      `${escapeTerminalText(
        `Merged ${parts.length} part(s): ${s.runs} run(s) of ${s.katas} kata(s), pass@1 ${Math.round(s.pass_at_1 * 1000) / 10} %` +
          `${s.pass_at_k !== undefined ? `, pass@${s.k} ${Math.round(s.pass_at_k * 1000) / 10} %` : ''}\nReport: ${join(out, 'report.md')} (and report.json beside it)`,
      )}\n`,
    );
    if (values.json) io.stdout.write(`${JSON.stringify(report)}\n`);
    return EXIT.ok;
  }
  const folders = new Set<string>();
  const written: Array<{ report: EvalReport; folder: string }> = [];
  for (const { report, parts: own } of merged) {
    let folder = modelFolder(report);
    for (let n = 2; folders.has(folder); n++) folder = `${modelFolder(report)}-${n}`;
    folders.add(folder);
    await writeMerged(report, own, join(out, folder));
    written.push({ report, folder });
  }
  const comparison = compareModels(written);
  await writeAtomically(join(out, 'comparison.json'), `${JSON.stringify(comparison, null, 2)}\n`);
  await writeAtomically(join(out, 'comparison.md'), renderComparison(comparison));
  io.stderr.write(
    `${escapeTerminalText(`Compared ${merged.length} models over ${parts.length} part(s)\nComparison: ${join(out, 'comparison.md')} (and comparison.json; each model's report in its folder)`)}\n`,
  );
  if (values.json) io.stdout.write(`${JSON.stringify(comparison)}\n`);
  return EXIT.ok;
}
