import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestReportError } from '../errors';
import { stripAnsi, type TestCounts } from '../parsers/testCounts';
import type { TestCaseOutcome, TestCaseResult } from '../types';

/** What a report parser knows besides the report: where the run ran, and what it printed. */
export interface ReportContext {
  /** The workspace as the host names it. */
  workspace: string;
  /** Its real path: what the runner saw as its working folder (the sandbox binds the real path). */
  realWorkspace: string;
  /** The run's console output (pytest names its rootdir there). */
  output: string;
}

/** Each test of a report, and the counts the runner's console summary would give for the same run. */
export interface ParsedReport {
  tests: TestCaseResult[];
  counts: TestCounts;
}

/** Lines of a failure message kept per test (the Testing view shows as many). */
export const MAX_MESSAGE_LINES = 12;
const MAX_MESSAGE_CHARS = 2_000;
const MAX_NAME_CHARS = 1_000;
/** Separator of the describe blocks and the title in a test's full name. */
export const NAME_SEPARATOR = ' > ';

/**
 * A file a report names, workspace-relative with forward slashes: absolute paths (or `file:` URLs) below the
 * workspace or its real path, or paths relative to `base` (default: the workspace). Undefined for anything outside.
 */
export function workspaceFile(ctx: ReportContext, file: unknown, base?: string): string | undefined {
  if (typeof file !== 'string' || file === '' || file.includes('\0')) return undefined;
  let path = file;
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path);
    } catch {
      return undefined;
    }
  }
  const candidates = isAbsolute(path)
    ? [relative(ctx.realWorkspace, path), relative(ctx.workspace, path)]
    : [relative(ctx.realWorkspace, `${base ?? ctx.realWorkspace}${sep}${path}`)];
  const inside = candidates.find((rel) => rel !== '' && !rel.startsWith('..') && !isAbsolute(rel));
  return inside?.split(sep).join('/');
}

/** A failure's message as a person reads it: no colour codes, no stack frames, at most 12 lines and 2,000 characters. */
export function failureMessage(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const lines = stripAnsi(text)
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((line) => !/^\s+at\s\S/.test(line));
  const kept = lines
    .slice(0, MAX_MESSAGE_LINES)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!kept) return undefined;
  return kept.length > MAX_MESSAGE_CHARS ? `${kept.slice(0, MAX_MESSAGE_CHARS)}…` : kept;
}

/** The parts of a test a report gives. */
export interface ReportedTest {
  /** Describe blocks (or classes) and the title, outermost first. */
  path: readonly string[];
  file?: string;
  outcome: TestCaseOutcome;
  message?: string;
  line?: number;
  durationMs?: number;
}

/** A {@link TestCaseResult}: its full name, its id (`<file>::<full name>`), and only the fields that are known. */
export function testCase(reported: ReportedTest): TestCaseResult {
  const joined = reported.path.filter((part) => part !== '').join(NAME_SEPARATOR);
  const name = joined.length > MAX_NAME_CHARS ? `${joined.slice(0, MAX_NAME_CHARS)}…` : joined;
  const result: TestCaseResult = { id: reported.file ? `${reported.file}::${name}` : name, name, outcome: reported.outcome };
  if (reported.file) result.file = reported.file;
  if (reported.message) result.message = reported.message;
  if (reported.line !== undefined && Number.isSafeInteger(reported.line) && reported.line > 0) result.line = reported.line;
  if (reported.durationMs !== undefined && Number.isFinite(reported.durationMs) && reported.durationMs >= 0)
    result.durationMs = Math.round(reported.durationMs * 1000) / 1000;
  return result;
}

const RANK: Record<TestCaseOutcome, number> = { skipped: 0, passed: 1, failed: 2 };

/**
 * One result per id, in report order: a test reported twice (two tests with the same name in one file, or mocha's
 * second failure of a test that called `done` twice) keeps its worst outcome, so a failure is never hidden.
 */
export function onePerId(tests: readonly TestCaseResult[]): TestCaseResult[] {
  const byId = new Map<string, TestCaseResult>();
  for (const test of tests) {
    const known = byId.get(test.id);
    if (!known || RANK[test.outcome] > RANK[known.outcome]) byId.set(test.id, test);
  }
  return [...byId.values()];
}

/** Counts of a list of results (passed, failed; total counts the skipped too). */
export function countsOf(tests: readonly TestCaseResult[]): TestCounts {
  const passed = tests.filter((t) => t.outcome === 'passed').length;
  const failed = tests.filter((t) => t.outcome === 'failed').length;
  return { passed, failed, total: tests.length };
}

/**
 * The 1-based line of the first stack frame in one of `files` (absolute, or relative as mocha prints them:
 * `(test/x.test.js:12:5)`), when a failure's stack names one. A file name only counts as a whole path (after a
 * space, a parenthesis or `file://`), so `test/x.test.js` does not match inside `other/test/x.test.js`.
 */
export function lineInFile(text: unknown, files: readonly (string | undefined)[]): number | undefined {
  if (typeof text !== 'string') return undefined;
  for (const file of files) {
    if (!file) continue;
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const found = new RegExp(`(?:^|[\\s(]|file://)${escaped}:(\\d+)`, 'm').exec(text);
    if (found) return Number(found[1]);
  }
  return undefined;
}

/** Narrowing helpers for parsed JSON whose shape nobody promised. */
export const json = {
  /** The value when it is a plain object. */
  object(value: unknown): Record<string, unknown> | undefined {
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  },
  /** The value when it is an array. */
  array(value: unknown): unknown[] | undefined {
    return Array.isArray(value) ? value : undefined;
  },
  /** The value when it is a string. */
  string(value: unknown): string | undefined {
    return typeof value === 'string' ? value : undefined;
  },
  /** The value when it is a finite number. */
  number(value: unknown): number | undefined {
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  },
};

/** Parses a report's JSON text, or throws {@link TestReportError} (never with the text in the message). */
export function parseJsonReport(text: string, runner: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new TestReportError(`The ${runner} report is not valid JSON.`, { runner, bytes: text.length }, { cause });
  }
}
