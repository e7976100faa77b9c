import { strict as assert } from 'node:assert';
import { behaviourOf, judgeRed, stillFailing, suiteStateOf, testNames } from '../../../../src/core/tdd/judging/testJudgement';
import type { TestCaseResult, TestRunResult } from '../../../../src/core/testRunners/types';

const test = (id: string, outcome: TestCaseResult['outcome'], message?: string): TestCaseResult => ({
  id: `src/size.test.ts::${id}`,
  name: id,
  file: 'src/size.test.ts',
  outcome,
  message,
});

function run(tests: TestCaseResult[] | undefined, status?: TestRunResult['status']): TestRunResult {
  const failed = tests?.filter((t) => t.outcome === 'failed').length ?? 0;
  const passed = tests?.filter((t) => t.outcome === 'passed').length ?? 0;
  return {
    status: status ?? (failed > 0 ? 'failed' : 'passed'),
    passed,
    failed,
    total: passed + failed,
    output: '',
    command: 'vitest run',
    exitCode: failed > 0 ? 1 : 0,
    durationMs: 1,
    tests,
  };
}

describe('judgement by test identity (which tests are new, which broke, which already failed)', () => {
  const green = run([test('parses 1KB', 'passed'), test('parses 1MB', 'passed')]);

  it('red: exactly one new failing test, every earlier test still passing', () => {
    const verdict = judgeRed(
      suiteStateOf(green),
      run([test('parses 1KB', 'passed'), test('parses 1MB', 'passed'), test('parses "1EB" as exabytes', 'failed')]),
    );
    assert.equal(verdict.kind, 'red');
    assert.equal(verdict.kind === 'red' && verdict.test.name, 'parses "1EB" as exabytes');
  });

  it('a broken old test goes back to the Tester, even with a new failing test beside it (466 passed / 2 failed against 467)', () => {
    const verdict = judgeRed(
      suiteStateOf(green),
      run([test('parses 1KB', 'failed', 'expected 1024'), test('parses 1MB', 'passed'), test('parses 1EB', 'failed')]),
    );
    assert.equal(verdict.kind, 'broke_old');
    assert.deepEqual(verdict.kind === 'broke_old' && verdict.tests.map((t) => t.name), ['parses 1KB']);
  });

  it('two new failing tests in one turn go back to the Tester with both names', () => {
    const verdict = judgeRed(
      suiteStateOf(green),
      run([
        test('parses 1KB', 'passed'),
        test('parses 1MB', 'passed'),
        test('parses 1EB', 'failed'),
        test('parses 1ZB', 'failed'),
      ]),
    );
    assert.equal(verdict.kind, 'too_many');
    assert.match(testNames(verdict.kind === 'too_many' ? verdict.tests : []), /parses 1EB[^]*parses 1ZB/);
  });

  it('known failures from the baseline are set aside: not a red, not a break, not required for green', () => {
    const baseline = run([test('parses 1KB', 'passed'), test('flaky network', 'failed')]);
    const state = suiteStateOf(baseline, new Set(['src/size.test.ts::flaky network']));
    assert.equal(judgeRed(state, baseline).kind, 'overshoot', 'only the known failure fails: the new test passed');
    const red = judgeRed(
      state,
      run([test('parses 1KB', 'passed'), test('flaky network', 'failed'), test('parses 1EB', 'failed')]),
    );
    assert.equal(red.kind, 'red');
    assert.deepEqual(
      stillFailing(state, run([test('parses 1KB', 'passed'), test('flaky network', 'failed'), test('parses 1EB', 'passed')])),
      [],
    );
    assert.equal(stillFailing(state, run([test('parses 1EB', 'failed')]))?.length, 1);
  });

  it('without per-test results the verdict is unidentified (counts decide, as before)', () => {
    assert.equal(judgeRed(suiteStateOf(run(undefined)), run([test('x', 'failed')])).kind, 'unidentified');
    assert.equal(judgeRed(suiteStateOf(green), run(undefined, 'failed')).kind, 'unidentified');
    assert.equal(stillFailing(suiteStateOf(green), run(undefined, 'failed')), undefined);
  });

  it('a commit subject names the behaviour from the test’s own title', () => {
    assert.equal(
      behaviourOf({ ...test('x', 'failed'), name: 'size > parse > parses "1EB" as exabytes' }),
      'parses "1EB" as exabytes',
    );
    assert.equal(behaviourOf({ ...test('x', 'failed'), name: 'TestParse > test_parses_exabytes' }), 'parses exabytes');
  });
});
