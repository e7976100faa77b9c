import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PHP_FIZZBUZZ, PHP_LEAP_YEAR, phpKataCycles, phpSource, phpTestClass, phpTestFile } from '../../../support/phpKataPlans';
import { requirePhpunit } from '../../../support/phpToolchain';
import { fileOnBranch, initPersonRepo, SessionHarness } from './sessionHarness';

// The bundled katas played in PHP by the scripted model, with real phpunit runs in the sandbox: the scaffold writes
// composer.json, phpunit.xml and a bootstrap that autoloads src/ without vendor/; the Tester's first test calls a
// class that does not exist yet (PHPUnit reports the test as errored: one new failing test, the red); each later red
// is one new failing test by identity, and each green is every test passing.
describe('TDD supervisor: katas in PHP, with the real phpunit in the sandbox', function () {
  this.timeout(300_000);
  const h = new SessionHarness();
  before(function () {
    requirePhpunit(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('FizzBuzz: red then green four times, judged test by test, and complete', async () => {
    const { summary } = await h.run({ cycles: phpKataCycles(PHP_FIZZBUZZ) }, { kataPath: 'fizzbuzz', language: 'php' });
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
    assert.equal(await fileOnBranch(h.workspace, summary.branch, phpTestFile(PHP_FIZZBUZZ)), phpTestClass(PHP_FIZZBUZZ, 4));
    assert.match((await fileOnBranch(h.workspace, summary.branch, phpSource(PHP_FIZZBUZZ))) ?? '', /return 'FizzBuzz';/);
    // No result cache, no report, nothing of the session's in the commits.
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', summary.branch], { cwd: h.workspace, encoding: 'utf8' });
    assert.deepEqual(files.trim().split('\n').sort(), [
      '.gitignore',
      'composer.json',
      'phpunit.xml',
      'src/.gitkeep',
      'src/FizzBuzz.php',
      'tests/FizzBuzzTest.php',
      'tests/bootstrap.php',
    ]);
    // Each commit is named after its new test, and the branch passes `phpunit` in a fresh clone.
    const subjects = execFileSync('git', ['log', '--format=%s', summary.branch], { cwd: h.workspace, encoding: 'utf8' });
    assert.match(subjects, /^feat: returns the number itself$/m);
    assert.match(subjects, /^feat: fizz buzz for multiples of fifteen$/m);
    const clone = mkdtempSync(join(tmpdir(), 'php-kata-clone-'));
    try {
      execFileSync('git', ['clone', '-q', '--branch', summary.branch, h.workspace, clone]);
      const out = execFileSync('phpunit', [], { cwd: clone, encoding: 'utf8' });
      assert.match(out, /^OK \(4 tests, 7 assertions\)$/m);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it('Leap Year: three cycles green, and the untested rule named at the end', async () => {
    const { summary } = await h.run({ cycles: phpKataCycles(PHP_LEAP_YEAR) }, { kataPath: 'leap-year', language: 'php' });
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

/** Cycle 1's test and a new one that passes already: FizzBuzz::of(2) is "2" since cycle 1. */
const alreadyPassing = phpTestClass(
  PHP_FIZZBUZZ,
  1,
  `    public function testTwoIsItself(): void\n    {\n        $this->assertSame('2', FizzBuzz::of(2));\n    }\n`,
);

// The supervisor's discipline in PHP, with real phpunit runs in the sandbox: a Tester's new test that passes at once is
// an overshoot (undone, asked again), and an Implementer that weakens the Tester's test is caught (the test file is
// the Tester's alone), as in JavaScript, Python and Go.
describe('TDD supervisor: discipline in PHP (overshoot, an Implementer editing a test)', function () {
  this.timeout(300_000);
  const h = new SessionHarness();
  before(function () {
    requirePhpunit(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('catches both, and the session still completes with the Tester’s tests as written', async () => {
    const weakened = phpTestClass(PHP_FIZZBUZZ, 1); // the Implementer drops the failing Fizz test
    const testFile = phpTestFile(PHP_FIZZBUZZ);
    const { summary } = await h.run(
      {
        cycles: phpKataCycles({ ...PHP_FIZZBUZZ, steps: PHP_FIZZBUZZ.steps.slice(0, 2) }),
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
      { kataPath: 'fizzbuzz', language: 'php', maxCycles: 3 },
    );
    assert.equal(summary.totals.overshoots, 1, JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.slice(0, 2).map((c) => c.outcome),
      ['green', 'green'],
    );
    assert.match(JSON.stringify(h.server.chatRequests()), /The Implementer may not change test files/);
    const onBranch = execFileSync('git', ['show', `${summary.branch}:${testFile}`], { cwd: h.workspace, encoding: 'utf8' });
    assert.equal(onBranch, phpTestClass(PHP_FIZZBUZZ, 2), 'the Tester’s test file, not the weakened one');
  });
});

/** A stand-in for Composer's vendor/autoload.php: classes of the global namespace from src/. */
const VENDOR_AUTOLOAD =
  "<?php\nspl_autoload_register(function (string $c): void { $f = __DIR__ . '/../src/' . $c . '.php'; if (is_file($f)) require $f; });\n";

// A person's Composer package whose phpunit.xml names no bootstrap: the classes load through their git-ignored
// vendor/autoload.php, which the session never copies nor installs, and sees as they have it.
describe("TDD supervisor: a PHP package's own vendor/, as the person has it", function () {
  this.timeout(300_000);
  const h = new SessionHarness();
  before(function () {
    requirePhpunit(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('runs phpunit --bootstrap vendor/autoload.php in the sandbox; vendor/ stays out of the commits and unchanged', async () => {
    await initPersonRepo(h.workspace, {
      'composer.json': JSON.stringify({ name: 'acme/fizzbuzz', autoload: { 'psr-4': { '': 'src/' } } }, null, 2),
      'phpunit.xml': '<phpunit><testsuites><testsuite name="a"><directory>tests</directory></testsuite></testsuites></phpunit>\n',
      '.gitignore': 'vendor/\n',
      'src/.gitkeep': '',
      'tests/.gitkeep': '',
    });
    mkdirSync(join(h.workspace, 'vendor'));
    writeFileSync(join(h.workspace, 'vendor/autoload.php'), VENDOR_AUTOLOAD);
    const { summary, events } = await h.run(
      { cycles: phpKataCycles({ ...PHP_FIZZBUZZ, steps: PHP_FIZZBUZZ.steps.slice(0, 2) }), completeAfterLastCycle: true },
      { kataPath: 'fizzbuzz', language: 'php', maxCycles: 2 },
    );
    const profile = events.find((e) => e.type === 'project_profile');
    assert.match(JSON.stringify(profile), /phpunit --bootstrap vendor\/autoload\.php/);
    assert.deepEqual(
      summary.cycles.slice(0, 2).map((c) => [c.outcome, c.tests.passed]),
      [
        ['green', 1],
        ['green', 2],
      ],
      JSON.stringify(summary.error),
    );
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', summary.branch], { cwd: h.workspace, encoding: 'utf8' });
    assert.ok(!files.includes('vendor/'), files);
    assert.equal(readFileSync(join(h.workspace, 'vendor/autoload.php'), 'utf8'), VENDOR_AUTOLOAD);
  });
});
