import { stripAnsi, type TestCounts } from './testCounts';

/**
 * Reads PHPUnit's closing summary: `OK (5 tests, 7 assertions)`, or after `FAILURES!`, `ERRORS!`, `WARNINGS!` or `OK, but
 * incomplete, skipped, or risky tests!` the line `Tests: 7, Assertions: 4, Errors: 2, Failures: 1, Skipped: 1.`; `No tests
 * executed!` is none. A test that errored (`Error: Call to undefined function …`, `Class "X" not found`) ran and did not
 * pass, so errors count as failed, as they do in the report; skipped, incomplete and warned tests count in the total only.
 * Undefined when there is no summary (PHP stopped before PHPUnit could print one: a test file that does not parse).
 */
export function parsePhpunitOutput(output: string): TestCounts | undefined {
  const text = stripAnsi(output);
  if (/^No tests executed!\s*$/m.test(text)) return { passed: 0, failed: 0, total: 0 };
  const ok = [...text.matchAll(/^OK \((\d+) tests?, \d+ assertions?\)\s*$/gm)].pop();
  if (ok) return { passed: Number(ok[1]), failed: 0, total: Number(ok[1]) };
  const line = [...text.matchAll(/^Tests: (\d+), Assertions: \d+((?:, [A-Z][a-z]+: \d+)*)\.\s*$/gm)].pop();
  if (!line) return undefined;
  const count = (word: string): number => Number(new RegExp(`, ${word}: (\\d+)`).exec(line[2]!)?.[1] ?? 0);
  const total = Number(line[1]);
  const failed = count('Errors') + count('Failures');
  const notRun = count('Skipped') + count('Incomplete') + count('Warnings');
  return { passed: Math.max(0, total - failed - notRun), failed, total };
}
