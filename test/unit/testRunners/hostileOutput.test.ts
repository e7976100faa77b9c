import { strict as assert } from 'node:assert';
import { diagnoseLoadError, missingPytestPlugins } from '../../../src/core/testRunners/diagnoseLoadError';
import { parsePytestOutput } from '../../../src/core/testRunners/parsers/pytestOutput';
import { parseUnittestOutput } from '../../../src/core/testRunners/parsers/unittestOutput';
import { doctestFailure } from '../../../src/core/testRunners/reports/doctestFailure';
import { parserFor, RUNNER_KINDS } from '../../../src/core/testRunners/runnerKinds';

/**
 * Test output is written by the code under test, so it is hostile: the readers added for pytest's subtests, unittest,
 * doctests, jest's suite errors and pytest plugins meet 200 KB lines built to make a backtracking pattern slow, and
 * still read them in one pass (a catastrophic pattern would hold the suite past its timeout).
 */
describe('test output readers on hostile output', () => {
  const N = 200_000;

  it('pytest summaries with endless SUBFAILED lines and counts: read, never stuck', () => {
    const sub = `SUBFAILED${' a::b - x'.repeat(N / 8)}\n1 failed, 1 passed in 0.1s\n`;
    // One SUBFAILED line, of a test with no FAILED line of its own (a unittest method pytest counted as passed): one failed.
    assert.deepEqual(parsePytestOutput(sub), { passed: 0, failed: 1, errors: 0, total: 1 });
    assert.equal(parsePytestOutput(`SUBFAILED ${' '.repeat(N)}x\n`), undefined);
    assert.equal(parsePytestOutput(`= ${'1 passed, '.repeat(N / 10)}`), undefined, 'a summary that never ends is none');
  });

  it('unittest summaries and import errors built to be long: read, never stuck', () => {
    assert.equal(parseUnittestOutput(`Ran ${'1 '.repeat(N / 2)}tests\n\nOK\n`), undefined);
    const importError = `ImportError: Failed to import test module: x\n${'Traceback\n  '.repeat(N / 12)}\n`;
    assert.equal(diagnoseLoadError(importError, 'custom')?.kind, 'import');
  });

  it("every runner's summary reader on 200,000 blank lines (a pattern whose `^\\s*` spans lines is quadratic): read, never stuck", () => {
    const blank = ' \n'.repeat(N);
    for (const kind of RUNNER_KINDS) assert.equal(parserFor(kind)(blank), undefined, kind);
    assert.deepEqual(parserFor('mocha')(`${blank}  3 passing (4ms)\n`), { passed: 3, failed: 0, total: 3 });
    assert.deepEqual(parserFor('custom')(`${blank}  2 tests passed\n  1 test failed\n`), { passed: 2, failed: 1, total: 3 });
    const uvu = `${blank}  Total:     2\n  Passed:    1\n  Skipped:   0\n`;
    assert.deepEqual(parserFor('custom')(uvu), { passed: 1, failed: 1, total: 2 });
  });

  it('doctest messages, jest suite errors and pytest usage errors built to be long: read, never stuck', () => {
    assert.equal(doctestFailure(`001 ${'Expected:\n    '.repeat(N / 16)}\nGot:\n${' '.repeat(N)}`), undefined);
    assert.equal(diagnoseLoadError(`● Test suite failed to run\n${'    '.repeat(N / 4)}x\n`, 'jest')?.kind, 'import');
    const usage = `usage: pytest [options] [file_or_dir] [file_or_dir] [...]\nerror: unrecognized arguments: ${'--cov '.repeat(N / 6)}\n`;
    assert.deepEqual(missingPytestPlugins(usage)?.packages, ['pytest-cov']);
    assert.equal(missingPytestPlugins(`ImportError: Error importing plugin "${'a'.repeat(N)}`), undefined);
  });
});
