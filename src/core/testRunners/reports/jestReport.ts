import { TestReportError } from '../errors';
import type { TestCaseResult } from '../types';
import {
  countsOf,
  failureMessage,
  json,
  lineInFile,
  onePerId,
  parseJsonReport,
  testCase,
  workspaceFile,
  type ParsedReport,
  type ReportContext,
} from './reportedTest';

/**
 * Reads jest's `--json` report, and vitest's JSON reporter, which keeps jest's shape: `testResults[]` per file
 * (`name` is its absolute path) with `assertionResults[]` per test (`ancestorTitles`, `title`, `status`,
 * `failureMessages`, and `location` when asked for). `passed` and `failed` are themselves; `pending`, `skipped`,
 * `todo` and `disabled` are `skipped`. The message is the first failure's text without its stack; the line is the
 * test's own (`location`), else the first stack frame in the test's file. A file that could not run has no tests
 * here (its error is in the console output, which the runner diagnoses). Throws {@link TestReportError} when the
 * report is not of that shape.
 */
export function parseJestReport(text: string, ctx: ReportContext, runner: 'jest' | 'vitest' = 'jest'): ParsedReport {
  const report = json.object(parseJsonReport(text, runner));
  const files = json.array(report?.testResults);
  if (!report || !files) throw new TestReportError(`The ${runner} report has no testResults.`, { runner });
  const tests: TestCaseResult[] = [];
  for (const fileResult of files) {
    const f = json.object(fileResult);
    const assertions = json.array(f?.assertionResults);
    if (!f || !assertions) throw new TestReportError(`The ${runner} report has a file without assertionResults.`, { runner });
    const absolute = json.string(f.name);
    const file = workspaceFile(ctx, absolute);
    for (const assertion of assertions) {
      const a = json.object(assertion);
      const title = json.string(a?.title);
      const ancestors = json.array(a?.ancestorTitles) ?? [];
      const status = json.string(a?.status);
      if (!a || title === undefined || status === undefined)
        throw new TestReportError(`The ${runner} report has a test without a title or status.`, { runner });
      const outcome = status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'skipped';
      const failure = json.array(a.failureMessages)?.find((m) => typeof m === 'string');
      const location = json.object(a.location);
      tests.push(
        testCase({
          path: [...ancestors.map((t) => (typeof t === 'string' ? t : '')), title],
          file,
          outcome,
          message: outcome === 'failed' ? (failureMessage(failure) ?? 'failed') : undefined,
          line: json.number(location?.line) ?? (outcome === 'failed' ? lineInFile(failure, [absolute, file]) : undefined),
          durationMs: json.number(a.duration),
        }),
      );
    }
  }
  return { tests: onePerId(tests), counts: countsOf(tests) };
}
