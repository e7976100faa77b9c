import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatEvent } from '../../../src/cli/progressPrinter';
import { parserFor } from '../../../src/core/testRunners/runnerKinds';
import { splitTestScript, testScriptCommand } from '../../../src/core/testRunners/testScriptSteps';

/** Real output of each runner, recorded in test/fixtures/js-runner-output (see its README). */
const recorded = (name: string): string => readFileSync(join(resolve('test/fixtures/js-runner-output'), name), 'utf8');
const custom = parserFor('custom');

describe('JavaScript runners the session reads by their counts (AVA, uvu, Jasmine, node-tap, tape)', () => {
  it('AVA: passed, failed, and skipped and todo in the total; with a failure, the ✔ lines are the passed tests', () => {
    assert.deepEqual(custom(recorded('ava-passed.txt')), { passed: 1, failed: 0, total: 3 });
    assert.deepEqual(custom(recorded('ava-failed.txt')), { passed: 1, failed: 1, total: 4 });
    // A known failure (test.failing) passes; an uncaught exception fails.
    assert.deepEqual(custom('  ✔ a\n  ─\n\n  2 tests passed\n  1 known failure\n  1 uncaught exception\n'), {
      passed: 3,
      failed: 1,
      total: 4,
    });
  });

  it('uvu: its total leaves the skipped tests out (colour codes and all)', () => {
    assert.deepEqual(custom(recorded('uvu-failed.txt')), { passed: 1, failed: 1, total: 3 });
  });

  it('Jasmine: specs, failures and pending specs', () => {
    assert.deepEqual(custom(recorded('jasmine-failed.txt')), { passed: 1, failed: 1, total: 3 });
    assert.deepEqual(custom('\n4 specs, 0 failures\nFinished in 0.01 seconds\n'), { passed: 4, failed: 0, total: 4 });
  });

  it('node-tap: its summary object; tape: its TAP lines', () => {
    assert.deepEqual(custom(recorded('tap-failed.txt')), { passed: 1, failed: 1, total: 3 });
    assert.deepEqual(custom(recorded('tape-failed.txt')), { passed: 1, failed: 1, total: 2 });
    // All passing, tape prints no `# fail` line (minimistjs/minimist's `nyc tape 'test/**/*.js'` was "not counted").
    assert.deepEqual(custom(recorded('tape-passed.txt')), { passed: 2, failed: 0, total: 2 });
  });

  it('words that only look like a summary inside other output are not one', () => {
    assert.equal(custom('all 3 tests passed in the last run, said the log\n'), undefined);
    assert.equal(custom('Total: 3 files\n'), undefined);
  });

  it('a test script chaining checks with one of them runs the runner alone (sindresorhus/p-limit: xo && ava && tsd)', () => {
    assert.deepEqual(splitTestScript('xo && ava && tsd'), { tests: 'ava', checks: ['xo', 'tsd'] });
    assert.deepEqual(testScriptCommand('xo && npx ava --serial && tsd'), {
      tests: 'npx ava --serial',
      command: 'npx ava --serial',
      checks: ['xo', 'tsd'],
    });
    assert.equal(testScriptCommand('eslint . && jasmine').command, 'jasmine');
    assert.equal(testScriptCommand('standard && tape test/*.js').command, 'tape test/*.js');
    // A chain with a build, or two runners, is run as written.
    assert.equal(splitTestScript('npm run build && ava'), undefined);
    assert.equal(splitTestScript('xo && ava && uvu'), undefined);
  });
});

describe('a run whose runner printed no summary the session reads, on the command line', () => {
  it('says "passed, not counted", not "0 passed, 0 failed"', () => {
    const event = {
      type: 'test_run_finished',
      cycle: 0,
      role: 'baseline',
      tests: { status: 'passed', passed: 0, failed: 0, total: 0 },
      durationMs: 1200,
      scope: 'full',
      reason: 'The test command succeeded but printed no test summary, so tests were not counted.',
    } as const;
    assert.equal(
      formatEvent(event),
      '    full suite before the first turn (1.2 s): passed, not counted (the command succeeded without a test summary the session reads)',
    );
    assert.match(
      formatEvent({ ...event, tests: { status: 'passed', passed: 3, failed: 0, total: 3 } })!,
      /: 3 passed, 0 failed$/,
    );
  });
});
