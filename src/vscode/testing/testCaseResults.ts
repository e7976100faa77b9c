/**
 * The kata's individual tests and their results for the Testing view. Preferred: the run's own per-test results
 * (`TestRunResult.tests`, read from the runner's machine-readable report; see {@link casesFromReport}). Otherwise
 * they are read from the run's console output: node:test's TAP and spec reporters, mocha / jest / vitest
 * tick-and-cross lines and pytest's `path::name PASSED|FAILED` lines. Pure (no `vscode`), so the Testing view's
 * content is unit-tested on its own.
 */
import type { TestCaseResult as ReportedTestCase } from '../../core';

/** One test of a run: its name, whether it passed, and for a failure the assertion text and where it is. */
export interface TestCaseResult {
  /** The test's identity across runs (`<file>::<full name>`) when the runner's report gave it; else the name is. */
  id?: string;
  name: string;
  passed: boolean;
  /** True for a skipped (or todo) test: neither passed nor failed. */
  skipped?: boolean;
  /** The failure's message (assertion text), at most {@link MAX_MESSAGE_LINES} lines. */
  message?: string;
  /** Where the test is, as the runner printed it (absolute or relative to the worktree), with a 1-based line. */
  location?: { path: string; line: number };
}

/**
 * The view's tests from a run's own per-test results: the id and full name as the report gives them, skipped tests
 * as skipped, the message cut to {@link MAX_MESSAGE_LINES} lines, and the test's file (worktree-relative) and line.
 */
export function casesFromReport(tests: readonly ReportedTestCase[]): TestCaseResult[] {
  return tests.map((test) => {
    const message = test.message?.split('\n').slice(0, MAX_MESSAGE_LINES).join('\n');
    return {
      id: test.id,
      name: test.name,
      passed: test.outcome === 'passed',
      ...(test.outcome === 'skipped' ? { skipped: true } : {}),
      ...(test.outcome === 'failed' && message ? { message } : {}),
      ...(test.file ? { location: { path: test.file, line: test.line ?? 1 } } : {}),
    };
  });
}

/** Lines of a failure message kept per test. */
export const MAX_MESSAGE_LINES = 12;

const DURATION = /\s+\(\d+(?:\.\d+)?\s*m?s\)$/;
const PASS_MARK = /^(\s*)(?:✔|✓|√)\s+(.+)$/;
const FAIL_MARK = /^(\s*)(?:✖|✗|✕|×)\s+(.+)$/;
const TAP = /^(\s*)(not ok|ok)\s+\d+\s+-\s+(.+?)(?:\s+#\s*(?:SKIP|TODO).*)?$/i;
const PYTEST = /^(\S+\.py)::(\S+)\s+(PASSED|FAILED|ERROR)\b/;
const LOCATION = /(?:location:\s*'|test at\s+|\()(?:file:\/\/)?([^\s'()]+?\.[A-Za-z]{1,4}):(\d+)(?::\d+)?/;

/** Tests of one run's output in the order the runner printed them; a name seen twice keeps its first result unless a later one adds a failure's message. */
export function parseTestCases(output: string): TestCaseResult[] {
  const lines = output.replace(/\r\n/g, '\n').split('\n');
  const byName = new Map<string, TestCaseResult>();
  const add = (result: TestCaseResult): void => {
    const known = byName.get(result.name);
    if (!known) byName.set(result.name, result);
    else if (!known.passed && !known.message && result.message)
      byName.set(result.name, { ...known, message: result.message, location: known.location ?? result.location });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const tap = TAP.exec(line);
    if (tap) {
      const passed = tap[2]!.toLowerCase() === 'ok';
      add({ name: tap[3]!.trim(), passed, ...(passed ? {} : tapFailure(lines, i + 1, tap[1]!.length)) });
      continue;
    }
    const pytest = PYTEST.exec(line);
    if (pytest) {
      add({ name: `${pytest[1]}::${pytest[2]}`, passed: pytest[3] === 'PASSED', location: { path: pytest[1]!, line: 1 } });
      continue;
    }
    const pass = PASS_MARK.exec(line);
    if (pass) {
      add({ name: pass[2]!.replace(DURATION, '').trim(), passed: true });
      continue;
    }
    const fail = FAIL_MARK.exec(line);
    if (fail && !/failing tests:?$/.test(fail[2]!)) {
      add({ name: fail[2]!.replace(DURATION, '').trim(), passed: false, ...indentedFailure(lines, i, fail[1]!.length) });
    }
  }
  return [...byName.values()];
}

/** The YAML block under a TAP `not ok` line: `error: |-` text and `location: '…:line:col'`. */
function tapFailure(lines: string[], from: number, indent: number): Pick<TestCaseResult, 'message' | 'location'> {
  const message: string[] = [];
  let location: TestCaseResult['location'];
  let inError = false;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    const depth = line.length - line.trimStart().length;
    if (line.trim() === '...' || (line.trim() !== '' && depth <= indent && !line.trimStart().startsWith('---'))) break;
    const found = LOCATION.exec(line);
    if (found && /location:/.test(line)) location = { path: found[1]!, line: Number(found[2]) };
    if (/^\s*error:\s*\|-?\s*$/.test(line)) {
      inError = true;
      continue;
    }
    const single = /^\s*error:\s*'(.*)'\s*$/.exec(line);
    if (single) message.push(single[1]!);
    if (inError) {
      if (/^\s*[A-Za-z_]+:/.test(line) && depth <= indent + 2) inError = false;
      else if (message.length < MAX_MESSAGE_LINES) message.push(line.trim());
    }
  }
  return withoutEmpty(message, location);
}

/** The indented lines under a spec/mocha/jest `✖ name` line, up to the stack trace; the first `file:line` seen is the location. */
function indentedFailure(lines: string[], at: number, indent: number): Pick<TestCaseResult, 'message' | 'location'> {
  const message: string[] = [];
  const before = lines[at - 1] ?? '';
  const above = /^test at\s/.test(before.trim()) ? LOCATION.exec(before) : null;
  let location: TestCaseResult['location'] = above ? { path: above[1]!, line: Number(above[2]) } : undefined;
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const depth = line.length - line.trimStart().length;
    if (line.trim() !== '' && depth <= indent) break;
    if (/^\s*at\s/.test(line)) {
      const found = LOCATION.exec(line);
      if (found && !location && !/node:|node_modules/.test(found[1]!)) location = { path: found[1]!, line: Number(found[2]) };
      continue;
    }
    if (/^\s*(?:\{|\}|[a-zA-Z]+: .*,?$)/.test(line) && message.length > 0 && /\{\s*$/.test(lines[i - 1] ?? '')) break;
    if (message.length < MAX_MESSAGE_LINES) message.push(line.trim());
  }
  return withoutEmpty(message, location);
}

function withoutEmpty(message: string[], location: TestCaseResult['location']): Pick<TestCaseResult, 'message' | 'location'> {
  const text = message
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { ...(text ? { message: text } : {}), ...(location ? { location } : {}) };
}
