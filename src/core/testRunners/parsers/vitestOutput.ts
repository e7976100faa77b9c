import { countsByWord, stripAnsi, type TestCounts } from './testCounts';

/** Reads vitest's `Tests  1 failed | 2 passed (3)` line. */
export function parseVitestOutput(output: string): TestCounts | undefined {
  const line = [...stripAnsi(output).matchAll(/^[ \t]*Tests\s+(.*?)\s*\((\d+)\)\s*$/gm)].pop();
  if (!line) return undefined;
  const counts = countsByWord(line[1]);
  return { passed: counts.get('passed') ?? 0, failed: counts.get('failed') ?? 0, total: Number(line[2]) };
}
