import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { diagnoseLoadError } from '../../../src/core/testRunners/diagnoseLoadError';
import { parseMinitestReport } from '../../../src/core/testRunners/reports/minitestReport';
import { reportingCommand, runnerCall } from '../../../src/core/testRunners/reports/reportCommand';
import { RUNNER_REPORTS } from '../../../src/core/testRunners/reports/runnerReports';
import { identifyRunner } from '../../../src/core/testRunners/runnerKinds';
import { MINITEST_COMMAND } from '../../../src/core/project/rubyProject';

/** What the plugin wrote for test/fixtures/minitest-output/project (see its README). */
const REPORT = readFileSync(join(resolve('test/fixtures/minitest-output'), 'report.jsonl'), 'utf8');
const ctx = {
  workspace: '/host/project',
  realWorkspace: '/work/project',
  output: '5 runs, 3 assertions, 1 failures, 1 errors, 1 skips\n',
};

describe('minitest: each test by identity, from the plugin of ours minitest loads', () => {
  it('names minitest for rake test, rails test and ruby with the tests on its load path; adds nothing to the command', () => {
    for (const command of [
      'rake test',
      'bundle exec rake test',
      'rake test:units',
      'bin/rails test',
      MINITEST_COMMAND,
      'ruby -Itest test/leap_test.rb',
    ]) {
      assert.equal(identifyRunner(command), 'minitest', command);
      assert.equal(runnerCall(command)?.kind, 'minitest', command);
      assert.equal(
        reportingCommand(command, undefined, (kind) =>
          RUNNER_REPORTS[kind].flags({ report: 'r', absoluteReport: '/r', reporter: '' }),
        )?.command,
        command,
      );
    }
    for (const command of ['rake spec', 'ruby script.rb', 'rake testing'])
      assert.notEqual(identifyRunner(command), 'minitest', command);
    assert.equal(runnerCall('rake test --no-plugins')?.ownChoice, true);
  });

  it('reads each test by file, class and name, a spec-style test by its words; an error is a failure, a skip skipped', () => {
    const { tests, counts } = parseMinitestReport(REPORT, ctx);
    assert.deepEqual(
      tests.map((t) => [t.id, t.outcome, t.line]),
      [
        ['test/fizz_test.rb::FizzTest > test_buzz', 'failed', 7],
        ['test/fizz_test.rb::FizzTest > test_one', 'passed', 4],
        ['test/fizz_test.rb::FizzTest > test_error', 'failed', 10],
        ['test/fizz_test.rb::FizzTest > test_skip', 'skipped', 13],
        ['test/test_other.rb::Other > works fine', 'passed', 3],
      ],
    );
    assert.match(tests[0]!.message!, /-"Buzz"\n[^]*\+"5"/);
    assert.match(tests[2]!.message!, /^NoMethodError: undefined method `nope' for Fizz:Module/);
    assert.deepEqual(counts, { passed: 2, failed: 2, total: 5 });
  });

  it('a test whose file lies outside the workspace has no file; a line that is not JSON is no report', () => {
    const outside = '{"class":"T","name":"test_x","file":"/elsewhere/t.rb","line":1,"outcome":"passed"}\n';
    assert.deepEqual(
      parseMinitestReport(outside, { ...ctx, output: '1 runs, 1 assertions, 0 failures, 0 errors, 0 skips\n' }).tests.map((t) => [
        t.id,
        t.file,
      ]),
      [['T > test_x', undefined]],
    );
    assert.throws(() => parseMinitestReport('3 runs, 3 assertions\n', ctx), /not JSON/);
  });

  it('a report that is not the whole run is not used: test-unit (rake’s own suite) starting one minitest process', () => {
    // Recorded on ruby/rake: 606 tests on test-unit, one of which runs a minitest process that the plugin reported.
    const one = '{"class":"ExitTaskTest","name":"test_exit","file":"/work/project/t.rb","line":1,"outcome":"failed"}\n';
    const output = '606 tests, 1471 assertions, 0 failures, 0 errors, 0 pendings, 1 omissions, 0 notifications\n100% passed\n';
    assert.throws(() => parseMinitestReport(one, { ...ctx, output }), /holds 1 tests where the run's summaries say 0/);
    // Two processes (two test tasks): their summaries add up.
    const two = `${ctx.output}${'1 runs, 1 assertions, 0 failures, 0 errors, 0 skips\n'}`;
    const report = `${REPORT}{"class":"B","name":"test_b","file":"/work/project/test/b_test.rb","line":2,"outcome":"passed"}\n`;
    assert.equal(parseMinitestReport(report, { ...ctx, output: two }).tests.length, 6);
  });
});

describe('minitest: test files that do not load', () => {
  const recorded = (name: string) => readFileSync(join(resolve('test/fixtures/minitest-output'), name), 'utf8');
  it('a required file or a constant not written yet is a missing name; a syntax error goes back to the Tester', () => {
    assert.deepEqual(diagnoseLoadError(recorded('load-missing-file.txt'), 'minitest'), {
      kind: 'missing_module',
      line: 'test/leap_test.rb: LoadError: cannot load such file -- leap',
      module: 'leap',
    });
    assert.deepEqual(diagnoseLoadError(recorded('load-missing-constant.txt'), 'minitest'), {
      kind: 'missing_export',
      line: 'test/leap_test.rb: NameError: uninitialized constant LeapTest::Leap',
      module: 'Leap',
    });
    const syntax = diagnoseLoadError(recorded('load-syntax.txt'), 'minitest');
    assert.equal(syntax?.kind, 'syntax');
    assert.match(syntax!.line, /^test\/leap_test\.rb: SyntaxError: syntax error, unexpected `end', expecting '\)'$/);
  });

  it('an exception inside a test is a failing test, not a load error', () => {
    assert.equal(diagnoseLoadError(recorded('mixed.txt'), 'minitest'), undefined);
    // test-unit's summary says the same: the files loaded, whatever ruby printed before it (a test's own process).
    const uncaught = "/work/project/test/test_calc.rb:9:in `<class:Sub>': uninitialized constant Sub::Foo (NameError)\n";
    assert.equal(diagnoseLoadError(uncaught + recorded('test-unit.txt'), 'minitest'), undefined);
    assert.equal(diagnoseLoadError(uncaught, 'minitest')?.kind, 'missing_export');
  });
});
