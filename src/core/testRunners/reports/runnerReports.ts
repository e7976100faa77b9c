import { parseCargoTestReport } from './cargoTestReport';
import { shellWord } from './commandLine';
import { goTestConsoleText, parseGoTestReport } from './goTestReport';
import { parseJestReport } from './jestReport';
import { mochaReporterModule, parseMochaReport } from './mochaReport';
import { NODE_TEST_REPORTER_URL, nodeTestConsoleReporter, parseNodeTestReport } from './nodeTestReport';
import { parseMinitestReport, prepareMinitestReport, readMinitestReport } from './minitestReport';
import { parsePhpunitReport } from './phpunitReport';
import { parsePytestReport } from './pytestReport';
import { parseRspecReport } from './rspecReport';
import { clearSurefireReports, parseSurefireReport, readSurefireReports } from './surefireReport';
import type { ReportingKind } from './reportCommand';
import type { ParsedReport, ReportContext } from './reportedTest';

/** The files of one run's report, below the workspace. */
export interface ReportFiles {
  /** The report, workspace-relative (`.tdd/reports/<random>.json`): relative paths resolve against the run's cwd. */
  report: string;
  /** The report's absolute path as the runner sees it (the workspace's real path). */
  absoluteReport: string;
  /** A module the runner loads to write the report (mocha), workspace-relative. */
  reporter: string;
}

/** How one runner is asked for its report, and how the report is read. */
export interface RunnerReportAdapter {
  /** The report file's extension. */
  extension: 'jsonl' | 'json' | 'xml';
  /**
   * `output`: the runner writes its report to stdout (`go test -json`), no file is made, and the report is the run's
   * output; {@link RunnerReportAdapter.consoleText} gives what a person would have read instead. `build`: the runner
   * writes its reports where the build puts them (Surefire's `target/surefire-reports`), cleared before the run and
   * read after it by {@link RunnerReportAdapter.buildReports}. Default `file`.
   */
  source?: 'file' | 'output' | 'build';
  /** For reports the build writes: how the earlier run's are removed, and how this run's are read as one text. */
  buildReports?: { clear(workspace: string): Promise<void>; read(workspace: string): Promise<string> };
  /** For a report on stdout: the console text a person reads, made from the report (each test's own output). */
  consoleText?(output: string): string;
  /** Flags, each one shell word, that make the runner write the report and keep its usual console output. */
  flags(files: ReportFiles): string[];
  /** The source of a module the run loads to write the report, written to `files.reporter` before the run. */
  reporterModule?(files: ReportFiles): string;
  /** Each test and the counts; throws (or rejects with) TestReportError when the text is not the runner's report. */
  parse(text: string, ctx: ReportContext): ParsedReport | Promise<ParsedReport>;
}

/**
 * One adapter per runner:
 * - node:test: node's console reporter named again for stdout (see nodeTestConsoleReporter) and a custom reporter,
 *   loaded from a `data:` URL, writing JSON lines (`--test-reporter`/`--test-reporter-destination` pairs);
 * - jest: `--json --outputFile=<file> --testLocationInResults` (the console reporter still prints to stderr);
 * - vitest: `--reporter=default --reporter=json --outputFile.json=<absolute file>` (vitest resolves the output
 *   against its root, which a config may move);
 * - mocha: `--reporter=<module>`, a module that runs mocha's Spec reporter for the console and writes the report;
 * - pytest: `--junitxml=<file> -o junit_family=xunit1` (xunit1 keeps each test's `file` and `line`);
 * - go test: `-json`, right after `go test`: the events go to stdout in place of the console text, which is made again
 *   from them (`goTestConsoleText`); no file;
 * - cargo test: no machine-readable report on a stable toolchain, so its console output is read test by test
 *   (`parseCargoTestReport`), with `--no-fail-fast` right after `cargo test` so that every test binary runs;
 * - Maven: `-o -B` right after `mvn` (offline, batch mode: no colours); Surefire writes `TEST-<class>.xml` in each
 *   module's `target/surefire-reports`, which no command-line option moves: cleared before the run, read after it;
 * - PHPUnit: `--log-junit=<file> --do-not-cache-result` right after `phpunit` (its JUnit XML; no `.phpunit.result.cache`
 *   left in the worktree for a commit to take);
 * - RSpec: `--format progress --format json --out <file>` right after `rspec` (formatters on the command line replace
 *   those of `.rspec`, so the console's is named again: RSpec's default, progress).
 - minitest: nothing on the command line (`rake test` passes no option on): a plugin of ours on ruby's load path
 *   writes each test's line (see minitestReport.ts).
 */
export const RUNNER_REPORTS: Readonly<Record<ReportingKind, RunnerReportAdapter>> = {
  'node-test': {
    extension: 'jsonl',
    flags: ({ report }) => [
      `--test-reporter=${nodeTestConsoleReporter()}`,
      '--test-reporter-destination=stdout',
      shellWord(`--test-reporter=${NODE_TEST_REPORTER_URL}`),
      shellWord(`--test-reporter-destination=${report}`),
    ],
    parse: parseNodeTestReport,
  },
  jest: {
    extension: 'json',
    flags: ({ report }) => ['--json', shellWord(`--outputFile=${report}`), '--testLocationInResults'],
    parse: (text, ctx) => parseJestReport(text, ctx, 'jest'),
  },
  vitest: {
    extension: 'json',
    flags: ({ absoluteReport }) => ['--reporter=default', '--reporter=json', shellWord(`--outputFile.json=${absoluteReport}`)],
    parse: (text, ctx) => parseJestReport(text, ctx, 'vitest'),
  },
  mocha: {
    extension: 'json',
    flags: ({ reporter }) => [shellWord(`--reporter=./${reporter}`)],
    reporterModule: ({ report }) => mochaReporterModule(report),
    parse: parseMochaReport,
  },
  pytest: {
    extension: 'xml',
    flags: ({ report }) => [shellWord(`--junitxml=${report}`), '-o', 'junit_family=xunit1'],
    parse: parsePytestReport,
  },
  'go-test': {
    extension: 'jsonl',
    source: 'output',
    flags: () => ['-json'],
    consoleText: goTestConsoleText,
    parse: parseGoTestReport,
  },
  'cargo-test': {
    extension: 'json',
    source: 'output',
    // cargo names each test binary on stderr and the binary prints its tests on stdout: read from two pipes, a header
    // and the lines after it can arrive in either order on a busy machine, and a test is then placed in the wrong
    // file. One pipe keeps the order they were written in.
    flags: () => ['--no-fail-fast', '2>&1'],
    parse: parseCargoTestReport,
  },
  rspec: {
    extension: 'json',
    flags: ({ report }) => ['--format', 'progress', '--format', 'json', '--out', shellWord(report)],
    parse: parseRspecReport,
  },
  maven: {
    extension: 'xml',
    source: 'build',
    flags: () => ['-o', '-B'],
    buildReports: { clear: clearSurefireReports, read: readSurefireReports },
    parse: parseSurefireReport,
  },
  phpunit: {
    extension: 'xml',
    flags: ({ report }) => [shellWord(`--log-junit=${report}`), '--do-not-cache-result'],
    parse: parsePhpunitReport,
  },
  minitest: {
    extension: 'json',
    source: 'build',
    flags: () => [],
    buildReports: { clear: prepareMinitestReport, read: readMinitestReport },
    parse: parseMinitestReport,
  },
};
