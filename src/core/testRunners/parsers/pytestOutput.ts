import { countsByWord, stripAnsi, type TestCounts } from './testCounts';

/** A node id in a line of pytest's short test summary: `FAILED tests/t.py::T::test_a - message`. */
const SUMMARY_ID = String.raw`(\S*::.*?)(?: - .*)?$`;

/**
 * The tests of the short test summary whose subtests failed (pytest 9's `SUBFAILED(x=1) tests/t.py::T::test_a`, one line
 * per failing subtest), and those that failed themselves (`FAILED …`).
 */
function subtestFailures(text: string): { lines: number; tests: Set<string>; failed: Set<string> } {
  const tests = new Set<string>();
  const failed = new Set<string>();
  let lines = 0;
  for (const m of text.matchAll(new RegExp(String.raw`^SUBFAILED.*?\s${SUMMARY_ID}`, 'gm'))) {
    lines++;
    tests.add(m[1]!);
  }
  if (lines > 0) for (const m of text.matchAll(new RegExp(String.raw`^FAILED ${SUMMARY_ID}`, 'gm'))) failed.add(m[1]!);
  return { lines, tests, failed };
}

/**
 * Reads pytest's final summary: `=== 1 failed, 2 passed in 0.05s ===`, the `-q` form without the
 * rulers, `1 error in …` for collection errors, and `no tests ran in …`.
 *
 * Subtests (pytest 9's `subtests` fixture, unittest's `subTest`) are not tests: the summary's `N subtests passed` (and
 * skipped) is left out, and its `failed`, which counts every failing subtest, is counted again by test from the short
 * test summary's `SUBFAILED` lines: a test with failing subtests is one failed test, also a unittest one pytest reports
 * as passed.
 */
export function parsePytestOutput(output: string): TestCounts | undefined {
  const text = stripAnsi(output);
  const lines = [...text.matchAll(/^=*[ \t]*((?:\d+ (?:subtests )?[a-z]+(?:, )?)+|no tests ran)\s+in\s+[\d.]+m?s\b.*$/gm)];
  const last = lines.pop();
  if (!last) return undefined;
  if (last[1] === 'no tests ran') return { passed: 0, failed: 0, total: 0 };
  const counts = countsByWord(last[1].replace(/\d+ subtests [a-z]+(?:, )?/g, ''));
  const get = (word: string): number => counts.get(word) ?? 0;
  const errors = get('error') + get('errors');
  let passed = get('passed');
  let failed = get('failed');
  const subtests = subtestFailures(text);
  if (subtests.lines > 0 && subtests.lines <= failed) {
    // Each SUBFAILED line is one of `failed`; a test whose subtests failed counts once, as failed. One that did not
    // fail itself (no FAILED line: a unittest TestCase's method) was counted as passed.
    const passedToo = [...subtests.tests].filter((id) => !subtests.failed.has(id)).length;
    failed = failed - subtests.lines + passedToo;
    passed = Math.max(0, passed - passedToo);
  }
  return { passed, failed, errors, total: passed + failed + errors + get('skipped') + get('xfailed') + get('xpassed') };
}
