import { strict as assert } from 'node:assert';
import { parseJestOutput } from '../../../src/core/testRunners/parsers/jestOutput';
import { parseMochaOutput } from '../../../src/core/testRunners/parsers/mochaOutput';
import { parseNodeTestOutput } from '../../../src/core/testRunners/parsers/nodeTestOutput';
import { parsePytestOutput } from '../../../src/core/testRunners/parsers/pytestOutput';
import { parseUnittestOutput } from '../../../src/core/testRunners/parsers/unittestOutput';
import { parseVitestOutput } from '../../../src/core/testRunners/parsers/vitestOutput';
import { parserFor } from '../../../src/core/testRunners/runnerKinds';

// Summaries copied from the runners' real output (jest and vitest are not installed here, so their
// lines come from their documentation and issue reports; node, mocha and pytest are also run for real
// in test/integration/testRunners).
describe('test output parsers', () => {
  it('reads node:test TAP and spec summaries', () => {
    const tap =
      'TAP version 13\nok 1 - a\nnot ok 2 - b\n1..2\n# tests 2\n# suites 0\n# pass 1\n# fail 1\n# cancelled 0\n# skipped 0\n';
    assert.deepEqual(parseNodeTestOutput(tap), { passed: 1, failed: 1, total: 2 });
    const spec = '✔ a (0.5ms)\n✖ b (1ms)\nℹ tests 3\nℹ suites 0\nℹ pass 2\nℹ fail 0\nℹ cancelled 1\nℹ skipped 0\n';
    assert.deepEqual(parseNodeTestOutput(spec), { passed: 2, failed: 1, total: 3 });
    const emptyFile =
      '# Subtest: /tmp/w/test/empty.test.js\nok 1 - /tmp/w/test/empty.test.js\n  ---\n  ...\n1..1\n# tests 1\n# pass 1\n# fail 0\n';
    assert.deepEqual(parseNodeTestOutput(emptyFile), { passed: 0, failed: 0, total: 0 }, 'a file without tests is not a test');
    assert.equal(parseNodeTestOutput('SyntaxError: Unexpected token'), undefined);
  });

  it('reads mocha summaries, with colours', () => {
    assert.deepEqual(parseMochaOutput('\n  \u001b[32m  3 passing\u001b[0m (5ms)\n  1 failing\n  2 pending\n'), {
      passed: 3,
      failed: 1,
      total: 6,
    });
    assert.deepEqual(parseMochaOutput('  0 passing (1ms)\n'), { passed: 0, failed: 0, total: 0 });
    assert.equal(parseMochaOutput('Error: No test files found'), undefined);
  });

  it('reads jest summaries', () => {
    const out = 'Test Suites: 1 failed, 1 total\nTests:       1 failed, 1 skipped, 2 passed, 4 total\nSnapshots:   0 total\n';
    assert.deepEqual(parseJestOutput(out), { passed: 2, failed: 1, total: 4 });
    assert.deepEqual(parseJestOutput('Tests:       5 passed, 5 total'), { passed: 5, failed: 0, total: 5 });
  });

  it('reads vitest summaries', () => {
    const out = ' Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 2 passed (3)\n   Start at  10:00:00\n';
    assert.deepEqual(parseVitestOutput(out), { passed: 2, failed: 1, total: 3 });
  });

  it('reads pytest summaries, including collection errors and no tests', () => {
    assert.deepEqual(parsePytestOutput('========================= 1 failed, 2 passed in 1.41s =========================='), {
      passed: 2,
      failed: 1,
      errors: 0,
      total: 3,
    });
    assert.deepEqual(parsePytestOutput('3 passed, 1 skipped in 0.02s'), { passed: 3, failed: 0, errors: 0, total: 4 });
    assert.deepEqual(parsePytestOutput('=============================== 1 error in 1.65s ==============================='), {
      passed: 0,
      failed: 0,
      errors: 1,
      total: 1,
    });
    assert.deepEqual(parsePytestOutput('============================ no tests ran in 1.81s ============================='), {
      passed: 0,
      failed: 0,
      total: 0,
    });
  });

  it("reads pytest 9's summaries with subtests as counts of tests", () => {
    // `-q`/`-v` add the passed subtests to the summary: they are not tests.
    assert.deepEqual(parsePytestOutput('736 passed, 21039 subtests passed in 15.98s'), {
      passed: 736,
      failed: 0,
      errors: 0,
      total: 736,
    });
    // Each failing subtest is one of `failed`, and a unittest method whose subtests failed is one of `passed`: the
    // short summary's SUBFAILED lines say which tests they were (T::test_a three times, test_c once and FAILED too).
    const output = [
      '=========================== short test summary info ============================',
      'SUBFAILED(x=1) test_s.py::T::test_a - AssertionError: 1 != 5',
      "SUBFAILED[a message] (x='a b') test_s.py::T::test_a - AssertionError: 2 != 5",
      'SUBFAILED(x=3) test_s.py::T::test_a',
      'SUBFAILED(x=2) test_s.py::test_c - assert 2 == 1',
      'FAILED test_s.py::test_c - contains 1 failed subtest',
      '================ 5 failed, 2 passed, 3 subtests passed in 0.47s ================',
    ].join('\n');
    assert.deepEqual(parsePytestOutput(output), { passed: 1, failed: 2, errors: 0, total: 3 });
  });

  it('reads `python -m unittest` summaries (Python 3.11 and 3.12+)', () => {
    const failed =
      'test_ok (test_a.T.test_ok) ... ok\n\n' +
      '======================================================================\nFAIL: test_fail (test_a.T.test_fail)\n' +
      '----------------------------------------------------------------------\nRan 5 tests in 0.000s\n\n' +
      'FAILED (failures=1, errors=1, skipped=1, expected failures=1)\n';
    assert.deepEqual(parseUnittestOutput(failed), { passed: 1, failed: 2, total: 5 });
    assert.deepEqual(parseUnittestOutput('.......\n---\nRan 16 tests in 0.039s\n\nOK\n'), { passed: 16, failed: 0, total: 16 });
    assert.deepEqual(parseUnittestOutput('Ran 3 tests in 0.001s\n\nOK (skipped=1)\n'), { passed: 2, failed: 0, total: 3 });
    assert.deepEqual(parseUnittestOutput('E\nRan 1 test in 0.000s\n\nFAILED (errors=1)\n'), { passed: 0, failed: 1, total: 1 });
    assert.deepEqual(parseUnittestOutput('Ran 2 tests in 0.000s\n\nFAILED (unexpected successes=1)\n'), {
      passed: 1,
      failed: 1,
      total: 2,
    });
    assert.deepEqual(parseUnittestOutput('\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n'), { passed: 0, failed: 0, total: 0 });
    assert.equal(parseUnittestOutput('Traceback (most recent call last):\nImportError: x\n'), undefined);
    assert.deepEqual(parserFor('custom')('Ran 16 tests in 0.039s\n\nOK\n'), { passed: 16, failed: 0, total: 16 });
  });

  it('tries every parser for a custom command', () => {
    assert.deepEqual(parserFor('custom')('  4 passing (3ms)\n'), { passed: 4, failed: 0, total: 4 });
    assert.equal(parserFor('custom')('hello'), undefined);
  });
});
