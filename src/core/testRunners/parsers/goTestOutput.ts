import { stripAnsi, type TestCounts } from './testCounts';

/**
 * Reads `go test -v` output (what `go test -json` prints, as its events' text): every `--- PASS:`, `--- FAIL:` and
 * `--- SKIP:` line is one test or subtest (subtests are indented). Undefined when there is none: plain `go test`
 * prints only `ok  pkg 0.01s` for a package that passes, which counts nothing.
 */
export function parseGoTestOutput(output: string): TestCounts | undefined {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const m of stripAnsi(output).matchAll(/^[ \t]*--- (PASS|FAIL|SKIP): \S/gm)) {
    if (m[1] === 'PASS') passed++;
    else if (m[1] === 'FAIL') failed++;
    else skipped++;
  }
  const total = passed + failed + skipped;
  return total === 0 ? undefined : { passed, failed, total };
}
