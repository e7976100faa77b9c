import { stripAnsi, type TestCounts } from './testCounts';

function lastNumber(text: string, label: string): number | undefined {
  // TAP reporter: "# pass 3"; spec reporter (Node ≥ 22 default, or a TTY): "ℹ pass 3".
  const re = new RegExp(`^(?:#|ℹ)\\s+${label}\\s+(\\d+)\\s*$`, 'gm');
  let value: number | undefined;
  for (const match of text.matchAll(re)) value = Number(match[1]);
  return value;
}

/**
 * node:test reports a test file that defines no tests as one passing "test" named after the file
 * (`ok 3 - /abs/test/empty.test.js` in TAP, `✔ /abs/test/empty.test.js (1ms)` in spec). Those are not tests.
 */
function passingFileEntries(text: string): number {
  const tap = text.match(/^ok \d+ - (?:\/|[A-Za-z]:\\)\S*\.[cm]?[jt]sx?\s*$/gm) ?? [];
  const spec = text.match(/^✔ (?:\/|[A-Za-z]:\\)\S*\.[cm]?[jt]sx? \([\d.]+m?s\)\s*$/gm) ?? [];
  return tap.length + spec.length;
}

/** Reads node:test's summary (`# tests N / # pass N / # fail N` in TAP, `ℹ tests N …` in the spec reporter). */
export function parseNodeTestOutput(output: string): TestCounts | undefined {
  const text = stripAnsi(output);
  const total = lastNumber(text, 'tests');
  const pass = lastNumber(text, 'pass');
  const fail = lastNumber(text, 'fail');
  if (total === undefined || pass === undefined || fail === undefined) return undefined;
  const cancelled = lastNumber(text, 'cancelled') ?? 0;
  const files = Math.min(passingFileEntries(text), pass, total);
  return { passed: pass - files, failed: fail + cancelled, total: total - files };
}
