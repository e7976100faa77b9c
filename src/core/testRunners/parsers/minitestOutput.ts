import { stripAnsi, type TestCounts } from './testCounts';

/** minitest's summary line: `4 runs, 2 assertions, 1 failures, 1 errors, 1 skips`. */
const MINITEST_SUMMARY = /^(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) skips\s*$/m;
/** test-unit's: `5 tests, 2 assertions, 1 failures, 1 errors, 1 pendings, 1 omissions, 0 notifications`. */
const TEST_UNIT_SUMMARY =
  /^(\d+) tests, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) pendings, (\d+) omissions, \d+ notifications\s*$/m;

/**
 * Reads the console summary of Ruby's two xUnit frameworks, which `rake test` and `ruby -Itest …` both run: minitest
 * (Ruby's default) and test-unit (the bundled gem older projects such as rake itself are tested with; a Ruby project
 * without RSpec is profiled as minitest either way). An error (an exception in a test) is a failed test, as in RSpec
 * and PHPUnit; a skip, a pending or an omission counts in the total only. When both summaries are printed, test-unit's
 * is the whole run's: a minitest summary beside it comes from a process one of its tests started. This is the
 * fallback when our minitest plugin's report (`reports/minitestReport.ts`) is absent or not the whole run.
 */
export function parseMinitestOutput(output: string): TestCounts | undefined {
  const text = stripAnsi(output);
  const unit = TEST_UNIT_SUMMARY.exec(text);
  if (unit) return counted(Number(unit[1]), Number(unit[2]) + Number(unit[3]), Number(unit[4]) + Number(unit[5]));
  const m = MINITEST_SUMMARY.exec(text);
  return m ? counted(Number(m[1]), Number(m[2]) + Number(m[3]), Number(m[4])) : undefined;
}

function counted(total: number, failed: number, skipped: number): TestCounts {
  return { passed: total - failed - skipped, failed, total };
}
