import { TestReportError } from '../errors';
import type { TestCounts } from '../parsers/testCounts';
import type { TestCaseResult } from '../types';
import { failureMessage, onePerId, testCase, workspaceFile, type ParsedReport, type ReportContext } from './reportedTest';
import { readXml, type XmlElement } from './xmlReader';

/** What PHPUnit writes in the JUnit report for a test that did no assertion: a risky test, which PHPUnit calls OK. */
const RISKY = 'PHPUnit\\Framework\\RiskyTestError';

function* testcases(element: XmlElement, depth = 0): Generator<XmlElement> {
  for (const child of element.children) {
    if (child.name === 'testcase') yield child;
    else if (child.name === 'testsuite' && depth < 8) yield* testcases(child, depth + 1);
  }
}

/** A failure's text as PHPUnit writes it, without its first line (the test's `Class::method`, already its name). */
function problemText(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (/^[\w\\]+::\w+/.test(lines[0] ?? '')) lines.shift();
  return lines.join('\n');
}

/**
 * Reads PHPUnit's JUnit report (`--log-junit <file>`, PHPUnit 9 and later): a `<testcase>` has `name` (the method, and
 * for a data provider ` with data set "three"`), `class` (`Kata\Tests\FizzBuzzTest`), `file` (absolute) and `line` (the
 * method's). A test's full name is its class without the namespace, then the method (`FizzBuzzTest > testFizz`), so its
 * id is `tests/FizzBuzzTest.php::FizzBuzzTest > testFizz`.
 *
 * Outcomes: a `<failure>` or an `<error>` is `failed` — a test that calls a function or a class that does not exist yet
 * (`Error: Call to undefined function fizzbuzz()`, `Class "Kata\Leap" not found`) ran and failed, which is what a new
 * test is in the red; a risky test (no assertion, written as an `<error>` of type `RiskyTestError`) is `passed`, as
 * PHPUnit's `OK` says; `<skipped>` (skipped, incomplete) and `<warning>` are `skipped`. A warning that is not a test
 * (`No tests found in class …`, a `<testcase>` without a class) counts in the total only, as in PHPUnit's summary.
 * Counts follow the console's summary: errors and failures are `failed`. Throws {@link TestReportError} when the
 * document is not a JUnit report.
 */
export function parsePhpunitReport(text: string, ctx: ReportContext): ParsedReport {
  const root = readXml(text);
  if (root.name !== 'testsuites' && root.name !== 'testsuite')
    throw new TestReportError('The PHPUnit report is not JUnit XML (no testsuites).', { runner: 'phpunit', root: root.name });
  const tests: TestCaseResult[] = [];
  const counts: Required<Omit<TestCounts, 'errors'>> = { passed: 0, failed: 0, total: 0 };
  for (const element of testcases(root.name === 'testsuite' ? { ...root, children: [root] } : root)) {
    const { name, class: className, file: absoluteFile, line } = element.attributes;
    if (name === undefined) throw new TestReportError('The PHPUnit report has a testcase without a name.', { runner: 'phpunit' });
    counts.total++;
    if (className === undefined) continue; // PHPUnit's own warning (`No tests found in class …`), not a test
    const problems = element.children.filter((c) => c.name === 'failure' || c.name === 'error');
    const failure = problems.find((p) => p.attributes.type !== RISKY);
    const skipped = element.children.some((c) => c.name === 'skipped' || c.name === 'warning');
    const outcome = failure ? 'failed' : skipped ? 'skipped' : 'passed';
    if (outcome === 'failed') counts.failed++;
    else if (outcome === 'passed') counts.passed++;
    tests.push(
      testCase({
        path: [className.split('\\').at(-1)!, name],
        file: workspaceFile(ctx, absoluteFile),
        outcome,
        message: failure ? (failureMessage(problemText(failure.text)) ?? failure.attributes.type ?? 'failed') : undefined,
        line: line !== undefined && /^\d+$/.test(line) ? Number(line) : undefined,
        durationMs: element.attributes.time !== undefined ? Number(element.attributes.time) * 1000 : undefined,
      }),
    );
  }
  return { tests: onePerId(tests), counts };
}
