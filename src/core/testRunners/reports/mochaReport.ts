import { TestReportError } from '../errors';
import type { TestCaseResult } from '../types';
import {
  countsOf,
  failureMessage,
  json,
  lineInFile,
  onePerId,
  parseJsonReport,
  testCase,
  workspaceFile,
  type ParsedReport,
  type ReportContext,
} from './reportedTest';

/**
 * Mocha takes one reporter. To keep the console the person knows (the `spec` reporter, mocha's default) and still
 * get each test's result, the run loads this reporter module, written next to the report for the run and removed
 * after it: it creates mocha's own Spec reporter on the same runner (found in the running mocha, so a global or
 * `npx` mocha works too) and writes `{ "tests": [...], "end": true }` to the report when the run ends. A mocha
 * that cannot be found leaves the console empty; the counts then come from the report.
 */
export function mochaReporterModule(reportPath: string): string {
  return `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const REPORT = path.resolve(process.cwd(), ${JSON.stringify(reportPath)});
function runningSpec() {
  for (const key of Object.keys(require.cache)) {
    const loaded = require.cache[key] && require.cache[key].exports;
    if (!loaded) continue;
    if (/[\\\\/]mocha[\\\\/]lib[\\\\/]mocha\\.c?js$/.test(key) && loaded.reporters && loaded.reporters.Spec) return loaded.reporters.Spec;
    if (/[\\\\/]mocha[\\\\/]lib[\\\\/]reporters[\\\\/]index\\.c?js$/.test(key) && loaded.Spec) return loaded.Spec;
  }
  const from = [process.cwd()];
  if (process.argv[1]) from.push(path.dirname(process.argv[1]));
  try {
    const mocha = require(require.resolve('mocha', { paths: from }));
    return mocha && mocha.reporters && mocha.reporters.Spec;
  } catch {
    return undefined;
  }
}
function titles(runnable) {
  if (typeof runnable.titlePath === 'function') return runnable.titlePath();
  const out = [];
  for (let r = runnable; r; r = r.parent) if (r.title) out.unshift(r.title);
  return out;
}
function TddAgentMochaReporter(runner, options) {
  const Spec = runningSpec();
  if (Spec) this.console = new Spec(runner, options);
  const tests = [];
  const record = (outcome) => (test, error) => {
    tests.push({
      titles: titles(test).map(String),
      file: typeof test.file === 'string' ? test.file : undefined,
      outcome,
      hook: test.type === 'hook',
      durationMs: typeof test.duration === 'number' ? test.duration : undefined,
      message: error && typeof error.message === 'string' ? error.message : error === undefined ? undefined : String(error),
      stack: error && typeof error.stack === 'string' ? error.stack.slice(0, 4000) : undefined,
    });
  };
  runner.on('pass', record('passed'));
  runner.on('fail', record('failed'));
  runner.on('pending', record('skipped'));
  runner.once('end', () => fs.writeFileSync(REPORT, JSON.stringify({ tests, end: true })));
}
module.exports = TddAgentMochaReporter;
`;
}

/**
 * Reads the report of {@link mochaReporterModule}: one result per test (`titlePath` joined as the full name), a
 * failed hook as a failed entry named after the hook (mocha's summary counts it among the failures), a pending test
 * as `skipped`. The line is the first stack frame in the test's file. Throws {@link TestReportError} when the report
 * is not that.
 */
export function parseMochaReport(text: string, ctx: ReportContext): ParsedReport {
  const report = json.object(parseJsonReport(text, 'mocha'));
  const entries = json.array(report?.tests);
  if (!report || report.end !== true || !entries)
    throw new TestReportError('The mocha report is not the reporter’s.', { runner: 'mocha' });
  const tests: TestCaseResult[] = [];
  for (const entry of entries) {
    const e = json.object(entry);
    const titles = json.array(e?.titles);
    const outcome = e?.outcome;
    if (!e || !titles || (outcome !== 'passed' && outcome !== 'failed' && outcome !== 'skipped'))
      throw new TestReportError('The mocha report has an entry that is not a test.', { runner: 'mocha' });
    const absolute = json.string(e.file);
    const file = workspaceFile(ctx, absolute);
    tests.push(
      testCase({
        path: titles.map((t) => (typeof t === 'string' ? t : '')),
        file,
        outcome,
        message: outcome === 'failed' ? (failureMessage(e.message) ?? 'failed') : undefined,
        line: outcome === 'failed' ? lineInFile(e.stack, [absolute, file]) : undefined,
        durationMs: json.number(e.durationMs),
      }),
    );
  }
  return { tests: onePerId(tests), counts: countsOf(tests) };
}
