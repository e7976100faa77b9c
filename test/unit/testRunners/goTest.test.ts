import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { diagnoseLoadError, describeProblem } from '../../../src/core/testRunners/diagnoseLoadError';
import { parseGoTestOutput } from '../../../src/core/testRunners/parsers/goTestOutput';
import { goModulePath, goTestConsoleText, parseGoTestReport } from '../../../src/core/testRunners/reports/goTestReport';
import { reportingCommand, runnerCall } from '../../../src/core/testRunners/reports/reportCommand';
import { identifyRunner } from '../../../src/core/testRunners/runnerKinds';
import { behaviourOf } from '../../../src/core/tdd/judging/testJudgement';
import { addedTests, importedNames, seesPackageNames, testsInSource, usesName } from '../../../src/core/tdd/phases/addedTests';

/** Real `go test -json` output of Go 1.19, recorded in test/fixtures/go-test-json (see its README). */
const FIXTURES = resolve('test/fixtures/go-test-json');
const recorded = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const ctx = (output: string) => ({ workspace: join(FIXTURES, 'module'), realWorkspace: join(FIXTURES, 'module'), output });

describe('go test: the runner, its report and its load errors', () => {
  it('names `go test` as its runner and asks it for -json right after `test`', () => {
    assert.equal(identifyRunner('go test ./...'), 'go-test');
    assert.equal(identifyRunner('CGO_ENABLED=0 go test -race ./pkg/...'), 'go-test');
    assert.equal(identifyRunner('cargo build'), 'custom');
    assert.equal(runnerCall('go test ./...')?.kind, 'go-test');
    assert.equal(reportingCommand('go test ./...', undefined, () => ['-json'])?.command, 'go test -json ./...');
    assert.equal(
      reportingCommand('go test -v -count=1 ./...', undefined, () => ['-json'])?.command,
      'go test -json -v -count=1 ./...',
    );
    // The person asked for JSON (or a test binary) already: the command runs as written.
    assert.equal(
      reportingCommand('go test -json ./...', undefined, () => ['-json']),
      undefined,
    );
    assert.equal(
      reportingCommand('go vet ./...', undefined, () => ['-json']),
      undefined,
    );
  });

  it('reads each test and subtest by package folder, file and name, with what a failing one printed', async () => {
    const text = recorded('mixed.jsonl');
    const { tests, counts } = await parseGoTestReport(text, ctx(text));
    const byId = new Map(tests.map((t) => [t.id, t]));
    assert.deepEqual(
      tests.map((t) => [t.id, t.outcome]),
      [
        ['fizzbuzz/fizzbuzz_test.go::TestOne', 'passed'],
        ['fizzbuzz/fizzbuzz_test.go::TestThree', 'failed'],
        ['fizzbuzz/fizzbuzz_test.go::TestLater', 'skipped'],
        ['fizzbuzz/table_test.go::TestTable > says_2', 'passed'],
        ['fizzbuzz/table_test.go::TestTable > says_4', 'passed'],
        ['fizzbuzz/table_test.go::TestTable', 'passed'],
      ],
    );
    const three = byId.get('fizzbuzz/fizzbuzz_test.go::TestThree')!;
    assert.equal(three.message, 'fizzbuzz_test.go:13: FizzBuzz(3) = "3", want "Fizz"');
    assert.equal(three.line, 11);
    assert.equal(three.file, 'fizzbuzz/fizzbuzz_test.go');
    assert.deepEqual(counts, { passed: 4, failed: 1, total: 6 });
    // The console text is what `go test -v` prints, and its summary agrees with the report.
    const shown = goTestConsoleText(text);
    assert.match(shown, /^--- FAIL: TestThree \(/m);
    assert.match(shown, /^\?\s+example\.com\/kata\/words\s+\[no test files\]$/m);
    assert.doesNotMatch(shown, /"Action"/);
    assert.deepEqual(parseGoTestOutput(shown), { passed: 4, failed: 1, total: 6 });
    assert.equal(goModulePath('module example.com/kata\n\ngo 1.18\n'), 'example.com/kata');
  });

  it('keeps the package in the name of a test whose file it cannot find', async () => {
    const text =
      '{"Action":"run","Package":"elsewhere.org/x","Test":"TestA"}\n{"Action":"pass","Package":"elsewhere.org/x","Test":"TestA","Elapsed":0.5}\n';
    const { tests } = await parseGoTestReport(text, ctx(text));
    assert.deepEqual(tests, [
      { id: 'elsewhere.org/x > TestA', name: 'elsewhere.org/x > TestA', outcome: 'passed', durationMs: 500 },
    ]);
  });

  it('diagnoses a package that does not build: a missing name, a syntax error', async () => {
    const undefinedName = goTestConsoleText(recorded('undefined.jsonl'));
    const missing = diagnoseLoadError(undefinedName, 'go-test');
    assert.deepEqual(missing, {
      kind: 'missing_export',
      line: 'fizzbuzz/fizzbuzz_test.go:20:12: undefined: Buzz',
      module: 'Buzz',
    });
    assert.match(describeProblem(missing!), /^'Buzz' is not defined — /);
    // The package that built still reports; the one that did not has no test.
    const { tests } = await parseGoTestReport(recorded('undefined.jsonl'), ctx(''));
    assert.deepEqual(tests, []);

    const syntax = diagnoseLoadError(goTestConsoleText(recorded('syntax.jsonl')), 'go-test');
    assert.equal(syntax?.kind, 'syntax');
    assert.match(syntax!.line, /fizzbuzz_test\.go:20:5: expected boolean expression/);

    const method = recorded('method.jsonl');
    assert.deepEqual(diagnoseLoadError(goTestConsoleText(method), 'go-test')?.module, 'Counter');
    const other = await parseGoTestReport(method, ctx(method));
    assert.ok(other.tests.some((t) => t.id === 'fizzbuzz/fizzbuzz_test.go::TestOne' && t.outcome === 'passed'));

    // A test that prints the words of a compile error is a failing test, not a package that did not build.
    assert.equal(
      diagnoseLoadError(goTestConsoleText(recorded('mixed.jsonl')) + 'x.go:1:1: undefined: Foo\n', 'go-test'),
      undefined,
    );
  });

  it('names a commit after a Go test in words', () => {
    const named = (name: string) => behaviourOf({ id: name, name, outcome: 'passed' });
    assert.equal(named('TestBuzzForMultiplesOfFive'), 'buzz for multiples of five');
    assert.equal(named('TestParseHTTPHeader'), 'parse http header');
    assert.equal(named('TestTable > says_2'), 'says 2');
    assert.equal(named('test_returns_fizz'), 'returns fizz');
    assert.equal(named('Testing is fun'), 'Testing is fun');
  });

  it('reads the tests of a _test.go file, and sees the package names without imports', () => {
    const before = readFileSync(join(FIXTURES, 'module/fizzbuzz/fizzbuzz_test.go'), 'utf8');
    const after = `${before}\nfunc TestFive(t *testing.T) {\n\tif got := Buzz(5); got != "Buzz" {\n\t\tt.Errorf("got %q", got)\n\t}\n}\n`;
    const file = 'fizzbuzz/fizzbuzz_test.go';
    assert.deepEqual(
      testsInSource(file, before).map((t) => t.title),
      ['TestOne', 'TestThree', 'TestLater'],
    );
    const added = addedTests(file, before, after);
    assert.deepEqual(
      added.map((t) => t.title),
      ['TestFive'],
    );
    assert.ok(added[0]!.body.endsWith('}\n}'));
    assert.ok(usesName(added[0]!.body, 'Buzz'));
    assert.deepEqual(importedNames(file, after), []);
    assert.ok(seesPackageNames(file));
    assert.ok(!seesPackageNames('test/a.test.js'));
  });

  it('a fuzz test and an example run as tests too (go-humanize has both); a benchmark or a helper does not', () => {
    const source = [
      'func FuzzComma(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, v int64) {})\n}',
      'func ExampleComma() {\n\tfmt.Println(Comma(1000))\n\t// Output: 1,000\n}',
      'func BenchmarkComma(b *testing.B) {\n}',
      'func helperTest(t *testing.T) {\n}',
    ].join('\n\n');
    assert.deepEqual(
      testsInSource('comma_test.go', source).map((t) => t.title),
      ['FuzzComma', 'ExampleComma'],
    );
  });
});
