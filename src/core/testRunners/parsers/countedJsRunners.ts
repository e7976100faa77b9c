import { stripAnsi, type TestCounts } from './testCounts';

/**
 * JavaScript runners read by their console counts only (no report is asked of them, each test is not known by name):
 * AVA, uvu, Jasmine, node-tap and tape. Each summary is the runner's own, recorded in `test/fixtures/js-runner-output`
 * (a failing tape run prints the TAP lines node:test does, which its parser reads). Skipped and todo tests count in the
 * total only.
 */

/**
 * AVA: `21 tests passed`, `1 test failed`, `1 known failure` (a `test.failing` that failed: as expected), `2 uncaught
 * exceptions`, `1 unhandled rejection`, `1 test skipped`, `1 test todo`. With a failure AVA prints no passed line: then
 * its verbose reporter's (the default when its output is not a terminal) `✔` lines are the passed tests.
 */
export function parseAvaOutput(output: string): TestCounts | undefined {
  const text = stripAnsi(output);
  const count = (re: RegExp): number | undefined => {
    const m = re.exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const passedLine = count(/^[ \t]*(\d+) tests? passed\s*$/m);
  const failedLine = count(/^[ \t]*(\d+) tests? failed\s*$/m);
  if (passedLine === undefined && failedLine === undefined) return undefined;
  const passed = (passedLine ?? [...text.matchAll(/^[ \t]*✔ /gm)].length) + (count(/^[ \t]*(\d+) known failures?\s*$/m) ?? 0);
  const failed =
    (failedLine ?? 0) +
    (count(/^[ \t]*(\d+) uncaught exceptions?\s*$/m) ?? 0) +
    (count(/^[ \t]*(\d+) unhandled rejections?\s*$/m) ?? 0);
  const skipped = (count(/^[ \t]*(\d+) tests? skipped\s*$/m) ?? 0) + (count(/^[ \t]*(\d+) tests? todo\s*$/m) ?? 0);
  return { passed, failed, total: passed + failed + skipped };
}

/** uvu: `Total: 2`, `Passed: 1`, `Skipped: 1` on lines of their own; its total leaves the skipped tests out. */
export function parseUvuOutput(output: string): TestCounts | undefined {
  const m = /^[ \t]*Total:[ \t]+(\d+)[ \t]*\n[ \t]*Passed:[ \t]+(\d+)[ \t]*\n[ \t]*Skipped:[ \t]+(\d+)[ \t]*$/m.exec(
    stripAnsi(output),
  );
  if (!m) return undefined;
  const [ran, passed, skipped] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return { passed, failed: ran - passed, total: ran + skipped };
}

/** Jasmine: `3 specs, 1 failure, 1 pending spec` (the pending part only when there are). */
export function parseJasmineOutput(output: string): TestCounts | undefined {
  const m = /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?\s*$/m.exec(stripAnsi(output));
  if (!m) return undefined;
  const [total, failed, pending] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  return { passed: total - failed - pending, failed, total };
}

/** node-tap 18 and later: `# { total: 3, pass: 1, fail: 1, skip: 1 }` (a key only when its count is not zero). */
export function parseNodeTapOutput(output: string): TestCounts | undefined {
  const m = /^# \{ (total: \d+(?:, \w+: \d+)*) \}\s*$/m.exec(stripAnsi(output));
  if (!m) return undefined;
  const counts = new Map(m[1]!.split(', ').map((pair) => [pair.split(': ')[0]!, Number(pair.split(': ')[1])] as const));
  return { passed: counts.get('pass') ?? 0, failed: counts.get('fail') ?? 0, total: counts.get('total') ?? 0 };
}

/**
 * tape's TAP summary when every test passed: `# tests 2`, `# pass  2`, then `# ok`, with no `# fail` line (which the
 * node:test parser needs, node:test printing `# fail 0`); a failing run's `# fail 1` is read by that parser first.
 */
export function parseTapeOutput(output: string): TestCounts | undefined {
  const text = stripAnsi(output);
  const tests = /^# tests\s+(\d+)\s*$/m.exec(text);
  const pass = /^# pass\s+(\d+)\s*$/m.exec(text);
  if (!tests || !pass) return undefined;
  const fail = Number(/^# fail\s+(\d+)\s*$/m.exec(text)?.[1] ?? 0);
  return { passed: Number(pass[1]), failed: fail, total: Number(tests[1]) };
}

/**
 * The commands of those runners: a step of a test script that starts one is the runner's step (`xo && ava && tsd`
 * runs `ava`, see `testScriptSteps.ts`).
 */
export const COUNTED_JS_RUNNERS: ReadonlySet<string> = new Set(['ava', 'uvu', 'jasmine', 'tap', 'tape']);

/** The runners above, in the order `custom` commands try them, after the runners the session reads test by test. */
export const COUNTED_JS_PARSERS = [
  parseAvaOutput,
  parseUvuOutput,
  parseJasmineOutput,
  parseNodeTapOutput,
  parseTapeOutput,
] as const;
