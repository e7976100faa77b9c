import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { getLogger } from '../../logging/logger';
import { TestReportError } from '../errors';
import { writeTreeFile } from '../../workspaceSandbox/untrustedTree';
import { reportingCommand, type FlagSlot, type ReportingKind } from './reportCommand';
import type { ParsedReport, ReportContext } from './reportedTest';
import { prepareReportsFolder, readReport, removeReportFiles, REPORTS_DIR } from './reportFile';
import { RUNNER_REPORTS, type ReportFiles, type RunnerReportAdapter } from './runnerReports';

const log = getLogger('testRunners');

/** One run's report, set up: the command to run instead of the person's, and the files to read and remove after. */
export interface PreparedReport {
  kind: ReportingKind;
  /** The person's command with the report flags. */
  command: string;
  files: ReportFiles;
  adapter: RunnerReportAdapter;
  /** The random part of the file names, which no other output line contains. */
  token: string;
  /** Folders made for the report, removed after the run when empty. */
  createdFolders: string[];
}

/**
 * Sets up a report for one run of `command` in `workspace` (whose real path is `realWorkspace`): the flags for its
 * runner, the `.tdd/reports` folder, and for mocha the reporter module. Undefined when the command is not one whose
 * runner can be asked for a report (see reportingCommand), or the folder cannot be made: then the command runs as
 * written. With `slot` (a subset of the suite: `command` is its command line), the flags go where the slot says.
 * Never throws.
 */
export async function prepareReport(
  workspace: string,
  realWorkspace: string,
  command: string,
  scripts: Readonly<Record<string, unknown>> | undefined,
  slot?: FlagSlot,
): Promise<PreparedReport | undefined> {
  const token = randomBytes(8).toString('hex');
  const filesFor = (kind: ReportingKind): ReportFiles => {
    const report = `${REPORTS_DIR}/${token}.${RUNNER_REPORTS[kind].extension}`;
    return { report, absoluteReport: join(realWorkspace, report), reporter: `${REPORTS_DIR}/${token}.reporter.cjs` };
  };
  const flagsFor = (kind: ReportingKind): string[] => RUNNER_REPORTS[kind].flags(filesFor(kind));
  const planned = slot
    ? { kind: slot.kind, command: slot.withFlags(flagsFor(slot.kind)) }
    : reportingCommand(command, scripts, flagsFor);
  if (!planned) {
    log.debug('The test command is not one whose runner can be asked for a report: only its console output is read.', {
      command,
    });
    return undefined;
  }
  const files = filesFor(planned.kind);
  const adapter = RUNNER_REPORTS[planned.kind];
  let createdFolders: string[] = [];
  if (adapter.source === 'output') return { kind: planned.kind, command: planned.command, files, adapter, token, createdFolders };
  if (adapter.source === 'build') {
    try {
      await adapter.buildReports!.clear(workspace);
    } catch (error) {
      log.warn('No test report for this run: the earlier run’s reports could not be removed.', { error });
      return undefined;
    }
    return { kind: planned.kind, command: planned.command, files, adapter, token, createdFolders };
  }
  try {
    createdFolders = await prepareReportsFolder(workspace);
    if (adapter.reporterModule) await writeTreeFile(workspace, files.reporter, Buffer.from(adapter.reporterModule(files)));
  } catch (error) {
    log.warn('No test report for this run: its folder could not be prepared.', { error });
    await removeReportFiles(workspace, [files.reporter], createdFolders);
    return undefined;
  }
  return { kind: planned.kind, command: planned.command, files, adapter, token, createdFolders };
}

/**
 * After the run: reads and parses the report when the run ended by itself (`finished`), then removes the run's files.
 * Undefined, with a log line saying why, when the report is missing, a link, too large, a special file or not the
 * runner's format. Never throws.
 */
export async function collectReport(
  prepared: PreparedReport,
  ctx: ReportContext,
  finished: boolean,
): Promise<ParsedReport | undefined> {
  let parsed: ParsedReport | undefined;
  if (finished) {
    try {
      const text =
        prepared.adapter.source === 'output'
          ? ctx.output
          : prepared.adapter.source === 'build'
            ? await prepared.adapter.buildReports!.read(ctx.workspace)
            : await readReport(ctx.workspace, prepared.files.report);
      parsed = await prepared.adapter.parse(text, ctx);
    } catch (error) {
      // No report at all is what a run that could not start its tests leaves (a load error): worth a debug line only.
      const missing = error instanceof TestReportError && error.details.found === 'missing';
      log[missing ? 'debug' : 'warn'](
        `The ${prepared.kind} report of this run could not be used; only the console output is read.`,
        { error },
      );
    }
  }
  if (prepared.adapter.source === 'output' || prepared.adapter.source === 'build') return parsed;
  const failure = await removeReportFiles(
    ctx.workspace,
    [prepared.files.report, prepared.files.reporter],
    prepared.createdFolders,
  );
  if (failure) log.warn('Could not remove the test report of this run.', { error: failure });
  return parsed;
}

/** The output without the lines runners print about the report (jest's "Test results written to", vitest's, pytest's). */
export function withoutReportLines(output: string, prepared: PreparedReport): string {
  if (!output.includes(prepared.token)) return output;
  return output
    .split('\n')
    .filter((line) => !line.includes(prepared.token))
    .join('\n');
}
