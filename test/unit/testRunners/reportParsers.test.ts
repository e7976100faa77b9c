import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestReportError } from '../../../src/core/testRunners/errors';
import { parseJestReport } from '../../../src/core/testRunners/reports/jestReport';
import { parseMochaReport } from '../../../src/core/testRunners/reports/mochaReport';
import { parseNodeTestReport } from '../../../src/core/testRunners/reports/nodeTestReport';
import { parsePytestReport } from '../../../src/core/testRunners/reports/pytestReport';
import {
  failureMessage,
  onePerId,
  testCase,
  workspaceFile,
  type ReportContext,
} from '../../../src/core/testRunners/reports/reportedTest';
import {
  MAX_REPORT_BYTES,
  prepareReportsFolder,
  readReport,
  removeReportFiles,
} from '../../../src/core/testRunners/reports/reportFile';
import { readXml } from '../../../src/core/testRunners/reports/xmlReader';

const ctx: ReportContext = { workspace: '/link/ws', realWorkspace: '/real/ws', output: '' };
const isReportError = (e: unknown): boolean => e instanceof TestReportError && e.error_code === 'VALIDATION';

/** Lines as the node:test reporter writes them (recorded from Node 20, paths changed to the context's). */
const NODE_LINES = [
  {
    name: 'top passes',
    suites: [],
    file: '/real/ws/test/a.test.js',
    line: 3,
    nesting: 0,
    suite: false,
    passed: true,
    durationMs: 0.726136,
  },
  {
    name: 'top fails',
    suites: [],
    file: '/real/ws/test/a.test.js',
    line: 4,
    nesting: 0,
    suite: false,
    passed: false,
    failureType: 'testCodeFailure',
    message: 'one is not two\n\n1 !== 2\n',
  },
  { name: 'skipped one', suites: [], file: '/real/ws/test/a.test.js', line: 5, nesting: 0, passed: true, skip: true },
  { name: 'todo one', suites: [], file: '/real/ws/test/a.test.js', line: 6, nesting: 0, passed: false, todo: true },
  {
    name: 'deep fails',
    suites: ['outer', 'inner'],
    file: '/real/ws/test/a.test.js',
    line: 9,
    nesting: 2,
    passed: false,
    message: 'boom',
  },
  { name: 'inner', suites: ['outer'], file: '/real/ws/test/a.test.js', line: 8, nesting: 1, suite: true, passed: false },
  { name: 'outer', suites: [], file: '/real/ws/test/a.test.js', line: 7, nesting: 0, suite: true, passed: false },
  { name: '/real/ws/test/empty.test.js', suites: [], file: '/real/ws/test/empty.test.js', line: 1, nesting: 0, passed: true },
  {
    name: '/real/ws/test/broken.test.js',
    suites: [],
    file: '/real/ws/test/broken.test.js',
    nesting: 0,
    passed: false,
    message: 'SyntaxError: x',
  },
  { name: 'in subfolder', suites: [], file: '/link/ws/test/sub/b.test.js', line: 2, nesting: 0, passed: true },
  {
    name: 'cancelled',
    suites: [],
    file: '/real/ws/test/c.test.js',
    line: 1,
    nesting: 0,
    passed: false,
    failureType: 'cancelledByParent',
  },
  { end: true },
];
const nodeReport = (lines: unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

describe('test reports: node:test', () => {
  it('gives each test its id, outcome, message and line; suites and empty files are no tests', () => {
    const { tests, counts } = parseNodeTestReport(nodeReport(NODE_LINES), ctx);
    assert.deepEqual(
      tests.map((t) => [t.id, t.outcome]),
      [
        ['test/a.test.js::top passes', 'passed'],
        ['test/a.test.js::top fails', 'failed'],
        ['test/a.test.js::skipped one', 'skipped'],
        ['test/a.test.js::todo one', 'skipped'],
        ['test/a.test.js::outer > inner > deep fails', 'failed'],
        ['test/broken.test.js::test/broken.test.js', 'failed'],
        ['test/sub/b.test.js::in subfolder', 'passed'],
        ['test/c.test.js::cancelled', 'failed'],
      ],
    );
    assert.deepEqual(tests[1], {
      id: 'test/a.test.js::top fails',
      name: 'top fails',
      file: 'test/a.test.js',
      outcome: 'failed',
      message: 'one is not two\n\n1 !== 2',
      line: 4,
    });
    assert.equal(tests[0]!.durationMs, 0.726);
    assert.deepEqual(counts, { passed: 2, failed: 4, total: 8 });
  });

  it('refuses a report cut short, lines after the end, or lines that are not the reporter’s', () => {
    assert.throws(() => parseNodeTestReport(nodeReport(NODE_LINES.slice(0, -1)), ctx), isReportError);
    assert.throws(() => parseNodeTestReport(nodeReport([...NODE_LINES, { name: 'late', suites: [] }]), ctx), isReportError);
    assert.throws(() => parseNodeTestReport('{"name":\n{"end":true}\n', ctx), isReportError);
    assert.throws(() => parseNodeTestReport('[1]\n{"end":true}\n', ctx), isReportError);
    assert.throws(() => parseNodeTestReport('{"passed":true}\n{"end":true}\n', ctx), isReportError);
    assert.deepEqual(parseNodeTestReport('{"end":true}\n', ctx).tests, []);
  });
});

describe('test reports: mocha', () => {
  it('reads the reporter module’s report: titlePath, hooks, pending tests, the failing line from the stack', () => {
    const report = {
      tests: [
        { titles: ['leap', '2000 is leap'], file: '/real/ws/test/leap.test.cjs', outcome: 'passed', durationMs: 1 },
        {
          titles: ['leap', '1900 is not'],
          file: '/real/ws/test/leap.test.cjs',
          outcome: 'failed',
          message: 'Expected values to be strictly equal:\n\ntrue !== false\n',
          stack: 'AssertionError [ERR_ASSERTION]: Expected\n    at Context.<anonymous> (test/leap.test.cjs:4:42)\n',
        },
        { titles: ['leap', 'later'], file: '/real/ws/test/leap.test.cjs', outcome: 'skipped' },
        {
          titles: ['db', '"before all" hook for "reads"'],
          file: '/real/ws/test/db.test.cjs',
          outcome: 'failed',
          hook: true,
          message: 'no db',
        },
      ],
      end: true,
    };
    const { tests, counts } = parseMochaReport(JSON.stringify(report), ctx);
    assert.deepEqual(
      tests.map((t) => [t.id, t.outcome, t.line]),
      [
        ['test/leap.test.cjs::leap > 2000 is leap', 'passed', undefined],
        ['test/leap.test.cjs::leap > 1900 is not', 'failed', 4],
        ['test/leap.test.cjs::leap > later', 'skipped', undefined],
        ['test/db.test.cjs::db > "before all" hook for "reads"', 'failed', undefined],
      ],
    );
    assert.equal(tests[1]!.message, 'Expected values to be strictly equal:\n\ntrue !== false');
    assert.deepEqual(counts, { passed: 1, failed: 2, total: 4 });
  });

  it('refuses anything else', () => {
    assert.throws(() => parseMochaReport('{"stats":{}}', ctx), isReportError);
    assert.throws(() => parseMochaReport('{"tests":[{"titles":[],"outcome":"maybe"}],"end":true}', ctx), isReportError);
    assert.throws(() => parseMochaReport('not json', ctx), isReportError);
  });
});

describe('test reports: jest and vitest', () => {
  const report = {
    testResults: [
      {
        name: '/real/ws/test/a.test.js',
        assertionResults: [
          {
            ancestorTitles: [],
            title: 'top passes',
            status: 'passed',
            failureMessages: [],
            location: { line: 1, column: 1 },
            duration: 1,
          },
          {
            ancestorTitles: ['outer', 'inner'],
            title: 'deep fails',
            status: 'failed',
            failureMessages: [
              'Error: expect(received).toBe(expected)\n\nExpected: 2\nReceived: 1\n    at Object.toBe (/real/ws/test/a.test.js:7:37)\n    at new Promise (<anonymous>)',
            ],
          },
          { ancestorTitles: [], title: 'later', status: 'pending', failureMessages: [] },
          { ancestorTitles: [], title: 'some day', status: 'todo', failureMessages: [] },
        ],
      },
      { name: '/real/ws/test/broken.test.js', status: 'failed', message: 'Cannot find module', assertionResults: [] },
    ],
  };

  it('reads ancestorTitles and title, statuses, the message without its stack, the line from location or the stack', () => {
    const { tests, counts } = parseJestReport(JSON.stringify(report), ctx);
    assert.deepEqual(
      tests.map((t) => [t.id, t.outcome, t.line]),
      [
        ['test/a.test.js::top passes', 'passed', 1],
        ['test/a.test.js::outer > inner > deep fails', 'failed', 7],
        ['test/a.test.js::later', 'skipped', undefined],
        ['test/a.test.js::some day', 'skipped', undefined],
      ],
    );
    assert.equal(tests[1]!.message, 'Error: expect(received).toBe(expected)\n\nExpected: 2\nReceived: 1');
    assert.deepEqual(counts, { passed: 1, failed: 1, total: 4 });
    assert.equal(parseJestReport(JSON.stringify(report), ctx, 'vitest').tests.length, 4);
  });

  it('refuses a report without testResults, or a test without a title', () => {
    assert.throws(() => parseJestReport('{}', ctx), isReportError);
    assert.throws(() => parseJestReport('{"testResults":[{"name":"x"}]}', ctx), isReportError);
    assert.throws(() => parseJestReport('{"testResults":[{"assertionResults":[{"status":"passed"}]}]}', ctx), isReportError);
  });
});

describe('test reports: pytest JUnit XML', () => {
  // Recorded from pytest 9 with -o junit_family=xunit1 (paths changed), one testcase per outcome.
  const XML = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="3" failures="1" skipped="2" tests="9">
<testcase classname="tests.sub.test_b" name="test_in_sub" file="tests/sub/test_b.py" line="0" time="0.001"/>
<testcase classname="tests.test_a" name="test_fail" file="tests/test_a.py" line="5" time="0.000"><failure message="AssertionError: one is not two&#10;assert 1 == 2">def test_fail():
&gt;       assert 1 == 2, &quot;one is not two&quot;</failure></testcase>
<testcase classname="tests.test_a" name="test_skip" file="tests/test_a.py" line="8"><skipped type="pytest.skip" message="not now">tests/test_a.py:9: not now</skipped></testcase>
<testcase classname="tests.test_a.TestOuter.TestInner" name="test_deep[1-2]" file="tests/test_a.py" line="14"/>
<testcase classname="tests.test_a" name="test_setup_error" file="tests/test_a.py" line="27"><error message="failed on setup with &quot;RuntimeError: setup broke&quot;">E RuntimeError</error></testcase>
<testcase classname="tests.test_ok" name="test_ok" file="tests/test_ok.py" line="5"><error message="failed on teardown with &quot;RuntimeError: teardown broke&quot;">E</error></testcase>
<testcase classname="tests.test_a" name="test_xfail" file="tests/test_a.py" line="30"><skipped type="pytest.xfail" message=""/></testcase>
<testcase classname="" name="tests.test_bad" file="tests/test_bad.py"><error message="collection failure"><![CDATA[ImportError while importing test module]]></error></testcase>
</testsuite></testsuites>`;

  it('names tests file::classes > name, with outcomes, messages and 1-based lines', () => {
    const { tests } = parsePytestReport(XML, ctx);
    assert.deepEqual(
      tests.map((t) => [t.id, t.outcome, t.line]),
      [
        ['tests/sub/test_b.py::test_in_sub', 'passed', 1],
        ['tests/test_a.py::test_fail', 'failed', 6],
        ['tests/test_a.py::test_skip', 'skipped', 9],
        ['tests/test_a.py::TestOuter > TestInner > test_deep[1-2]', 'passed', 15],
        ['tests/test_a.py::test_setup_error', 'failed', 28],
        ['tests/test_ok.py::test_ok', 'failed', 6],
        ['tests/test_a.py::test_xfail', 'skipped', 31],
      ],
    );
    assert.equal(tests[1]!.message, 'AssertionError: one is not two\nassert 1 == 2');
    assert.equal(tests[4]!.message, 'failed on setup with "RuntimeError: setup broke"');
  });

  it("counts as pytest's summary does: errors apart, a teardown error besides its test's pass, collection errors", () => {
    // pytest: 1 failed, 2 passed, 1 skipped, 1 xfailed, 3 errors
    assert.deepEqual(parsePytestReport(XML, ctx).counts, { passed: 3, failed: 1, total: 9, errors: 3 });
  });

  it('says first what went wrong in a doctest (Expected / Got, UNEXPECTED EXCEPTION), not the page’s first line', () => {
    // Recorded from pytest 9 with --doctest-modules --doctest-glob=*.rst (paths changed; the last one made up).
    const doctests = `<testsuites name="pytest tests"><testsuite name="pytest" errors="0" failures="4" skipped="0" tests="4">
<testcase classname="docs.index.rst" name="index.rst" file="docs/index.rst" line="0"><failure message="001 Usage&#10;002 =====&#10;003 &#10;004 If you need to check the first value, call first:&#10;005 &#10;006     &gt;&gt;&gt; from sl.core import first&#10;007     &gt;&gt;&gt; first([3, 1])&#10;Expected:&#10;    1&#10;Got:&#10;    3&#10;&#10;/real/ws/docs/index.rst:7: DocTestFailure"></failure></testcase>
<testcase classname="sl.core" name="sl.core.last" file="sl/core.py" line="10"><failure message="011 The last value.&#10;012 &#10;013     &gt;&gt;&gt; last([])&#10;UNEXPECTED EXCEPTION: IndexError('list index out of range')&#10;Traceback (most recent call last):&#10;  File &quot;/usr/lib/python3.11/doctest.py&quot;, line 1353, in __run&#10;    exec(compile(example.source, filename, &quot;single&quot;,&#10;  File &quot;&lt;doctest sl.core.last[0]&gt;&quot;, line 1, in &lt;module&gt;&#10;  File &quot;/real/ws/sl/core.py&quot;, line 16, in last&#10;    return xs[-1]&#10;           ~~^^^^&#10;IndexError: list index out of range&#10;/real/ws/sl/core.py:13: UnexpectedException"></failure></testcase>
<testcase classname="sl.core" name="sl.core.pairs" file="sl/core.py" line="20"><failure message="022     &gt;&gt;&gt; pairs([1, 2])&#10;Expected:&#10;    (1, 2)&#10;    (2, 1)&#10;Got nothing&#10;&#10;/real/ws/sl/core.py:22: DocTestFailure"></failure></testcase>
<testcase classname="tests.test_a" name="test_fail" file="tests/test_a.py" line="5"><failure message="001 is not 2&#10;assert 1 == 2"></failure></testcase>
</testsuite></testsuites>`;
    const { tests } = parsePytestReport(doctests, ctx);
    assert.deepEqual(
      tests.map((t) => [t.id, t.line, t.message!.split('\n')[0]]),
      [
        ['docs/index.rst::index.rst', 7, 'Expected: 1, Got: 3 (>>> first([3, 1]))'],
        ['sl/core.py::sl.core.last', 13, "UNEXPECTED EXCEPTION: IndexError('list index out of range') (>>> last([]))"],
        ['sl/core.py::sl.core.pairs', 22, 'Expected: (1, 2) … (2 lines), Got: nothing (>>> pairs([1, 2]))'],
        ['tests/test_a.py::test_fail', 6, '001 is not 2'],
      ],
    );
    assert.equal(tests[0]!.message, 'Expected: 1, Got: 3 (>>> first([3, 1]))\nExpected:\n    1\nGot:\n    3');
    assert.match(tests[1]!.message!, /^UNEXPECTED[^\n]*\nTraceback[^]*IndexError: list index out of range$/);
    assert.doesNotMatch(tests.map((t) => t.message).join('\n'), /If you need to check|DocTestFailure/, 'no page text');
  });

  it('resolves files against the rootdir pytest printed', () => {
    const withRoot: ReportContext = { ...ctx, output: 'rootdir: /real/ws/py\nconfigfile: pyproject.toml\n' };
    assert.equal(parsePytestReport(XML, withRoot).tests[0]!.id, 'py/tests/sub/test_b.py::test_in_sub');
    const outside: ReportContext = { ...ctx, output: 'rootdir: /elsewhere, configfile: x\n' };
    assert.equal(parsePytestReport(XML, outside).tests[0]!.id, 'test_in_sub', 'a file outside the workspace is not named');
  });

  it('refuses a document that is not JUnit XML', () => {
    assert.throws(() => parsePytestReport('<html></html>', ctx), isReportError);
    assert.throws(() => parsePytestReport('<testsuites><testcase/></testsuites>', ctx), isReportError);
  });
});

describe('test reports: the XML reader', () => {
  it('reads elements, attributes, entities, CDATA, comments and processing instructions', () => {
    const root = readXml(`\uFEFF<?xml version="1.0"?><!-- c --><a x='1' y="&lt;&amp;&#65;&#x42;"><b/>t&gt;<![CDATA[<raw>]]></a>`);
    assert.equal(root.name, 'a');
    assert.deepEqual(root.attributes, { x: '1', y: '<&AB' });
    assert.deepEqual(
      root.children.map((c) => c.name),
      ['b'],
    );
    assert.equal(root.text, 't><raw>');
  });

  it('refuses DOCTYPEs and entities (no expansion ever), bad nesting, stray text and deep nesting', () => {
    for (const xml of [
      '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>',
      '<a>&x;</a>',
      '<a>&</a>',
      '<a b="&#0;"/>',
      '<a><b></a></b>',
      '<a></a><b></b>',
      'text<a/>',
      '<a>',
      '<a x="1" x="2"/>',
      '<a x=1/>',
      '',
      '<a>'.repeat(65) + '</a>'.repeat(65),
    ]) {
      assert.throws(() => readXml(xml), isReportError, xml.slice(0, 40));
    }
  });
});

describe('test reports: shared rules', () => {
  it('names only files inside the workspace (its link or its real path)', () => {
    assert.equal(workspaceFile(ctx, '/real/ws/test/a.js'), 'test/a.js');
    assert.equal(workspaceFile(ctx, 'file:///link/ws/test/a.js'), 'test/a.js');
    assert.equal(workspaceFile(ctx, 'test/a.js'), 'test/a.js');
    assert.equal(workspaceFile(ctx, '/etc/passwd'), undefined);
    assert.equal(workspaceFile(ctx, '../outside.js'), undefined);
    assert.equal(workspaceFile(ctx, '/real/ws'), undefined);
    assert.equal(workspaceFile(ctx, 42), undefined);
  });

  it('keeps a message short: no stack frames, no colours, 12 lines, 2,000 characters', () => {
    assert.equal(failureMessage('\u001b[31mred\u001b[39m\n    at x (y.js:1:1)'), 'red');
    assert.equal(failureMessage(Array.from({ length: 30 }, (_, i) => `l${i}`).join('\n'))!.split('\n').length, 12);
    assert.equal(failureMessage('x'.repeat(5000))!.length, 2001);
    assert.equal(failureMessage('   '), undefined);
    assert.equal(failureMessage(undefined), undefined);
  });

  it('keeps one result per id, the worst', () => {
    const a = testCase({ path: ['same'], file: 'a.js', outcome: 'passed' });
    const b = testCase({ path: ['same'], file: 'a.js', outcome: 'failed', message: 'x' });
    assert.deepEqual(onePerId([a, b, a]), [b]);
    assert.equal(testCase({ path: ['d', '', 't'], outcome: 'passed' }).id, 'd > t');
    assert.equal(testCase({ path: ['n'.repeat(3000)], outcome: 'passed' }).name.length, 1001);
  });
});

describe('test reports: the report file in an untrusted worktree', () => {
  let ws: string;
  let outside: string;
  beforeEach(async () => {
    ws = await mkdtemp(join(tmpdir(), 'tdd-report-'));
    outside = await mkdtemp(join(tmpdir(), 'tdd-report-outside-'));
  });
  afterEach(async () => {
    await rm(ws, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('creates .tdd/reports, reads a report, and removes what it created', async () => {
    const created = await prepareReportsFolder(ws);
    assert.deepEqual(created, [join(ws, '.tdd'), join(ws, '.tdd', 'reports')]);
    await writeFile(join(ws, '.tdd/reports/r.json'), '{"ok":1}');
    assert.equal(await readReport(ws, '.tdd/reports/r.json'), '{"ok":1}');
    assert.equal(await removeReportFiles(ws, ['.tdd/reports/r.json', '.tdd/reports/none.cjs'], created), undefined);
    assert.equal(existsSync(join(ws, '.tdd')), false);
  });

  it('keeps a .tdd folder that was there, and anything else in it', async () => {
    await mkdir(join(ws, '.tdd'));
    await writeFile(join(ws, '.tdd', 'session.json'), '{}');
    const created = await prepareReportsFolder(ws);
    assert.deepEqual(created, [join(ws, '.tdd', 'reports')]);
    await removeReportFiles(ws, [], created);
    assert.equal(existsSync(join(ws, '.tdd', 'session.json')), true);
    assert.equal(existsSync(join(ws, '.tdd', 'reports')), false);
  });

  it('never follows a link at the report path, nor reads an oversized or special file', async () => {
    await prepareReportsFolder(ws);
    const secret = join(outside, 'secret.txt');
    await writeFile(secret, 'do not read');
    await symlink(secret, join(ws, '.tdd/reports/link.json'));
    await assert.rejects(
      readReport(ws, '.tdd/reports/link.json'),
      (e: unknown) => isReportError(e) && /symbolic link/.test((e as Error).message) && !/do not read/.test((e as Error).message),
    );
    const big = await open(join(ws, '.tdd/reports/big.json'), 'w');
    await big.truncate(100 * 1024 * 1024); // sparse: claims 100 MB
    await big.close();
    await assert.rejects(
      readReport(ws, '.tdd/reports/big.json'),
      (e: unknown) => isReportError(e) && /larger than 16 MiB/.test((e as Error).message),
    );
    assert.ok(MAX_REPORT_BYTES < 100 * 1024 * 1024);
    execFileSync('mkfifo', [join(ws, '.tdd/reports/fifo.json')]);
    await assert.rejects(
      readReport(ws, '.tdd/reports/fifo.json'),
      (e: unknown) => isReportError(e) && /fifo/.test((e as Error).message),
    );
    await assert.rejects(
      readReport(ws, '.tdd/reports/missing.json'),
      (e: unknown) => isReportError(e) && /no report/.test((e as Error).message),
    );
    await removeReportFiles(ws, ['.tdd/reports/link.json', '.tdd/reports/big.json', '.tdd/reports/fifo.json'], []);
    assert.equal(readFileSync(secret, 'utf8'), 'do not read', 'the link was removed, not its target');
  });

  it('never creates the folder through a link, nor reads through a linked .tdd', async () => {
    await symlink(outside, join(ws, '.tdd'));
    await assert.rejects(prepareReportsFolder(ws), isReportError);
    await mkdir(join(outside, 'reports'));
    await writeFile(join(outside, 'reports', 'r.json'), 'outside');
    await assert.rejects(
      readReport(ws, '.tdd/reports/r.json'),
      (e: unknown) => isReportError(e) && /no report/.test((e as Error).message),
    );
    await removeReportFiles(ws, ['.tdd/reports/r.json'], [join(ws, '.tdd', 'reports'), join(ws, '.tdd')]);
    assert.equal(readFileSync(join(outside, 'reports', 'r.json'), 'utf8'), 'outside');
    assert.equal(await readlink(join(ws, '.tdd')), outside, 'the link itself is left alone too');
  });
});
