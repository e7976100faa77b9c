import { stripAnsi, type TestCounts } from './testCounts';

/** minitest's summary line: `4 runs, 2 assertions, 1 failures, 1 errors, 1 skips`. */
const MINITEST_SUMMARY = /^(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) skips\s*$/m;

/**
 * Reads minitest's console summary (`rake test`, `ruby -Itest …`): an error (an exception in a test) is a failed test,
 * as in RSpec and PHPUnit; a skip counts in the total only. minitest has no machine-readable report in Ruby's standard
 * library, so its runs are read by these counts, not test by test.
 */
export function parseMinitestOutput(output: string): TestCounts | undefined {
  const m = MINITEST_SUMMARY.exec(stripAnsi(output));
  if (!m) return undefined;
  const total = Number(m[1]);
  const failed = Number(m[2]) + Number(m[3]);
  return { passed: total - failed - Number(m[4]), failed, total };
}
