import { countsByWord, stripAnsi, type TestCounts } from './testCounts';

/** Reads jest's `Tests:       1 failed, 2 passed, 3 total` line. */
export function parseJestOutput(output: string): TestCounts | undefined {
  const line = [...stripAnsi(output).matchAll(/^[ \t]*Tests:\s+(.*\d+ total.*)$/gm)].pop();
  if (!line) return undefined;
  const counts = countsByWord(line[1]);
  return { passed: counts.get('passed') ?? 0, failed: counts.get('failed') ?? 0, total: counts.get('total') ?? 0 };
}
