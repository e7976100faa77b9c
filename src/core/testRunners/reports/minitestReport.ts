import { isAbsolute, relative, sep } from 'node:path';
import { removeTreeEntry, writeTreeFile } from '../../workspaceSandbox/untrustedTree';
import { TestReportError } from '../errors';
import { stripAnsi } from '../parsers/testCounts';
import type { TestCaseOutcome, TestCaseResult } from '../types';
import { readReport } from './reportFile';
import { countsOf, failureMessage, onePerId, testCase, type ParsedReport, type ReportContext } from './reportedTest';

/**
 * minitest has no machine-readable report in Ruby's standard library, and a run's command is often `rake test`, which
 * passes no option on. So the report comes from a minitest plugin of ours: minitest loads every
 * `minitest/*_plugin.rb` on the load path, the run puts this folder on it (`RUBYLIB`, see `minitestReporting`), and
 * the plugin appends one JSON line per test (class, name, the test's `source_location`, outcome, failure message) to
 * `report.jsonl` beside it: every ruby process the command starts (`rake test` starts one) adds its own lines.
 */
export const MINITEST_REPORT_DIR = '.tdd/minitest';
const REPORT = `${MINITEST_REPORT_DIR}/report.jsonl`;
const PLUGIN = `${MINITEST_REPORT_DIR}/minitest/tdd_agent_plugin.rb`;

const PLUGIN_SOURCE = `# tdd-agent's minitest reporter, written before each run and found by minitest's plugin search (RUBYLIB).
# One JSON line per test, appended to report.jsonl beside this folder (a run may start several ruby processes).
require "json"

module Minitest
  def self.plugin_tdd_agent_init(_options)
    reporter << TddAgentReport.new(File.expand_path("../report.jsonl", __dir__)) if reporter
  end

  class TddAgentReport < AbstractReporter
    def initialize(path)
      super()
      @path = path
    end

    def record(result)
      klass = result.respond_to?(:klass) ? result.klass : result.class.name
      file, line = result.respond_to?(:source_location) ? result.source_location : nil
      failure = result.failure
      outcome = result.skipped? ? "skipped" : (result.passed? ? "passed" : "failed")
      entry = { "class" => klass, "name" => result.name, "file" => file, "line" => line, "outcome" => outcome }
      entry["message"] = failure.message.to_s[0, 4000] if failure && !result.skipped?
      File.open(@path, "a") { |f| f.puts(JSON.generate(entry)) }
    end
  end
end
`;

/** Before a run: the plugin written afresh, the last run's lines gone. */
export async function prepareMinitestReport(workspace: string): Promise<void> {
  await removeTreeEntry(workspace, REPORT);
  await writeTreeFile(workspace, PLUGIN, Buffer.from(PLUGIN_SOURCE));
}

/** After a run: the lines the plugin wrote; TestReportError (`found: 'missing'`) when none, as a run that did not load. */
export function readMinitestReport(workspace: string): Promise<string> {
  return readReport(workspace, REPORT);
}

/** Each minitest summary of the run (one per ruby process): `5 runs, 3 assertions, 1 failures, 1 errors, 1 skips`. */
const MINITEST_RUNS = /^(\d+) runs, \d+ assertions, /gm;

/** A spec-style test's method name (`test_0001_adds two numbers`) as its `it` says it; a `def test_…` as written. */
function testName(name: string): string {
  return name.replace(/^test_\d{4}_/, '');
}

/**
 * Reads the plugin's lines: each test's file (workspace-relative, from the method's `source_location`; none when it
 * lies outside), its class and name (`test/leap_test.rb::LeapTest > test_divisible_by_four`), outcome and message. An
 * errored test (an exception in it) is a failed one, as in RSpec and PHPUnit.
 */
export function parseMinitestReport(text: string, ctx: ReportContext): ParsedReport {
  const tests: TestCaseResult[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new TestReportError('A line of the minitest report is not JSON.', { runner: 'minitest' });
    }
    if (typeof entry.class !== 'string' || typeof entry.name !== 'string') continue;
    const outcome: TestCaseOutcome = entry.outcome === 'passed' || entry.outcome === 'skipped' ? entry.outcome : 'failed';
    const absolute = typeof entry.file === 'string' && isAbsolute(entry.file) ? entry.file : undefined;
    const inside = absolute ? relative(ctx.realWorkspace, absolute) : undefined;
    const file = inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside.split(sep).join('/') : undefined;
    tests.push(
      testCase({
        path: [entry.class, testName(entry.name)],
        file,
        line: file && typeof entry.line === 'number' ? entry.line : undefined,
        outcome,
        message: outcome === 'failed' ? (failureMessage(entry.message) ?? 'failed') : undefined,
      }),
    );
  }
  // The report must be this run's whole minitest run: a suite on test-unit (rake's own) that starts one minitest
  // process among its tests leaves one line, which must not stand for its hundreds of tests.
  const runs = [...stripAnsi(ctx.output).matchAll(MINITEST_RUNS)].reduce((sum, m) => sum + Number(m[1]), 0);
  if (runs !== tests.length)
    throw new TestReportError(
      `The minitest report holds ${tests.length} tests where the run's summaries say ${runs}: it is not the whole run's.`,
      { runner: 'minitest' },
    );
  const unique = onePerId(tests);
  return { tests: unique, counts: countsOf(unique) };
}
