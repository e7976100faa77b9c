import { stripAnsi, type TestCounts } from './testCounts';

/** libtest's summary of one test binary: `test result: FAILED. 2 passed; 2 failed; 1 ignored; 0 measured; …`. */
export const RESULT_LINE = /^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored;/;

/** The counts of a `cargo test` run: the sum of every binary's `test result:` line (undefined when there is none). */
export function cargoTestCounts(output: string): TestCounts | undefined {
  let passed = 0;
  let failed = 0;
  let ignored = 0;
  let found = false;
  for (const line of stripAnsi(output).split('\n')) {
    const m = RESULT_LINE.exec(line);
    if (!m) continue;
    found = true;
    passed += Number(m[1]);
    failed += Number(m[2]);
    ignored += Number(m[3]);
  }
  return found ? { passed, failed, total: passed + failed + ignored } : undefined;
}
