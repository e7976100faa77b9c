import { stripAnsi, type TestCounts } from './testCounts';

/**
 * Surefire's summary of one module, under `Results:` (`[ERROR] Tests run: 7, Failures: 1, Errors: 1, Skipped: 1`);
 * each class's own line ends with `, Time elapsed: …` and is not counted again.
 */
const SUMMARY = /^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$/;

/**
 * The counts of a Maven run: the sum of each module's Surefire summary (a multi-module build prints one per module);
 * errors and failures are `failed`, skipped tests count in the total only. `No tests to run.` alone is none; undefined
 * when Maven stopped before Surefire ran (a compile error).
 */
export function parseSurefireOutput(output: string): TestCounts | undefined {
  let found = false;
  const counts = { passed: 0, failed: 0, total: 0 };
  for (const line of stripAnsi(output).split('\n')) {
    const m = SUMMARY.exec(line.trimEnd());
    if (!m) continue;
    found = true;
    const [total, failures, errors, skipped] = m.slice(1).map(Number) as [number, number, number, number];
    counts.total += total;
    counts.failed += failures + errors;
    counts.passed += Math.max(0, total - failures - errors - skipped);
  }
  if (found) return counts;
  return /^(?:\[\w+\]\s+)?No tests to run\.\s*$/m.test(stripAnsi(output)) ? { passed: 0, failed: 0, total: 0 } : undefined;
}
