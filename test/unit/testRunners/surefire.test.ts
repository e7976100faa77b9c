import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeProblem, diagnoseLoadError } from '../../../src/core/testRunners/diagnoseLoadError';
import { parseSurefireOutput } from '../../../src/core/testRunners/parsers/surefireOutput';
import { reportingCommand, runnerCall } from '../../../src/core/testRunners/reports/reportCommand';
import { RUNNER_REPORTS } from '../../../src/core/testRunners/reports/runnerReports';
import {
  clearSurefireReports,
  parseSurefireReport,
  readSurefireReports,
} from '../../../src/core/testRunners/reports/surefireReport';
import { identifyRunner } from '../../../src/core/testRunners/runnerKinds';
import { subsetCommand } from '../../../src/core/testRunners/subsets/subsetCommand';
import { hasTestFileName, looksLikeTestFile } from '../../../src/core/testRunners/testFiles';
import { testTitlesIn } from '../../../src/core/testRunners/testTitles';
import { behaviourOf } from '../../../src/core/tdd/judging/testJudgement';
import { seesPackageNames, testsInSource } from '../../../src/core/tdd/phases/addedTests';
import type { TestCaseResult } from '../../../src/core/testRunners/types';

/** Real Maven 3.8.7 / Surefire 3.2.5 output, recorded in test/fixtures/surefire-output (see its README). */
const FIXTURES = resolve('test/fixtures/surefire-output');
const recorded = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const ctx = { workspace: '/w', realWorkspace: '/w', output: '' };
const flags = (kind: string): string[] =>
  RUNNER_REPORTS[kind as 'maven'].flags({ report: '.tdd/reports/r.xml', absoluteReport: '/w/.tdd/reports/r.xml', reporter: '' });

/** A Maven project in a temporary folder: the recorded project's POM, and the recorded reports in `<module>/target`. */
function workspaceWithReports(modules: string[] = ['.']): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'surefire-'));
  const pom = readFileSync(join(FIXTURES, 'project/pom.xml'), 'utf8');
  if (modules.length > 1 || modules[0] !== '.')
    writeFileSync(
      join(dir, 'pom.xml'),
      `<project><modelVersion>4.0.0</modelVersion><modules>${modules.map((m) => `<module>${m}</module>`).join('')}</modules></project>\n`,
    );
  for (const module of modules) {
    mkdirSync(join(dir, module, 'target'), { recursive: true });
    writeFileSync(join(dir, module, 'pom.xml'), pom);
    cpSync(join(FIXTURES, 'mixed-reports'), join(dir, module, 'target/surefire-reports'), { recursive: true });
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('Maven Surefire: the runner, its reports and its compile errors', () => {
  it('names Maven as the runner of mvn and ./mvnw, asks for offline batch mode right after the program, and makes no subset', () => {
    assert.equal(identifyRunner('mvn -o -B test'), 'maven');
    assert.equal(identifyRunner('./mvnw test'), 'maven');
    assert.equal(runnerCall('./mvnw -q test')?.kind, 'maven');
    assert.equal(reportingCommand('mvn test', undefined, flags)?.command, 'mvn -o -B test');
    assert.equal(reportingCommand('./mvnw -pl core test', undefined, flags)?.command, './mvnw -o -B -pl core test');
    assert.equal(reportingCommand('mvn -v', undefined, flags), undefined);
    const plan = subsetCommand(
      'mvn -o -B test',
      undefined,
      { testFiles: ['src/test/java/kata/LeapTest.java'], sourceFiles: [] },
      '/w',
    );
    assert.equal(plan.ok, false);
  });

  it('reads the console summary: failures and errors are failed, skipped count in the total; a compile error has none', () => {
    assert.deepEqual(parseSurefireOutput(recorded('mixed.txt')), { passed: 4, failed: 2, total: 7 });
    assert.equal(parseSurefireOutput(recorded('missing.txt')), undefined);
    assert.deepEqual(parseSurefireOutput('[INFO] No tests to run.\n'), { passed: 0, failed: 0, total: 0 });
    // A multi-module build prints one summary per module: they add up, and the per-class lines are not counted.
    const two =
      '[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0\n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 1\n';
    assert.deepEqual(parseSurefireOutput(two), { passed: 3, failed: 1, total: 5 });
  });

  it('judges each test by file, class and method (a parameterized invocation by its index, a nested class by its name)', async () => {
    const ws = workspaceWithReports();
    try {
      const parsed = parseSurefireReport(await readSurefireReports(ws.dir), ctx);
      assert.deepEqual(parsed.counts, { passed: 4, failed: 2, total: 7 });
      const file = 'src/test/java/kata/FizzBuzzTest.java';
      assert.deepEqual(
        parsed.tests.map((t) => `${t.id} ${t.outcome}`),
        [
          `${file}::FizzBuzzTest > thrown failed`,
          `${file}::FizzBuzzTest > fifteen skipped`,
          `${file}::FizzBuzzTest > one passed`,
          `${file}::FizzBuzzTest > five failed`,
          `${file}::FizzBuzzTest > fizz(int)[1] passed`,
          `${file}::FizzBuzzTest > fizz(int)[2] passed`,
          `${file}::FizzBuzzTest > Large > hundred passed`,
        ],
      );
      const byName = (name: string): TestCaseResult => parsed.tests.find((t) => t.name === `FizzBuzzTest > ${name}`)!;
      assert.equal(byName('five').message, 'org.opentest4j.AssertionFailedError: expected: <Buzz> but was: <5>');
      assert.equal(byName('five').line, 19);
      assert.equal(byName('thrown').message, 'java.lang.IllegalStateException: not yet');
      assert.equal(byName('thrown').line, 24);
      assert.equal(behaviourOf(byName('fizz(int)[1]')), 'fizz');
      assert.equal(
        behaviourOf({ id: 'x', name: 'FizzBuzzTest > buzzForMultiplesOfFive', outcome: 'passed' }),
        'buzz for multiples of five',
      );
    } finally {
      ws.cleanup();
    }
  });

  it("reads every module's reports with the module's folder in each file, and clears only the TEST-*.xml files before a run", async () => {
    const ws = workspaceWithReports(['core', 'app']);
    try {
      const parsed = parseSurefireReport(await readSurefireReports(ws.dir), ctx);
      assert.equal(parsed.tests.length, 14);
      assert.deepEqual([...new Set(parsed.tests.map((t) => t.file))].sort(), [
        'app/src/test/java/kata/FizzBuzzTest.java',
        'core/src/test/java/kata/FizzBuzzTest.java',
      ]);
      writeFileSync(join(ws.dir, 'core/target/surefire-reports/kata.FizzBuzzTest.txt'), 'kept');
      await clearSurefireReports(ws.dir);
      assert.deepEqual(readdirSync(join(ws.dir, 'core/target/surefire-reports')), ['kata.FizzBuzzTest.txt']);
      await assert.rejects(readSurefireReports(ws.dir), /Surefire wrote no report/);
    } finally {
      ws.cleanup();
    }
  });

  it('refuses what is not a Surefire report', () => {
    assert.throws(() => parseSurefireReport('<html></html>', ctx), /not JUnit XML/);
    assert.throws(() => parseSurefireReport('<testsuite><testcase name="x"/></testsuite>', ctx), /without a name or class/);
  });

  it("diagnoses javac's errors: a symbol the new test uses is a missing name, a parse error is syntax, in a test or in the code", () => {
    const missing = diagnoseLoadError(recorded('missing.txt'), 'maven');
    assert.deepEqual(missing, {
      kind: 'missing_export',
      line: 'src/test/java/kata/LeapTest.java:10:16: cannot find symbol',
      module: 'Leap',
    });
    assert.equal(
      describeProblem(missing!),
      "'Leap' does not exist yet — src/test/java/kata/LeapTest.java:10:16: cannot find symbol",
    );
    assert.deepEqual(diagnoseLoadError(recorded('syntax.txt'), 'maven'), {
      kind: 'syntax',
      line: "src/test/java/kata/LeapTest.java:10:34: ';' expected",
    });
    assert.deepEqual(diagnoseLoadError(recorded('main-syntax.txt'), 'maven'), {
      kind: 'syntax',
      line: 'src/main/java/kata/FizzBuzz.java:7:15: illegal start of expression',
    });
    // A method the test calls that the class does not have yet is its name too.
    const method = recorded('missing.txt').replace(/^.*variable Leap$/m, '  symbol:   method isLeap(int)');
    assert.equal(diagnoseLoadError(method, 'maven')?.module, 'isLeap');
    // Failing tests are not a load error.
    assert.equal(diagnoseLoadError(recorded('mixed.txt'), 'maven'), undefined);
  });

  it('finds the test methods of a JUnit class, with their bodies, and sees the names of its own package without imports', () => {
    const source = readFileSync(join(FIXTURES, 'project/src/test/java/kata/FizzBuzzTest.java'), 'utf8');
    const file = 'src/test/java/kata/FizzBuzzTest.java';
    assert.deepEqual(testTitlesIn(file, source), ['one', 'five', 'thrown', 'fifteen', 'fizz', 'hundred']);
    const tests = testsInSource(file, source);
    assert.match(
      tests.find((t) => t.title === 'fizz')!.body,
      /^@ParameterizedTest\s+@ValueSource\(ints = \{3, 6\}\)\s+void fizz\(int n\) \{\s+assertEquals\("Fizz", FizzBuzz\.of\(n\)\);\s+\}$/,
    );
    assert.ok(seesPackageNames(file));
    assert.ok(looksLikeTestFile(file) && hasTestFileName(file));
    assert.ok(looksLikeTestFile('src/test/java/kata/Helpers.java') && !hasTestFileName('src/test/java/kata/Helpers.java'));
    assert.ok(!looksLikeTestFile('src/main/java/kata/FizzBuzz.java'));
  });
});
