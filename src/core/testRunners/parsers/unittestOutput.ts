import { stripAnsi, type TestCounts } from './testCounts';

/**
 * Reads `python -m unittest`'s summary: `Ran 5 tests in 0.001s`, then `OK`, `OK (skipped=1)`, `FAILED (failures=1,
 * errors=1, skipped=1, expected failures=1)` or `NO TESTS RAN`. An error is a failed test (an exception in its body is
 * unittest's usual red); an unexpected success fails the run, so it is failed too; skipped tests and expected failures
 * are neither passed nor failed. A test module that cannot be imported, which unittest counts as one failed test, makes
 * the whole run an error, as a collection error does with pytest (`diagnoseLoadError`).
 */
export function parseUnittestOutput(output: string): TestCounts | undefined {
  const text = stripAnsi(output);
  const runs = [...text.matchAll(/^Ran (\d+) tests? in [\d.]+s\s*\n\s*\n?(OK|FAILED|NO TESTS RAN)\b(?: \(([^)\n]*)\))?/gm)];
  const last = runs.pop();
  if (!last) return undefined;
  const total = Number(last[1]);
  const counts = new Map<string, number>();
  for (const m of (last[3] ?? '').matchAll(/([a-z ]+)=(\d+)/g)) counts.set(m[1]!.trim(), Number(m[2]));
  const get = (word: string): number => counts.get(word) ?? 0;
  const failed = get('failures') + get('errors') + get('unexpected successes');
  const passed = Math.max(0, total - failed - get('skipped') - get('expected failures'));
  return { passed, failed, total };
}
