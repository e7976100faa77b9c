import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { diagnoseLoadError, describeProblem } from '../../../src/core/testRunners/diagnoseLoadError';
import { parseRspecOutput } from '../../../src/core/testRunners/parsers/rspecOutput';
import { parseRspecReport } from '../../../src/core/testRunners/reports/rspecReport';
import { RUNNER_REPORTS } from '../../../src/core/testRunners/reports/runnerReports';
import { reportingCommand, runnerCall } from '../../../src/core/testRunners/reports/reportCommand';
import { subsetCommand } from '../../../src/core/testRunners/subsets/subsetCommand';
import { identifyRunner, parserFor } from '../../../src/core/testRunners/runnerKinds';
import { parseMinitestOutput } from '../../../src/core/testRunners/parsers/minitestOutput';
import { testTitlesIn } from '../../../src/core/testRunners/testTitles';
import { addedTests, importedNames, seesPackageNames, testsInSource } from '../../../src/core/tdd/phases/addedTests';

/** Real RSpec 3.12 output, recorded in test/fixtures/rspec-json (see its README). */
const FIXTURES = resolve('test/fixtures/rspec-json');
const recorded = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const RECORDED_AT = '/tmp/rspec-record';
const ctx = (output: string) => ({ workspace: RECORDED_AT, realWorkspace: RECORDED_AT, output });
const flags = RUNNER_REPORTS.rspec.flags({
  report: '.tdd/reports/r.json',
  absoluteReport: '/w/.tdd/reports/r.json',
  reporter: '',
});

describe('RSpec: the runner, its report and its load errors', () => {
  it('names rspec as its runner and adds the JSON formatter beside the console one, right after the binary', () => {
    assert.equal(identifyRunner('rspec'), 'rspec');
    assert.equal(identifyRunner('bundle exec rspec spec/models'), 'rspec');
    assert.equal(identifyRunner('bin/rspec'), 'rspec');
    assert.equal(identifyRunner('rake test'), 'minitest');
    assert.equal(identifyRunner('rake spec'), 'custom');
    assert.equal(runnerCall('bundle exec rspec')?.kind, 'rspec');
    assert.equal(
      reportingCommand('rspec spec/fizzbuzz_spec.rb', undefined, () => flags)?.command,
      'rspec --format progress --format json --out .tdd/reports/r.json spec/fizzbuzz_spec.rb',
    );
    assert.equal(
      reportingCommand('bundle exec rspec', undefined, () => flags)?.command,
      'bundle exec rspec --format progress --format json --out .tdd/reports/r.json',
    );
    // A formatter or an output the person chose: the command runs as written.
    assert.equal(
      reportingCommand('rspec --format documentation', undefined, () => flags),
      undefined,
    );
    assert.equal(
      reportingCommand('rspec -f d', undefined, () => flags),
      undefined,
    );
  });

  it('runs only the changed spec files as a subset, options kept', () => {
    const plan = subsetCommand(
      'rspec --order defined spec',
      undefined,
      { testFiles: ['spec/leap_spec.rb'], sourceFiles: ['lib/leap.rb'] },
      '/w',
    );
    assert.ok(plan.ok, JSON.stringify(plan));
    assert.equal(plan.subset.withFlags([]), 'rspec --order defined spec/leap_spec.rb');
  });

  it('reads each example by file and its groups and title, with a failure message as the console shows it', () => {
    const text = recorded('mixed.json');
    const { tests, counts } = parseRspecReport(text, ctx(recorded('mixed.txt')));
    assert.deepEqual(
      tests.map((t) => [t.id, t.outcome, t.line]),
      [
        ['spec/fizzbuzz_spec.rb::FizzBuzz > says the number itself', 'passed', 4],
        ['spec/fizzbuzz_spec.rb::FizzBuzz > says Fizz for multiples of three', 'passed', 8],
        ['spec/fizzbuzz_spec.rb::FizzBuzz > says Buzz for multiples of five', 'failed', 12],
        ['spec/fizzbuzz_spec.rb::FizzBuzz > says FizzBuzz for multiples of fifteen', 'skipped', 16],
        ['spec/fizzbuzz_spec.rb::FizzBuzz with numbers past a hundred > still says the number', 'passed', 21],
        ['spec/words_spec.rb::FizzBuzz.of > raises on a string', 'failed', 4],
      ],
    );
    assert.equal(tests[2]!.message, 'expected: "Buzz"\n     got: "5"\n\n(compared using ==)');
    assert.match(tests[5]!.message!, /^NoMethodError: undefined method `zero\?' for "three":String/);
    assert.equal(tests[3]!.message, 'not yet');
    assert.deepEqual(counts, { passed: 3, failed: 2, total: 6 });
    // The console's summary says the same.
    assert.deepEqual(parseRspecOutput(recorded('mixed.txt')), { passed: 3, failed: 2, total: 6 });
  });

  it('an example calling a method the code does not have yet is a failing example, not a load error', () => {
    const { tests } = parseRspecReport(recorded('undefined-method.json'), ctx(''));
    const fizzes = tests.find((t) => t.name === 'FizzBuzz > counts the fizzes up to fifteen')!;
    assert.equal(fizzes.outcome, 'failed');
    assert.match(fizzes.message!, /^NoMethodError: undefined method `fizzes' for FizzBuzz:Module/);
    assert.equal(diagnoseLoadError(recorded('undefined-method.txt'), 'rspec'), undefined);
  });

  it('a spec that names a class nobody defines is a missing name; a required file that is not there a missing module', () => {
    const uninitialized = recorded('uninitialized.txt');
    assert.deepEqual(parseRspecOutput(uninitialized), { passed: 0, failed: 0, total: 0, errors: 1 });
    assert.equal(parseRspecReport(recorded('uninitialized.json'), ctx(uninitialized)).tests.length, 0);
    const name = diagnoseLoadError(uninitialized, 'rspec')!;
    assert.deepEqual(name, {
      kind: 'missing_export',
      line: 'spec/leap_spec.rb: NameError: uninitialized constant LeapYear',
      module: 'LeapYear',
    });
    assert.match(describeProblem(name), /^'LeapYear' is not defined — /);
    assert.deepEqual(diagnoseLoadError(recorded('cannot-load.txt'), 'rspec'), {
      kind: 'missing_module',
      line: 'spec/roman_spec.rb: LoadError: cannot load such file -- roman',
      module: 'roman',
    });
  });

  it('a spec that does not parse is a syntax error (back to the Tester)', () => {
    const problem = diagnoseLoadError(recorded('syntax.txt'), 'rspec')!;
    assert.equal(problem.kind, 'syntax');
    assert.match(
      problem.line,
      /^spec\/broken_spec\.rb: SyntaxError: .*broken_spec\.rb:6: syntax error, unexpected `end', expecting '\)'/,
    );
  });

  it("reads a spec's examples from its source, and what a require names by Ruby's convention", () => {
    const before =
      "require 'leap_year'\n\nRSpec.describe LeapYear do\n  it 'is a leap year every fourth year' do\n    expect(LeapYear.leap?(1996)).to be(true)\n  end\nend\n";
    const after = before.replace(
      'end\nend\n',
      'end\n\n  it "is not one every hundredth" do\n    expect(LeapYear.leap?(1900)).to be(false)\n  end\n\n  it(\'is one every four hundredth\') { expect(LeapYear.leap?(2000)).to be(true) }\nend\n',
    );
    const file = 'spec/leap_year_spec.rb';
    assert.deepEqual(testTitlesIn(file, after), [
      'is a leap year every fourth year',
      'is not one every hundredth',
      'is one every four hundredth',
    ]);
    const added = addedTests(file, before, after);
    assert.deepEqual(
      added.map((t) => t.title),
      ['is not one every hundredth', 'is one every four hundredth'],
    );
    assert.equal(added[0]!.body, '  it "is not one every hundredth" do\n    expect(LeapYear.leap?(1900)).to be(false)\n  end');
    assert.equal(added[1]!.body, "  it('is one every four hundredth') { expect(LeapYear.leap?(2000)).to be(true) }");
    assert.equal(seesPackageNames(file), true);
    assert.deepEqual(importedNames(file, after), [{ name: 'LeapYear', from: 'leap_year' }]);
    const minitest = 'class LeapTest < Minitest::Test\n  def test_fourth_year\n    assert Leap.leap?(1996)\n  end\nend\n';
    assert.deepEqual(
      testsInSource('test/leap_test.rb', minitest).map((t) => [t.title, t.body]),
      [['test_fourth_year', '  def test_fourth_year\n    assert Leap.leap?(1996)\n  end']],
    );
  });
});

describe('minitest: the console counts of a custom command', () => {
  it('reads `4 runs, …, 1 failures, 1 errors, 1 skips` as 1 passed, 2 failed, 4 in all', () => {
    const output = readFileSync(join(resolve('test/fixtures/minitest-output'), 'mixed.txt'), 'utf8');
    assert.deepEqual(parseMinitestOutput(output), { passed: 1, failed: 2, total: 4 });
    assert.deepEqual(parserFor('custom')(output), { passed: 1, failed: 2, total: 4 });
    assert.equal(parseMinitestOutput('3 examples, 0 failures'), undefined);
  });

  it("reads test-unit's summary (rake's own suite, older gems): a pending and an omission count in the total only", () => {
    const output = readFileSync(join(resolve('test/fixtures/minitest-output'), 'test-unit.txt'), 'utf8');
    assert.deepEqual(parseMinitestOutput(output), { passed: 1, failed: 2, total: 5 });
    assert.deepEqual(parserFor('minitest')(output), { passed: 1, failed: 2, total: 5 });
    // Recorded on ruby/rake: one of its tests runs a minitest process, whose summary is not the run's.
    const rake = [
      '1 runs, 1 assertions, 1 failures, 0 errors, 0 skips',
      '606 tests, 1471 assertions, 0 failures, 0 errors, 0 pendings, 1 omissions, 0 notifications',
      '100% passed',
    ].join('\n');
    assert.deepEqual(parseMinitestOutput(rake), { passed: 605, failed: 0, total: 606 });
  });
});
