import assert from 'node:assert/strict';
import { failureLines } from '../../../src/vscode/panel/panelReducer';
import { casesFromReport, parseTestCases } from '../../../src/vscode/testing/testCaseResults';

const TAP = `TAP version 13
# Subtest: returns the number itself for 1
ok 1 - returns the number itself for 1
  ---
  duration_ms: 5.876229
  ...
# Subtest: returns Fizz for multiples of three
not ok 2 - returns Fizz for multiples of three
  ---
  duration_ms: 8.978009
  location: '/tmp/ws/test/f.test.js:4:1'
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:

    '3' !== 'Fizz'

  code: 'ERR_ASSERTION'
  stack: |-
    TestContext.<anonymous> (file:///tmp/ws/test/f.test.js:5:10)
  ...
1..2
# tests 2
# pass 1
# fail 1`;

const SPEC = `✔ returns the number itself for 1 (11.172512ms)
✖ returns Fizz for multiples of three (7.187668ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  '3' !== 'Fizz'

      at TestContext.<anonymous> (file:///tmp/ws/test/f.test.js:5:10)
      at Test.runInAsyncScope (node:async_hooks:206:9) {
    generatedMessage: true,
    code: 'ERR_ASSERTION'
  }

ℹ tests 2
ℹ pass 1
ℹ fail 1

✖ failing tests:

test at test/f.test.js:4:1
✖ returns Fizz for multiples of three (7.187668ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:`;

describe("the kata's tests from a runner's output (Testing view)", () => {
  it('reads node:test TAP: names, results, the assertion text and the location', () => {
    assert.deepEqual(parseTestCases(TAP), [
      { name: 'returns the number itself for 1', passed: true },
      {
        name: 'returns Fizz for multiples of three',
        passed: false,
        message: "Expected values to be strictly equal:\n\n'3' !== 'Fizz'",
        location: { path: '/tmp/ws/test/f.test.js', line: 4 },
      },
    ]);
  });

  it('reads the spec reporter once per test (the failing-tests summary adds nothing new), without the stack or error fields', () => {
    const cases = parseTestCases(SPEC);
    assert.equal(cases.length, 2);
    assert.deepEqual(cases[0], { name: 'returns the number itself for 1', passed: true });
    assert.equal(cases[1]?.passed, false);
    assert.equal(cases[1]?.message, "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n'3' !== 'Fizz'");
    assert.deepEqual(cases[1]?.location, { path: '/tmp/ws/test/f.test.js', line: 5 });
  });

  it('reads mocha/jest ticks and crosses and pytest -v lines; output without tests gives none', () => {
    assert.deepEqual(
      parseTestCases('  fizzbuzz\n    ✓ says 1\n    ✕ says Fizz (3 ms)\n').map((c) => [c.name, c.passed]),
      [
        ['says 1', true],
        ['says Fizz', false],
      ],
    );
    assert.deepEqual(
      parseTestCases('tests/test_fizz.py::test_one PASSED    [ 50%]\ntests/test_fizz.py::test_fizz FAILED   [100%]\n').map(
        (c) => [c.name, c.passed],
      ),
      [
        ['tests/test_fizz.py::test_one', true],
        ['tests/test_fizz.py::test_fizz', false],
      ],
    );
    assert.deepEqual(parseTestCases('SyntaxError: Unexpected token\n'), []);
  });

  it("the history's failing lines keep where the failing test is (the panel links it)", () => {
    assert.ok(failureLines(TAP).includes("  location: '/tmp/ws/test/f.test.js:4:1'"));
    assert.ok(failureLines(SPEC).includes('test at test/f.test.js:4:1'));
  });
  it("prefers the run's own report: ids, full names, skipped tests, the file and line of each test", () => {
    const cases = casesFromReport([
      { id: 'test/f.test.js::fizzbuzz > says 1', name: 'fizzbuzz > says 1', file: 'test/f.test.js', outcome: 'passed', line: 3 },
      {
        id: 'test/f.test.js::fizzbuzz > says Fizz',
        name: 'fizzbuzz > says Fizz',
        file: 'test/f.test.js',
        outcome: 'failed',
        line: 4,
        message: Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n'),
      },
      { id: 'test/f.test.js::later', name: 'later', file: 'test/f.test.js', outcome: 'skipped' },
      { id: 'no file', name: 'no file', outcome: 'failed' },
    ]);
    assert.deepEqual(cases[0], {
      id: 'test/f.test.js::fizzbuzz > says 1',
      name: 'fizzbuzz > says 1',
      passed: true,
      location: { path: 'test/f.test.js', line: 3 },
    });
    assert.equal(cases[1]?.passed, false);
    assert.equal(cases[1]?.message?.split('\n').length, 12);
    assert.deepEqual(cases[1]?.location, { path: 'test/f.test.js', line: 4 });
    assert.deepEqual(cases[2], {
      id: 'test/f.test.js::later',
      name: 'later',
      passed: false,
      skipped: true,
      location: { path: 'test/f.test.js', line: 1 },
    });
    assert.deepEqual(cases[3], { id: 'no file', name: 'no file', passed: false });
  });
});
