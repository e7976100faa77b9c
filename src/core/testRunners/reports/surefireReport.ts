import { TestReportError } from '../errors';
import { buildFolder, mavenModules, testSourceFolder } from '../mavenSetup';
import type { TestCounts } from '../parsers/testCounts';
import type { TestCaseResult } from '../types';
import { readTreeFolder, removeTreeEntry } from '../../workspaceSandbox/untrustedTree';
import { MAX_REPORT_BYTES, readReport } from './reportFile';
import { failureMessage, onePerId, testCase, type ParsedReport, type ReportContext } from './reportedTest';
import { readXml, type XmlElement } from './xmlReader';

/** Surefire's report files of one module: `target/surefire-reports/TEST-<class>.xml`. */
const REPORT_FILE = /^TEST-[^/]+\.xml$/;
const REPORTS = 'surefire-reports';

/** Each module's reports folder, relative to the workspace, with the module's test folder. */
async function reportFolders(workspace: string): Promise<Array<{ folder: string; tests: string }>> {
  return (await mavenModules(workspace)).map((m) => ({ folder: `${buildFolder(m)}/${REPORTS}`, tests: testSourceFolder(m) }));
}

/**
 * Removes the reports of an earlier run from every module's `target/surefire-reports`, so that what is read after
 * the run is this run's: Surefire writes there and nowhere else (no user property moves it), and a run that stops at a
 * compile error writes none and leaves the old ones. Only `TEST-*.xml` files go; the folder and the rest stay.
 */
export async function clearSurefireReports(workspace: string): Promise<void> {
  for (const { folder } of await reportFolders(workspace))
    for (const name of await readTreeFolder(workspace, folder))
      if (REPORT_FILE.test(name)) await removeTreeEntry(workspace, `${folder}/${name}`);
}

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/**
 * Every module's Surefire reports of the run as one document: `<surefire-reports>` holding a `<module tests="…">`
 * (the module's test folder) around each `TEST-*.xml`'s `<testsuite>`. Each file is read as a report is (no link
 * followed, at most 16 MiB; all of them together too). TestReportError (`found: 'missing'`) when there is none:
 * Maven stopped before Surefire ran.
 */
export async function readSurefireReports(workspace: string): Promise<string> {
  const parts: string[] = [];
  let size = 0;
  for (const { folder, tests } of await reportFolders(workspace)) {
    for (const name of (await readTreeFolder(workspace, folder)).filter((n) => REPORT_FILE.test(n)).sort()) {
      const text = (await readReport(workspace, `${folder}/${name}`)).replace(/^\uFEFF?\s*<\?xml[^>]*\?>/, '');
      size += text.length;
      if (size > MAX_REPORT_BYTES)
        throw new TestReportError('The Surefire reports are larger than 16 MiB together; they were not read.', {
          found: 'too_large',
        });
      parts.push(`<module tests="${escapeAttribute(tests)}">${text}</module>`);
    }
  }
  if (parts.length === 0) throw new TestReportError('Surefire wrote no report.', { runner: 'maven', found: 'missing' });
  return `<surefire-reports>${parts.join('')}</surefire-reports>`;
}

/** The line of a stack frame in the test's own class file (`at kata.FizzBuzzTest.five(FizzBuzzTest.java:19)`). */
function frameLine(text: string, fileName: string): number | undefined {
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`\\(${escaped}:(\\d+)\\)`).exec(text);
  return found ? Number(found[1]) : undefined;
}

/** The test cases of one `<testsuite>` (JUnit 4's suites of suites included), with the module's test folder. */
function* testcases(element: XmlElement, tests: string, depth = 0): Generator<{ testcase: XmlElement; tests: string }> {
  for (const child of element.children) {
    if (child.name === 'testcase') yield { testcase: child, tests };
    else if (child.name === 'module' && depth === 0) yield* testcases(child, child.attributes.tests ?? tests, depth + 1);
    else if (child.name === 'testsuite' && depth < 8) yield* testcases(child, tests, depth + 1);
  }
}

/**
 * Reads Surefire's XML reports (`TEST-<class>.xml`, Surefire 2.22 and 3.x, JUnit 5 through the JUnit Platform, JUnit 4
 * too): a `<testcase>` has `name` (the method; a parameterized test's invocation is `fizz(int)[1]`) and `classname`
 * (`kata.FizzBuzzTest`, a nested class `kata.FizzBuzzTest$Large`). Its file is the top-level class's source in the
 * module's test folder (`src/test/java/kata/FizzBuzzTest.java`), its full name the class without its package, any
 * nested class, then the method (`FizzBuzzTest > Large > hundred`), so its id is the file, class and method (with the
 * invocation's index). A nested class's tests can sit in the outer class's file or in one of their own: one result
 * per id either way.
 *
 * Outcomes: `<failure>` (an assertion) and `<error>` (anything thrown, a method that does not exist at run time) are
 * `failed`, as Surefire's summary counts them; `<skipped>` (`@Disabled`, an assumption) is `skipped`. Throws
 * {@link TestReportError} when the document is not Surefire's.
 */
export function parseSurefireReport(text: string, _ctx: ReportContext): ParsedReport {
  const root = readXml(text);
  const top = root.name === 'testsuite' ? { ...root, name: 'surefire-reports', children: [root] } : root;
  if (top.name !== 'surefire-reports' && top.name !== 'testsuites')
    throw new TestReportError('The Surefire report is not JUnit XML (no testsuite).', { runner: 'maven', root: root.name });
  const tests: TestCaseResult[] = [];
  const counts: Required<Omit<TestCounts, 'errors'>> = { passed: 0, failed: 0, total: 0 };
  for (const { testcase, tests: folder } of testcases(top, 'src/test/java')) {
    const { name, classname } = testcase.attributes;
    if (name === undefined || classname === undefined)
      throw new TestReportError('The Surefire report has a testcase without a name or class.', { runner: 'maven' });
    counts.total++;
    const problem = testcase.children.find((c) => c.name === 'failure' || c.name === 'error');
    const skipped = testcase.children.some((c) => c.name === 'skipped');
    const outcome = problem ? 'failed' : skipped ? 'skipped' : 'passed';
    if (outcome === 'failed') counts.failed++;
    else if (outcome === 'passed') counts.passed++;
    const parts = classname.split('.');
    const classes = parts.pop()!.split('$');
    const file = `${folder}/${[...parts, classes[0]].join('/')}.java`;
    const message = problem
      ? (failureMessage(problem.text) ?? problem.attributes.message ?? problem.attributes.type ?? 'failed')
      : undefined;
    tests.push(
      testCase({
        path: [...classes, name],
        file,
        outcome,
        message,
        line: problem ? frameLine(problem.text, `${classes[0]}.java`) : undefined,
        durationMs: testcase.attributes.time !== undefined ? Number(testcase.attributes.time) * 1000 : undefined,
      }),
    );
  }
  const unique = onePerId(tests);
  // A nested class's tests reported twice (in the outer class's file and their own) are counted once.
  if (unique.length < tests.length) {
    counts.total = unique.length;
    counts.failed = unique.filter((t) => t.outcome === 'failed').length;
    counts.passed = unique.filter((t) => t.outcome === 'passed').length;
  }
  return { tests: unique, counts };
}
