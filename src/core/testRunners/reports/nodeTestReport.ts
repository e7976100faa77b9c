import { TestReportError } from '../errors';
import type { TestCounts } from '../parsers/testCounts';
import type { TestCaseResult } from '../types';
import { failureMessage, json, onePerId, testCase, workspaceFile, type ParsedReport, type ReportContext } from './reportedTest';

/**
 * node:test's own reporters cannot say which file a passing test is in (Node 20's JUnit and TAP reporters name the
 * file of a failure only), so the run loads this small custom reporter as a `data:` URL (no file to write, nothing
 * for the roles to see): for each test it writes one JSON line with the names of the suites it is nested in (from
 * `test:start`, which node emits in definition order), its file, line, outcome and error, and a last line
 * `{"end":true}` when the run is over. It runs inside the test process, so its output is as untrusted as the tests.
 */
const REPORTER_SOURCE = `
const open = new Map();
export default async function* tddAgentReport(source) {
  for await (const event of source) {
    const data = event && event.data;
    if (!data || typeof data.nesting !== 'number') continue;
    const key = String(data.file);
    if (event.type === 'test:start') {
      const names = (open.get(key) || []).slice(0, data.nesting);
      names[data.nesting] = String(data.name);
      open.set(key, names);
    } else if (event.type === 'test:pass' || event.type === 'test:fail') {
      const details = data.details || {};
      const error = details.error;
      const cause = error && typeof error.cause === 'object' && error.cause ? error.cause : undefined;
      yield JSON.stringify({
        name: String(data.name),
        suites: (open.get(key) || []).slice(0, data.nesting),
        file: data.file,
        line: data.line,
        nesting: data.nesting,
        suite: details.type === 'suite',
        passed: event.type === 'test:pass',
        skip: data.skip !== undefined && data.skip !== false,
        todo: data.todo !== undefined && data.todo !== false,
        durationMs: details.duration_ms,
        failureType: error && error.failureType,
        message: cause && typeof cause.message === 'string' ? cause.message : error && String(error.message),
      }) + '\\n';
    }
  }
  yield '{"end":true}\\n';
}
`;

/** The `--test-reporter` value that loads the reporter above: a `data:` URL (base64, so it is one plain shell word). */
export const NODE_TEST_REPORTER_URL = `data:text/javascript;base64,${Buffer.from(REPORTER_SOURCE).toString('base64')}`;

/**
 * The console reporter node would use on its own with a pipe as stdout: `tap` before Node 23, `spec` from Node 23
 * on. Naming a reporter for the report file turns the default one off, so it is named again for stdout, and what
 * the person and the model read stays what `node --test` prints. The version is this process's Node (the runner's
 * `node` is usually the same; when it is not, only the console's format differs, and both formats are read).
 */
export function nodeTestConsoleReporter(nodeVersion: string = process.versions.node): 'tap' | 'spec' {
  return Number(nodeVersion.split('.')[0]) >= 23 ? 'spec' : 'tap';
}

/**
 * Reads the reporter's JSON lines. Suites are not tests (node counts them apart); skipped and todo tests are
 * `skipped`; a cancelled test is `failed` (node's summary counts it with the failures, and so does the console
 * parser). node reports a test file that defines no test as a passing test named after the file: left out, as the
 * console parser does; a file that failed to load is one failed test named after the file. Throws
 * {@link TestReportError} on anything else than the reporter's lines, or when the last line is missing (the run
 * ended before the reporter did).
 */
export function parseNodeTestReport(text: string, ctx: ReportContext): ParsedReport {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  let ended = false;
  const tests: TestCaseResult[] = [];
  for (const line of lines) {
    if (ended) throw new TestReportError('The node:test report has lines after its end.', { runner: 'node-test' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (cause) {
      throw new TestReportError('The node:test report has a line that is not JSON.', { runner: 'node-test' }, { cause });
    }
    const record = json.object(parsed);
    if (!record) throw new TestReportError('The node:test report has a line that is not an object.', { runner: 'node-test' });
    if (record.end === true) {
      ended = true;
      continue;
    }
    const name = json.string(record.name);
    const suites = json.array(record.suites);
    if (name === undefined || !suites)
      throw new TestReportError('The node:test report has a test without a name.', { runner: 'node-test' });
    if (record.suite === true) continue;
    const absolute = json.string(record.file);
    const file = workspaceFile(ctx, absolute);
    const fileEntry = record.nesting === 0 && absolute !== undefined && name === absolute;
    const passed = record.passed === true;
    if (fileEntry && passed) continue;
    const skipped = record.todo === true || record.skip === true;
    const outcome = skipped ? 'skipped' : passed ? 'passed' : 'failed';
    tests.push(
      testCase({
        path: fileEntry ? [file ?? name] : [...suites.map((s) => (typeof s === 'string' ? s : '')), name],
        file,
        outcome,
        message: outcome === 'failed' ? failureMessage(record.message) : undefined,
        line: fileEntry ? undefined : json.number(record.line),
        durationMs: json.number(record.durationMs),
      }),
    );
  }
  if (!ended)
    throw new TestReportError('The node:test report ends before the run did.', { runner: 'node-test', tests: tests.length });
  const counts: TestCounts = {
    passed: tests.filter((t) => t.outcome === 'passed').length,
    failed: tests.filter((t) => t.outcome === 'failed').length,
    total: tests.length,
  };
  return { tests: onePerId(tests), counts };
}
