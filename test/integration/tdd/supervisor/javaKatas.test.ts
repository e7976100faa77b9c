import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  JAVA_FIZZBUZZ,
  JAVA_LEAP_YEAR,
  javaKataCycles,
  javaSource,
  javaTestClass,
  javaTestFile,
} from '../../../support/javaKataPlans';
import { requireMaven } from '../../../support/javaToolchain';
import { fileOnBranch, SessionHarness } from './sessionHarness';

/**
 * A Maven run is two JVM starts: 5 s on a quiet host, 15 s and more beside a parallel suite. The harness's 20 s limit
 * would end some of them, and a run that timed out is judged as such (not as the red, green or overshoot asked for).
 */
const MAVEN_RUN_MS = 180_000;

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });

// The bundled katas played in Java by the scripted model, with real `mvn -o -B test` runs in the sandbox: the scaffold
// writes a pom.xml whose plugins the local repository holds; the Tester's first test uses a class that does not exist
// yet (javac's `cannot find symbol`: a missing name, the red); each later red is one new failing test by identity from
// Surefire's reports, and each green is every test passing. Maven's target/ never reaches a commit.
describe('TDD supervisor: katas in Java, with the real mvn in the sandbox', function () {
  this.timeout(600_000);
  const h = new SessionHarness();
  before(function () {
    requireMaven(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('FizzBuzz: red then green four times, judged test by test, and complete', async () => {
    const { summary } = await h.run(
      { cycles: javaKataCycles(JAVA_FIZZBUZZ) },
      { kataPath: 'fizzbuzz', language: 'java', testTimeoutMs: MAVEN_RUN_MS },
    );
    assert.deepEqual(
      summary.cycles.map((c) => [c.outcome, c.tests.passed, c.tests.failed]),
      [
        ['green', 1, 0],
        ['green', 2, 0],
        ['green', 3, 0],
        ['green', 4, 0],
        ['kata_complete', 4, 0],
      ],
      JSON.stringify(summary.error),
    );
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.equal(await fileOnBranch(h.workspace, summary.branch, javaTestFile(JAVA_FIZZBUZZ)), javaTestClass(JAVA_FIZZBUZZ, 4));
    assert.match((await fileOnBranch(h.workspace, summary.branch, javaSource(JAVA_FIZZBUZZ))) ?? '', /return "FizzBuzz";/);
    // No target/, no report, nothing of the session's in the commits.
    const files = git(h.workspace, 'ls-tree', '-r', '--name-only', summary.branch);
    assert.deepEqual(files.trim().split('\n').sort(), [
      '.gitignore',
      'pom.xml',
      'src/main/java/.gitkeep',
      'src/main/java/kata/FizzBuzz.java',
      'src/test/java/.gitkeep',
      'src/test/java/kata/FizzBuzzTest.java',
    ]);
    // Each commit is named after its new test, and the branch passes `mvn -o test` in a fresh clone.
    const subjects = git(h.workspace, 'log', '--format=%s', summary.branch);
    assert.match(subjects, /^feat: returns the number itself$/m);
    assert.match(subjects, /^feat: fizz buzz for multiples of fifteen$/m);
    const clone = mkdtempSync(join(tmpdir(), 'java-kata-clone-'));
    try {
      execFileSync('git', ['clone', '-q', '--branch', summary.branch, h.workspace, clone]);
      const out = execFileSync('mvn', ['-o', '-B', 'test'], { cwd: clone, encoding: 'utf8' });
      assert.match(out, /^\[INFO\] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0$/m);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it('Leap Year: three cycles green, and the untested rule named at the end', async () => {
    const { summary } = await h.run(
      { cycles: javaKataCycles(JAVA_LEAP_YEAR) },
      { kataPath: 'leap-year', language: 'java', testTimeoutMs: MAVEN_RUN_MS },
    );
    assert.deepEqual(
      summary.cycles.map((c) => [c.outcome, c.tests.passed]),
      [
        ['green', 1],
        ['green', 2],
        ['green', 3],
        ['kata_complete', 3],
      ],
      JSON.stringify(summary.error),
    );
    assert.equal(summary.status, 'incomplete');
    assert.deepEqual(summary.untested_examples, ['Every other year is a common year (2017, 2019).']);
  });
});

/** Cycle 1's test and a new one that passes already: FizzBuzz.of(2) is "2" since cycle 1. */
const alreadyPassing = javaTestClass(
  JAVA_FIZZBUZZ,
  1,
  '  @Test\n  void twoIsItself() {\n    assertEquals("2", FizzBuzz.of(2));\n  }\n',
);

// The supervisor's discipline in Java, with real mvn runs in the sandbox: a Tester's new test that passes at once is an
// overshoot (undone, asked again), and an Implementer that weakens the Tester's test is caught (the test file is the
// Tester's alone), as in the other languages.
describe('TDD supervisor: discipline in Java (overshoot, an Implementer editing a test)', function () {
  this.timeout(600_000);
  const h = new SessionHarness();
  before(function () {
    requireMaven(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('catches both, and the session still completes with the Tester’s tests as written', async () => {
    const weakened = javaTestClass(JAVA_FIZZBUZZ, 1); // the Implementer drops the failing Fizz test
    const testFile = javaTestFile(JAVA_FIZZBUZZ);
    const { summary } = await h.run(
      {
        cycles: javaKataCycles({ ...JAVA_FIZZBUZZ, steps: JAVA_FIZZBUZZ.steps.slice(0, 2) }),
        completeAfterLastCycle: true,
        overrides: {
          'tester:2:1': { writes: [{ path: testFile, content: alreadyPassing }], report: 'two is itself', runTests: true },
          'implementer:2:1': {
            writes: [{ path: testFile, content: weakened }],
            report: 'the Fizz test was in the way',
            runTests: true,
          },
        },
      },
      { kataPath: 'fizzbuzz', language: 'java', maxCycles: 3, testTimeoutMs: MAVEN_RUN_MS },
    );
    assert.equal(summary.totals.overshoots, 1, JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.slice(0, 2).map((c) => c.outcome),
      ['green', 'green'],
    );
    assert.match(JSON.stringify(h.server.chatRequests()), /The Implementer may not change test files/);
    assert.equal(
      git(h.workspace, 'show', `${summary.branch}:${testFile}`),
      javaTestClass(JAVA_FIZZBUZZ, 2),
      'the Tester’s test file',
    );
  });
});
