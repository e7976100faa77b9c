import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeProblem, diagnoseLoadError } from '../../../src/core/testRunners/diagnoseLoadError';
import { parsePhpunitOutput } from '../../../src/core/testRunners/parsers/phpunitOutput';
import { parsePhpunitReport } from '../../../src/core/testRunners/reports/phpunitReport';
import { reportingCommand, runnerCall } from '../../../src/core/testRunners/reports/reportCommand';
import { RUNNER_REPORTS } from '../../../src/core/testRunners/reports/runnerReports';
import { identifyRunner } from '../../../src/core/testRunners/runnerKinds';
import { subsetCommand } from '../../../src/core/testRunners/subsets/subsetCommand';
import { hasTestFileName, looksLikeTestFile } from '../../../src/core/testRunners/testFiles';
import { testTitlesIn } from '../../../src/core/testRunners/testTitles';
import { behaviourOf, judgeRed, suiteStateOf } from '../../../src/core/tdd/judging/testJudgement';
import type { TestCaseResult, TestRunResult } from '../../../src/core/testRunners/types';
import { addedTests, seesPackageNames, testsInSource, usesName } from '../../../src/core/tdd/phases/addedTests';

/** Real PHPUnit 9.6 output, recorded in test/fixtures/phpunit-output (see its README) in this folder. */
const RECORDED_IN = '/tmp/phpunit-fixture';
const FIXTURES = resolve('test/fixtures/phpunit-output');
const recorded = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const ctx = (output: string) => ({ workspace: RECORDED_IN, realWorkspace: RECORDED_IN, output });
const flags = (kind: string): string[] =>
  RUNNER_REPORTS[kind as 'phpunit'].flags({
    report: '.tdd/reports/r.xml',
    absoluteReport: '/w/.tdd/reports/r.xml',
    reporter: '',
  });

describe('PHPUnit: the runner, its JUnit report and its load errors', () => {
  it('names phpunit as its runner and asks it for --log-junit right after the binary, with no result cache', () => {
    assert.equal(identifyRunner('phpunit'), 'phpunit');
    assert.equal(identifyRunner('vendor/bin/phpunit --testdox'), 'phpunit');
    assert.equal(identifyRunner('php vendor/bin/phpunit'), 'phpunit');
    assert.equal(runnerCall('./vendor/bin/phpunit tests')?.kind, 'phpunit');
    assert.equal(
      reportingCommand('phpunit', undefined, flags)?.command,
      'phpunit --log-junit=.tdd/reports/r.xml --do-not-cache-result',
    );
    assert.equal(
      reportingCommand('php -d memory_limit=1G vendor/bin/phpunit tests', undefined, flags),
      undefined, // php's own options before the script: not read
    );
    assert.equal(
      reportingCommand('php vendor/bin/phpunit tests', undefined, flags)?.command,
      'php vendor/bin/phpunit --log-junit=.tdd/reports/r.xml --do-not-cache-result tests',
    );
    // The person chose a JUnit log already, or asked for a list: the command runs as written.
    assert.equal(reportingCommand('phpunit --log-junit out.xml', undefined, flags), undefined);
    assert.equal(reportingCommand('phpunit --list-tests', undefined, flags), undefined);
  });

  it('reads each test by file, class and method, data sets included, with what a failing one printed', () => {
    const console = recorded('mixed.txt');
    const { tests, counts } = parsePhpunitReport(recorded('mixed.xml'), ctx(console));
    assert.deepEqual(
      tests.map((t) => [t.id, t.outcome, t.line]),
      [
        ['tests/FizzBuzzTest.php::FizzBuzzTest > testOneIsOne', 'passed', 9],
        ['tests/FizzBuzzTest.php::FizzBuzzTest > testFiveIsBuzz', 'failed', 14],
        ['tests/FizzBuzzTest.php::FizzBuzzTest > testLater', 'skipped', 19],
        ['tests/FizzBuzzTest.php::FizzBuzzTest > testMultiplesOfThreeAreFizz with data set "three"', 'passed', 25],
        ['tests/FizzBuzzTest.php::FizzBuzzTest > testMultiplesOfThreeAreFizz with data set "six"', 'passed', 25],
      ],
    );
    const failing = tests[1]!;
    assert.equal(failing.file, 'tests/FizzBuzzTest.php');
    assert.match(failing.message ?? '', /^Failed asserting that two strings are identical\.\n--- Expected/);
    assert.doesNotMatch(failing.message ?? '', /FizzBuzzTest::testFiveIsBuzz/);
    assert.deepEqual(counts, { passed: 3, failed: 1, total: 5 });
    // The console's summary (`Tests: 5, Assertions: 4, Failures: 1, Skipped: 1.`) agrees with the report.
    assert.deepEqual(parsePhpunitOutput(console), counts);
    assert.equal(diagnoseLoadError(console, 'phpunit'), undefined);
  });

  it('a new test that uses a class or a function that does not exist yet is a failing test: its red', () => {
    const console = recorded('errors.txt');
    const report = parsePhpunitReport(recorded('errors.xml'), ctx(console));
    const leap = report.tests.filter((t) => t.file === 'tests/LeapTest.php');
    assert.deepEqual(
      leap.map((t) => [t.name, t.outcome, t.message]),
      [
        [
          'LeapTest > testYearDivisibleByFourIsLeap',
          'failed',
          'Error: Class "Kata\\Leap" not found\n\n/tmp/phpunit-fixture/tests/LeapTest.php:11',
        ],
        [
          'LeapTest > testFunctionMissing',
          'failed',
          'Error: Call to undefined function Kata\\Tests\\fizzbuzz()\n\n/tmp/phpunit-fixture/tests/LeapTest.php:16',
        ],
      ],
    );
    // `ERRORS! Tests: 7, Assertions: 4, Errors: 2, Failures: 1, Skipped: 1.`: errors are failed tests, not load errors.
    assert.deepEqual(parsePhpunitOutput(console), { passed: 3, failed: 3, total: 7 });
    assert.deepEqual(report.counts, { passed: 3, failed: 3, total: 7 });
    assert.equal(diagnoseLoadError(console, 'phpunit'), undefined);
    // Judged by identity against the suite before LeapTest.php: one new failing test is the red.
    const mixed = parsePhpunitReport(recorded('mixed.xml'), ctx(''));
    const run = (tests: TestCaseResult[]): TestRunResult => {
      const failed = tests.filter((t) => t.outcome === 'failed').length;
      return {
        status: 'failed',
        passed: tests.length - failed,
        failed,
        total: tests.length,
        output: '',
        command: 'phpunit',
        exitCode: 2,
        durationMs: 1,
        tests,
      };
    };
    const before = suiteStateOf(run(mixed.tests), new Set([mixed.tests[1]!.id]));
    const oneNew = report.tests.filter((t) => t.name !== 'LeapTest > testFunctionMissing');
    const verdict = judgeRed(before, run(oneNew));
    assert.equal(verdict.kind, 'red');
    assert.equal(verdict.kind === 'red' && verdict.test.id, 'tests/LeapTest.php::LeapTest > testYearDivisibleByFourIsLeap');
    assert.equal(judgeRed(before, run(report.tests)).kind, 'too_many');
  });

  it('a test file that does not parse goes back as a syntax error; one whose class needs a missing class names it', () => {
    const parse = diagnoseLoadError(recorded('parse.txt'), 'phpunit');
    assert.deepEqual(parse, {
      kind: 'syntax',
      line: "ParseError: Unclosed '(' on line 11 does not match '}' in /tmp/phpunit-fixture/tests/LeapTest.php:12",
    });
    assert.equal(parsePhpunitOutput(recorded('parse.txt')), undefined);
    const load = diagnoseLoadError(recorded('load.txt'), 'phpunit');
    assert.deepEqual(load, {
      kind: 'missing_export',
      line: 'Error: Class "Kata\\Tests\\LeapCase" not found in /tmp/phpunit-fixture/tests/LeapTest.php:6',
      module: 'LeapCase',
    });
    assert.match(describeProblem(load!), /^'LeapCase' is not defined — /);
    // Errors displayed on stdout (display_errors=On) read the same.
    assert.equal(
      diagnoseLoadError('PHP Parse error:  syntax error, unexpected token "}" in /w/tests/ATest.php on line 9\n', 'phpunit')
        ?.kind,
      'syntax',
    );
  });

  it('no test file at all is no tests yet', () => {
    assert.deepEqual(parsePhpunitOutput(recorded('empty.txt')), { passed: 0, failed: 0, total: 0 });
    assert.equal(diagnoseLoadError(recorded('empty.txt'), 'phpunit'), undefined);
  });

  it('narrows a run to the one test file that changed; more than one runs the whole suite', () => {
    const one = subsetCommand('vendor/bin/phpunit', undefined, { testFiles: ['tests/LeapTest.php'], sourceFiles: [] }, '/w');
    assert.equal(one.ok && one.subset.command, 'vendor/bin/phpunit tests/LeapTest.php');
    assert.equal(
      one.ok && one.subset.withFlags(['--log-junit=r.xml']),
      'vendor/bin/phpunit --log-junit=r.xml tests/LeapTest.php',
    );
    const two = subsetCommand('phpunit', undefined, { testFiles: ['tests/ATest.php', 'tests/BTest.php'], sourceFiles: [] }, '/w');
    assert.deepEqual(two, { ok: false, reason: 'phpunit runs one test file at a time' });
  });

  it("reads a test class's test methods from its source, and names them in words", () => {
    const before = readFileSync(join(FIXTURES, 'project/tests/FizzBuzzTest.php'), 'utf8');
    const file = 'tests/FizzBuzzTest.php';
    assert.deepEqual(
      testsInSource(file, before).map((t) => t.title),
      ['testOneIsOne', 'testFiveIsBuzz', 'testLater', 'testMultiplesOfThreeAreFizz'],
    );
    assert.deepEqual(testTitlesIn(file, before), ['testOneIsOne', 'testFiveIsBuzz', 'testLater', 'testMultiplesOfThreeAreFizz']);
    const after = before.replace(
      '    public function multiplesOfThree',
      "    /** @test */\n    public function fifteenIsFizzBuzz(): void\n    {\n        $this->assertSame('FizzBuzz', FizzBuzz::say(15));\n    }\n\n    #[Test]\n    public function sevenIsSeven(): void\n    {\n        $this->assertSame('7', Seven::say());\n    }\n\n    public function multiplesOfThree",
    );
    const added = addedTests(file, before, after);
    assert.deepEqual(
      added.map((t) => t.title),
      ['fifteenIsFizzBuzz', 'sevenIsSeven'],
    );
    assert.ok(added[1]!.body.endsWith('Seven::say());\n    }'));
    assert.ok(seesPackageNames(file));
    assert.ok(usesName(added[1]!.body, 'Seven'));
    assert.equal(
      behaviourOf({ id: 'x', name: 'FizzBuzzTest > testBuzzForMultiplesOfFive', outcome: 'failed' }),
      'buzz for multiples of five',
    );
    assert.ok(hasTestFileName('tests/Unit/FizzBuzzTest.php'));
    assert.ok(!hasTestFileName('src/FizzBuzz.php'));
    // A bootstrap in the test folder is test support (the profile's test folder covers it), not a file of tests.
    assert.ok(!looksLikeTestFile('tests/bootstrap.php'));
  });
});
