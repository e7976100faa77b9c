import { countsByWord, stripAnsi, type TestCounts } from './testCounts';

/**
 * Reads pytest's final summary: `=== 1 failed, 2 passed in 0.05s ===`, the `-q` form without the
 * rulers, `1 error in …` for collection errors, and `no tests ran in …`.
 */
export function parsePytestOutput(output: string): TestCounts | undefined {
  const text = stripAnsi(output);
  const lines = [...text.matchAll(/^=*\s*((?:\d+ [a-z]+(?:, )?)+|no tests ran)\s+in\s+[\d.]+m?s\b.*$/gm)];
  const last = lines.pop();
  if (!last) return undefined;
  if (last[1] === 'no tests ran') return { passed: 0, failed: 0, total: 0 };
  const counts = countsByWord(last[1]);
  const get = (word: string): number => counts.get(word) ?? 0;
  const errors = get('error') + get('errors');
  const passed = get('passed');
  const failed = get('failed');
  return { passed, failed, errors, total: passed + failed + errors + get('skipped') + get('xfailed') + get('xpassed') };
}
