import { isAbsolute } from 'node:path';
import { TestReportError } from '../errors';
import { stripAnsi, type TestCounts } from '../parsers/testCounts';
import type { TestCaseResult } from '../types';
import { doctestFailure } from './doctestFailure';
import { failureMessage, onePerId, testCase, workspaceFile, type ParsedReport, type ReportContext } from './reportedTest';
import { readXml, type XmlElement } from './xmlReader';

/**
 * The folder pytest's paths are relative to: the `rootdir: …` line of its header when it is printed (not with
 * `-q`), else the workspace. Only the first such line counts (the header comes before any test's output).
 */
function rootdirOf(ctx: ReportContext): string {
  const line = /^rootdir: (.+?)(?:, (?:inifile|configfile|testpaths|plugins):.*)?$/m.exec(stripAnsi(ctx.output));
  const dir = line?.[1]?.trim();
  return dir && isAbsolute(dir) ? dir : ctx.realWorkspace;
}

function* testcases(element: XmlElement, depth = 0): Generator<XmlElement> {
  for (const child of element.children) {
    if (child.name === 'testcase') yield child;
    else if (child.name === 'testsuite' && depth < 4) yield* testcases(child, depth + 1);
  }
}

/**
 * Reads pytest's JUnit XML written with `-o junit_family=xunit1`, whose `<testcase>` has `file` (relative to the
 * rootdir) and `line` (0-based) besides `classname` (the module's dotted path, then its classes) and `name`. The full
 * name is the classes and the test's name (`TestGame > test_gutter[0]`), so the id is
 * `tests/test_game.py::TestGame > test_gutter[0]`.
 *
 * Outcomes: a `<failure>` is `failed`; an `<error>` in a test's setup or teardown is `failed` too (the test did not
 * pass), with the message saying where; `<skipped>` (skip, xfail) is `skipped`; nothing is `passed` (an unexpected
 * pass of a non-strict xfail included). A collection error (a module that cannot be imported: an `<error>` on a
 * testcase with an empty classname) is not a test and is left out of `tests`.
 *
 * Counts follow pytest's console summary, as the console parser reads it: `failed` counts failures only, `errors`
 * counts every error (setup, teardown, collection), and `total` counts a test's teardown error apart from its
 * result. Throws {@link TestReportError} when the document is not a JUnit report.
 */
export function parsePytestReport(text: string, ctx: ReportContext): ParsedReport {
  const root = readXml(text);
  if (root.name !== 'testsuites' && root.name !== 'testsuite')
    throw new TestReportError('The pytest report is not JUnit XML (no testsuites).', { runner: 'pytest', root: root.name });
  const rootdir = rootdirOf(ctx);
  const tests: TestCaseResult[] = [];
  const counts: Required<TestCounts> = { passed: 0, failed: 0, total: 0, errors: 0 };
  for (const element of testcases(root.name === 'testsuite' ? { ...root, children: [root] } : root)) {
    const { classname = '', name, file: fileAttribute, line } = element.attributes;
    if (name === undefined) throw new TestReportError('The pytest report has a testcase without a name.', { runner: 'pytest' });
    const failure = element.children.find((c) => c.name === 'failure');
    const errors = element.children.filter((c) => c.name === 'error');
    const skipped = element.children.find((c) => c.name === 'skipped');
    if (classname === '' && errors.length > 0) {
      counts.errors += errors.length;
      counts.total += errors.length;
      continue;
    }
    const file =
      fileAttribute === undefined
        ? undefined
        : workspaceFile(ctx, fileAttribute, isAbsolute(fileAttribute) ? undefined : rootdir);
    const moduleName = (fileAttribute ?? '').replace(/\.py$/, '').split(/[\\/]/).join('.');
    const classes = moduleName && classname.startsWith(`${moduleName}.`) ? classname.slice(moduleName.length + 1).split('.') : [];
    const teardownOnly = errors.length > 0 && errors.every((e) => /^failed on teardown/.test(e.attributes.message ?? ''));
    const problem = failure ?? errors[0];
    const outcome = problem ? 'failed' : skipped ? 'skipped' : 'passed';
    counts.errors += errors.length;
    counts.total += 1 + (teardownOnly || (failure && errors.length > 0) ? errors.length : 0);
    if (failure) counts.failed++;
    else if (!skipped && (errors.length === 0 || teardownOnly)) counts.passed++;
    const text = problem ? problem.attributes.message || problem.text : undefined;
    const doctest = failure && typeof text === 'string' ? doctestFailure(text) : undefined;
    const message = doctest ? failureMessage(doctest.message) : text !== undefined ? failureMessage(text) : undefined;
    const lineNumber = doctest?.line ?? (line !== undefined && /^\d+$/.test(line) ? Number(line) + 1 : undefined);
    tests.push(
      testCase({
        path: [...classes, name],
        file,
        outcome,
        message: outcome === 'failed' ? (message ?? 'failed') : undefined,
        line: lineNumber,
        durationMs: element.attributes.time !== undefined ? Number(element.attributes.time) * 1000 : undefined,
      }),
    );
  }
  return { tests: onePerId(tests), counts };
}
