import { strict as assert } from 'node:assert';
import { withoutRuntimeFrames } from '../../../src/core/testRunners/runtimeFrames';
import { compactTestOutput } from '../../../src/core/testRunners/compactTestOutput';

describe('withoutRuntimeFrames: test output as the model gets it', () => {
  it("counts node:test's runtime frames in a YAML stack and keeps the workspace's own frame", () => {
    const out = [
      '  stack: |-',
      '    TestContext.<anonymous> (file://./test/fizzbuzz.test.js:10:10)',
      '    Test.runInAsyncScope (node:async_hooks:206:9)',
      '    Test.run (node:internal/test_runner/test:796:25)',
      '    async Test.processPendingSubtests (node:internal/test_runner/test:526:7)',
      '  ...',
    ].join('\n');
    assert.equal(
      withoutRuntimeFrames(out),
      [
        '  stack: |-',
        '    TestContext.<anonymous> (file://./test/fizzbuzz.test.js:10:10)',
        '    (3 Node.js runtime frames left out)',
        '  ...',
      ].join('\n'),
    );
  });

  it('counts `at` frames in TAP comments, keeps the source location header, the message and other lines', () => {
    const out = [
      '# node:internal/modules/esm/resolve:283',
      "# Error [ERR_MODULE_NOT_FOUND]: Cannot find module './src/fizzbuzz.js'",
      '#     at finalizeResolution (node:internal/modules/esm/resolve:283:11)',
      '#     at node:internal/main/run_main_module:28:49 {',
      "#   code: 'ERR_MODULE_NOT_FOUND',",
      '    at add (/work/src/add.js:3:9)',
    ].join('\n');
    assert.equal(
      withoutRuntimeFrames(out),
      [
        '# node:internal/modules/esm/resolve:283',
        "# Error [ERR_MODULE_NOT_FOUND]: Cannot find module './src/fizzbuzz.js'",
        '#     (2 Node.js runtime frames left out) {',
        "#   code: 'ERR_MODULE_NOT_FOUND',",
        '    at add (/work/src/add.js:3:9)',
      ].join('\n'),
    );
  });

  it('leaves output without runtime frames as it is', () => {
    const pytest = 'E   assert 1 == 2\ntests/test_fizzbuzz.py:4: AssertionError\n1 failed in 0.02s';
    assert.equal(withoutRuntimeFrames(pytest), pytest);
  });
});

describe('compactTestOutput: what names no test, file or failure is left out', () => {
  it("drops node:test's timings, zero counts and the empty YAML blocks of passing tests, and keeps every failure detail", () => {
    const tap = [
      'TAP version 13',
      '# Subtest: adds',
      'ok 1 - adds',
      '  ---',
      '  duration_ms: 1.775398',
      '  ...',
      '# Subtest: subtracts',
      'not ok 2 - subtracts',
      '  ---',
      '  duration_ms: 1.919137',
      "  location: './test/calc.test.js:9:1'",
      "  expected: 'Fizz'",
      '  ...',
      '1..2',
      '# tests 2',
      '# suites 0',
      '# pass 1',
      '# fail 1',
      '# cancelled 0',
      '# skipped 1',
      '# duration_ms 466.434711',
    ].join('\n');
    assert.equal(
      compactTestOutput(tap),
      [
        'TAP version 13',
        '# Subtest: adds',
        'ok 1 - adds',
        '# Subtest: subtracts',
        'not ok 2 - subtracts',
        '  ---',
        "  location: './test/calc.test.js:9:1'",
        "  expected: 'Fizz'",
        '  ...',
        '1..2',
        '# tests 2',
        '# pass 1',
        '# fail 1',
        '# skipped 1',
      ].join('\n'),
    );
  });

  it("drops pytest's platform and plugin header and keeps the collection count and the failures", () => {
    const out = [
      '============================= test session starts ==============================',
      'platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0',
      'rootdir: .',
      'configfile: pyproject.toml',
      'plugins: hypothesis-6.155.2',
      'collected 3 items',
      '',
      "E       AssertionError: assert '5' == 'Buzz'",
      'tests/test_fizzbuzz.py:14: AssertionError',
    ].join('\n');
    const compact = compactTestOutput(out);
    assert.doesNotMatch(compact, /platform|rootdir|configfile|plugins/);
    assert.match(
      compact,
      /collected 3 items\n\nE {7}AssertionError: assert '5' == 'Buzz'\ntests\/test_fizzbuzz\.py:14: AssertionError$/,
    );
  });

  it("drops pytest's run duration and the memory addresses of objects, and keeps the counts and the repr", () => {
    const out = [
      '============================= test session starts ==============================',
      'collected 3 items',
      'self = <bowling.Game object at 0x7f98d5790790>',
      'E           IndexError: list index out of range',
      '========================= 1 failed, 2 passed in 1.94s ==========================',
    ].join('\n');
    const compact = compactTestOutput(out);
    assert.doesNotMatch(compact, /0x7f98|1\.94s/);
    assert.match(compact, /self = <bowling\.Game object>\nE {11}IndexError: list index out of range\n=+ 1 failed, 2 passed =+$/);
  });

  it('leaves other output as it is', () => {
    const jest = 'FAIL src/sum.test.js\n  ● adds\n    duration_ms: 3\n\nTests: 1 failed, 1 total';
    assert.equal(compactTestOutput(jest), jest);
  });
});
