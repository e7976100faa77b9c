import { stripAnsi, type TestCounts } from './testCounts';

/** RSpec's summary line: `6 examples, 2 failures, 1 pending` (`, 1 error occurred outside of examples` when a file did not load). */
const RSPEC_SUMMARY =
  /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?\s*$/m;

/**
 * Reads RSpec's console summary (any formatter prints it): pending examples count in the total only; errors outside
 * of examples (a spec file that did not load, a failing `before(:suite)`) are `errors`, as pytest's collection errors.
 */
export function parseRspecOutput(output: string): TestCounts | undefined {
  const m = RSPEC_SUMMARY.exec(stripAnsi(output));
  if (!m) return undefined;
  const total = Number(m[1]);
  const failed = Number(m[2]);
  const pending = Number(m[3] ?? 0);
  const errors = Number(m[4] ?? 0);
  return { passed: total - failed - pending, failed, total, ...(errors > 0 ? { errors } : {}) };
}
