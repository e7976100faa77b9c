import { stripAnsi, type TestCounts } from './testCounts';

/** Reads mocha's spec/dot reporter summary (`N passing`, `N failing`, `N pending`). */
export function parseMochaOutput(output: string): TestCounts | undefined {
  const text = stripAnsi(output);
  const passing = /^[ \t]*(\d+) passing\b/m.exec(text);
  const failing = /^[ \t]*(\d+) failing\b/m.exec(text);
  const pending = /^[ \t]*(\d+) pending\b/m.exec(text);
  if (!passing && !failing) return undefined;
  const passed = passing ? Number(passing[1]) : 0;
  const failed = failing ? Number(failing[1]) : 0;
  return { passed, failed, total: passed + failed + (pending ? Number(pending[1]) : 0) };
}
