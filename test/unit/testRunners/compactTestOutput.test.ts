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
  it("drops node:test's timings, zero counts, empty YAML blocks and repeated names, and keeps every failure detail", () => {
    const tap = [
      'TAP version 13',
      '# Subtest: a suite',
      '    # Subtest: nested',
      '    ok 1 - nested',
      'ok 1 - a suite',
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
        '# Subtest: a suite',
        '    ok 1 - nested',
        'ok 1 - a suite',
        'ok 1 - adds',
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

  it("keeps pytest's failing lines, locals, E lines and locations, and leaves out the function source above each `>` line", () => {
    // pytest 9 --tb=long, as printed for a test calling into production code, and a multi-line assertion.
    const out = [
      '=================================== FAILURES ===================================',
      '_________________________________ test_gutter __________________________________',
      '',
      '    def test_gutter():',
      '        game = Game()',
      '        for _ in range(20):',
      '            game.roll(0)',
      '>       assert game.score() == 0',
      '               ^^^^^^^^^^^^',
      '',
      'tests/test_b.py:8: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
      '',
      'self = <bowling.Game object at 0x7f5a84351c90>',
      '',
      '    def score(self):',
      '        total = 0',
      '>       return self.rolls[5]',
      'E       IndexError: list index out of range',
      '',
      'src/bowling.py:11: IndexError',
      '__________________________________ test_multi __________________________________',
      '',
      '    def test_multi():',
      '>       assert [1, 2, 3] == [',
      '            1,',
      '            4,',
      '        ]',
      'E       assert [1, 2, 3] == [1, 4]',
      '',
      'tests/test_b.py:25: AssertionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_b.py::test_gutter - IndexError: list index out of range',
      'FAILED tests/test_b.py::test_spare - assert 13 == 16',
      ' +  where 13 = score()',
      '============================== 2 failed in 0.07s ===============================',
    ].join('\n');
    assert.equal(
      compactTestOutput(`============================= test session starts ==============================\n${out}`),
      [
        '============================= test session starts ==============================',
        '=================================== FAILURES ===================================',
        '_________________________________ test_gutter __________________________________',
        '',
        '>       assert game.score() == 0',
        '               ^^^^^^^^^^^^',
        '',
        'tests/test_b.py:8: ',
        '_ _ _',
        '',
        'self = <bowling.Game object>',
        '',
        '>       return self.rolls[5]',
        'E       IndexError: list index out of range',
        '',
        'src/bowling.py:11: IndexError',
        '__________________________________ test_multi __________________________________',
        '',
        '>       assert [1, 2, 3] == [',
        '            1,',
        '            4,',
        '        ]',
        'E       assert [1, 2, 3] == [1, 4]',
        '',
        'tests/test_b.py:25: AssertionError',
        '=========================== short test summary info ============================',
        'FAILED tests/test_b.py::test_gutter - IndexError: list index out of range',
        'FAILED tests/test_b.py::test_spare - assert 13 == 16',
        '============================== 2 failed ===============================',
      ].join('\n'),
    );
  });

  it('writes a long run of one character in an `E` line with its count, and leaves rules and carets alone', () => {
    const out = [
      '============================= test session starts ==============================',
      '=================================== FAILURES ===================================',
      '>       assert to_roman(1994) == "MCMXCIV"',
      `E         + ${'V'.repeat(398)}IV`,
      `E         - MCMXCIV${'I'.repeat(31)}`,
    ].join('\n');
    assert.equal(
      compactTestOutput(out),
      [
        '============================= test session starts ==============================',
        '=================================== FAILURES ===================================',
        '>       assert to_roman(1994) == "MCMXCIV"',
        'E         + [V × 398]IV',
        `E         - MCMXCIV${'I'.repeat(31)}`,
      ].join('\n'),
    );
  });

  it("counts the Python installation's frames of a collection error and keeps the workspace's own frame", () => {
    const out = [
      '============================= test session starts ==============================',
      '==================================== ERRORS ====================================',
      "ImportError while importing test module './tests/test_bowling.py'.",
      'Traceback:',
      '/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py:126: in import_module',
      '    return _bootstrap._gcd_import(name[level:], package, level)',
      '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
      'tests/test_bowling.py:1: in <module>',
      '    from bowling import Game',
      "E   ModuleNotFoundError: No module named 'bowling'",
    ].join('\n');
    assert.equal(
      compactTestOutput(out),
      [
        '============================= test session starts ==============================',
        '==================================== ERRORS ====================================',
        "ImportError while importing test module './tests/test_bowling.py'.",
        'Traceback:',
        '(1 Python runtime frame left out)',
        'tests/test_bowling.py:1: in <module>',
        '    from bowling import Game',
        "E   ModuleNotFoundError: No module named 'bowling'",
      ].join('\n'),
    );
  });

  it('leaves other output as it is', () => {
    const jest = 'FAIL src/sum.test.js\n  ● adds\n    duration_ms: 3\n\nTests: 1 failed, 1 total';
    assert.equal(compactTestOutput(jest), jest);
  });
});
