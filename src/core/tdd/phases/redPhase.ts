import type { TestRunResult } from '../../testRunners/types';
import { truncateHeadTail } from '../../testRunners/truncateOutput';
import type { ChangedFile } from '../git/changedFiles';
import { checkRoleBoundary, type BoundaryViolation } from '../boundaries';
import { reportLabel } from '../roles/roleRunner';
import { describeExamples, untestedExamples } from '../judging/completionCheck';
import { behaviourOf, judgeRed, loadFailureOf, suiteStateOf, testNames, type LoadFailure } from '../judging/testJudgement';
import type { SourceTest } from './addedTests';
import { counts } from './loopState';
import type { PhaseHost } from './phaseHost';
import type { CycleSoFar, PhaseAttempt, PhaseVerdict, PhaseSpec } from './phaseSpec';
import { describeRedTest, type RedTest } from './redTests';
import { TESTER_FIXABLE } from './testRuns';

const KATA_COMPLETE = /^\W*KATA_COMPLETE\b/i;
/** Characters of runner output a Tester retry carries. */
const RUNNER_ERROR_HINT_CHARS = 2_000;
/** A file a runner could load as tests. */
const CODE_FILE = /\.([cm]?[jt]sx?|py)$/;

/**
 * Why the Tester's new test did not run, when the whole suite ran no more tests than before and a code file the Tester
 * added has no test in a run that says test by test which files ran (a test script that names its files, `mocha
 * test/test.js`, or a runner that collects other files); undefined otherwise.
 */
function testFilesNotRun(changes: readonly ChangedFile[], tests: TestRunResult, testsBefore: number): string | undefined {
  if (tests.scope === 'related' || tests.total > testsBefore) return undefined;
  const ran = new Set((tests.tests ?? []).flatMap((t) => (t.file ? [t.file] : [])));
  if (ran.size === 0) return undefined;
  const missing = changes.filter((c) => c.change === 'added' && CODE_FILE.test(c.path) && !ran.has(c.path)).map((c) => c.path);
  if (missing.length === 0) return undefined;
  const files = [...ran].sort();
  const shown = files.length > 5 ? `${files.slice(0, 5).join(', ')} and ${files.length - 5} more` : files.join(', ');
  return `Your new test file ${missing.join(', ')} did not run: \`${tests.command}\` runs ${shown} only, so your test never ran (${tests.passed} passing, as before). It was undone. Write the test in a file the test command runs (${files[0]}).`;
}

/** Test names a hint lists at most. */
const NAMES_SHOWN = 5;

/** `a, b, c and 2 more`. */
function listed(names: readonly string[]): string {
  return names.length > NAMES_SHOWN
    ? `${names.slice(0, NAMES_SHOWN).join(', ')} and ${names.length - NAMES_SHOWN} more`
    : names.join(', ');
}

/** A test's own title: the last part of its full name. */
function titleOf(name: string): string {
  return name.split(' > ').at(-1) ?? name;
}

/** Why a load failure is no red, for the Tester: no new test, or a new test that does not use what is missing. */
function notLoadedHint(failure: LoadFailure, added: readonly SourceTest[], tests: TestRunResult): string {
  const files = failure.files.length ? failure.files.join(', ') : 'your test file';
  const notRun = failure.notRun?.length
    ? `: ${failure.notRun.length} test${failure.notRun.length === 1 ? '' : 's'} did not run (${listed(failure.notRun.map((id) => titleOf(id.split('::').slice(1).join('::') || id)))})`
    : ', so its tests did not run';
  const missing = failure.missing ? ` \`${failure.missing.name}\`` : '';
  const what =
    added.length === 0
      ? `You added no new test: no test in the files you changed is new or changed (a changed import line is no test). Your test file no longer loads${notRun}.`
      : `Your test file no longer loads${notRun}, and your new test ${added.map((t) => `'${t.title}'`).join(', ')} does not use what is missing${missing}: a file that does not load is a red only when a new test in it uses the missing name.`;
  return `${what} It was undone. Write one new test that calls the behaviour you want (it may use a name that does not exist yet), and keep every earlier test of ${files} running. Runner: ${tests.reason ?? failure.reason}`;
}

/**
 * The Tester answered `KATA_COMPLETE` without a change: taken when every example the kata (or task) states has a test
 * and no test that was red in the session is gone; otherwise the Tester is asked once more, naming what has no test
 * yet. Answered again with something still untested, the session ends `incomplete` (see `CycleLoop`), not `completed`.
 */
async function completion(attempt: number, cycle: CycleSoFar, host: PhaseHost): Promise<PhaseVerdict> {
  const { state, setup } = host;
  const untested = await untestedExamples(setup.workspaceRoot, setup.kata, setup.signal);
  const gone = state.redTests.gone;
  if (untested.length === 0 && gone.length === 0) return { kind: 'accept', outcome: 'kata_complete' };
  if (state.completionAsked?.cycle !== cycle.n && attempt < redPhase.maxAttempts) {
    state.completionAsked = { cycle: cycle.n, untested };
    const n = untested.length;
    const what = setup.kata.task ? 'task' : 'kata';
    const lines = [
      ...(n
        ? [
            `${n} example${n === 1 ? '' : 's'} the ${what} states ${n === 1 ? 'has' : 'have'} no test yet (no test file spells out ${n === 1 ? 'its value' : 'their values'}):`,
            describeExamples(untested),
          ]
        : []),
      ...(gone.length
        ? [
            `${gone.length} test${gone.length === 1 ? '' : 's'} that ${gone.length === 1 ? 'was' : 'were'} red in this session ${gone.length === 1 ? 'is' : 'are'} gone (${gone.length === 1 ? 'its' : 'their'} cycle was rolled back, or ${gone.length === 1 ? 'its' : 'their'} name changed), so nothing of ${gone.length === 1 ? 'it' : 'them'} is in the branch:`,
            gone.map((t) => `- ${describeRedTest(t)}`).join('\n'),
          ]
        : []),
    ];
    return {
      kind: 'retry',
      hint: `KATA_COMPLETE was not taken: ${lines.join('\n')}\nWrite one new failing test for one of them. An example the code already handles gets its test all the same: a new test that passes at once and checks one of these examples is committed on its own (\`test: …\`). Answer KATA_COMPLETE again only if they are covered another way: the session then ends incomplete, naming them.`,
    };
  }
  state.untestedAtEnd = untested;
  return { kind: 'accept', outcome: 'kata_complete' };
}

/**
 * After the Tester was asked once more (see {@link completion}), its new tests pass at once: when they check an example
 * that had no test, the whole suite runs and, green, they are committed on their own (`test: <title>`) as the cycle's
 * green state. Undefined when they check none of those examples (an overshoot, as ever).
 */
async function coveringTest(
  { added, files }: { added: readonly SourceTest[]; files: PhaseAttempt['files'] },
  cycle: CycleSoFar,
  host: PhaseHost,
): Promise<PhaseVerdict | undefined> {
  const { state, setup } = host;
  const asked = state.completionAsked;
  if (asked?.cycle !== cycle.n || added.length === 0) return undefined;
  const still = new Set((await untestedExamples(setup.workspaceRoot, setup.kata, setup.signal)).map((e) => e.text));
  const covered = asked.untested.filter((e) => !still.has(e.text));
  if (covered.length === 0) return undefined;
  const whole = await host.tests.run('tester', cycle.n);
  if (!host.tests.isGreen(whole)) return undefined;
  state.lastTests = counts(whole);
  state.suite = suiteStateOf(whole, state.suite.knownFailures);
  state.turnOutcome.testsPassed = whole.passed;
  state.cycleTestFiles = files.testFiles;
  const title = behaviourOf({ id: added[0]!.title, name: added[0]!.title, outcome: 'passed' });
  cycle.behaviour = title;
  setup.recorder.behaviour(title);
  const examples = covered.map((e) => e.text).join('; ');
  cycle.commit = await host.commits.commit(cycle.n, `test: ${title}\n\nchecks the stated example(s) ${examples}`, 'test');
  host.tests.committed(whole);
  state.completionAsked = { cycle: cycle.n, untested: asked.untested.filter((e) => still.has(e.text)) };
  return { kind: 'accept', outcome: 'green' };
}

/** A run that timed out, or a test the Tester must fix itself (the Implementer may not touch tests): undone, retried. */
async function notRunnable(
  tests: TestRunResult,
  { checkpoint }: PhaseAttempt,
  host: PhaseHost,
): Promise<PhaseVerdict | undefined> {
  if (tests.status === 'timeout') {
    await checkpoint.restore();
    host.state.turnOutcome.error = { error_code: 'TIMEOUT', message: 'The tests timed out after the tester’s change.' };
    return {
      kind: 'retry',
      hint: `The tests timed out after your change (${tests.reason ?? 'no output'}). Write a test that finishes quickly.`,
    };
  }
  if (tests.status === 'error' && tests.errorKind && TESTER_FIXABLE.has(tests.errorKind)) {
    await checkpoint.restore();
    return {
      kind: 'retry',
      hint: `Your test could not run (${tests.reason ?? tests.errorKind}), so it was undone. Fix it and write it again. Runner output:\n${truncateHeadTail(tests.output, RUNNER_ERROR_HINT_CHARS)}`,
    };
  }
  return undefined;
}

/** The Tester's rules: no test removed, no earlier test broken, one new failing test at most; a break is a violation. */
async function brokenRule(
  tests: TestRunResult,
  failure: LoadFailure | undefined,
  verdict: ReturnType<typeof judgeRed> | { kind: 'unidentified' },
  { attempt, checkpoint }: PhaseAttempt,
  cycle: CycleSoFar,
  host: PhaseHost,
): Promise<PhaseVerdict | undefined> {
  const { state } = host;
  const fewer =
    failure || tests.status === 'error'
      ? []
      : tests.scope === 'related'
        ? checkRoleBoundary('tester', [], host.tests.relatedTestCounts(tests))
        : checkRoleBoundary('tester', [], { testsBefore: state.lastTests.total, testsAfter: tests.total });
  if (fewer.length) return { kind: 'retry', hint: await host.violation(cycle.n, 'tester', attempt, fewer, checkpoint) };
  if (verdict.kind !== 'broke_old' && verdict.kind !== 'too_many') return undefined;
  const violation: BoundaryViolation =
    verdict.kind === 'broke_old'
      ? {
          rule: 'tester_broke_tests',
          message: `Your change made tests fail that passed before; keep every earlier test passing and add one new failing test:\n${testNames(verdict.tests)}`,
        }
      : {
          rule: 'tester_added_several_failing',
          message: `${verdict.tests.length} new tests fail; write exactly one new failing test per cycle (one behaviour):\n${testNames(verdict.tests)}`,
        };
  return { kind: 'retry', hint: await host.violation(cycle.n, 'tester', attempt, [violation], checkpoint) };
}

/**
 * The new test passes: a test file that never ran, a test of a stated example the code already handles (committed on
 * its own), or an overshoot (undone).
 */
async function notRed(
  tests: TestRunResult,
  added: readonly SourceTest[],
  { attempt, changes, files, checkpoint }: PhaseAttempt,
  cycle: CycleSoFar,
  host: PhaseHost,
): Promise<PhaseVerdict> {
  const notRun = testFilesNotRun(changes, tests, host.state.lastTests.total);
  if (notRun) {
    // Not an overshoot: the test never ran (`mocha test/test.js` runs only the file it names).
    await checkpoint.restore();
    return { kind: 'retry', hint: notRun };
  }
  const covering = await coveringTest({ added, files }, cycle, host);
  if (covering) return covering;
  host.setup.recorder.count('overshoots', 'tester');
  const reason = `Overshoot: your new test passed without any production change (${tests.passed} passing), so it does not specify new behaviour. Write a test for behaviour that is not implemented yet.`;
  host.setup.emit({ type: 'overshoot', cycle: cycle.n, attempt, reason });
  await checkpoint.restore();
  return { kind: 'retry', hint: reason };
}

/** The red is taken: the counts, the cycle's red tests and test files, and the behaviour the cycle is named for. */
async function acceptRed(
  tests: TestRunResult,
  redTests: RedTest[],
  verdict: ReturnType<typeof judgeRed> | { kind: 'unidentified' },
  { report, files }: PhaseAttempt,
  cycle: CycleSoFar,
  host: PhaseHost,
): Promise<void> {
  const { state } = host;
  state.lastTests = tests.scope === 'related' ? host.tests.suiteCountsWith(tests) : counts(tests);
  state.turnOutcome.testsPassed = state.lastTests.passed;
  state.cycleTestFiles = files.testFiles;
  state.cycleRedTests = redTests;
  state.redTests.add(redTests);
  cycle.behaviour =
    verdict.kind === 'red'
      ? behaviourOf(verdict.test)
      : redTests.length === 1 && redTests[0]!.title
        ? behaviourOf({ id: redTests[0]!.title, name: redTests[0]!.title, outcome: 'failed' })
        : report.trim()
          ? reportLabel(report, 'new behaviour')
          : ((await host.tests.newTestTitle(files.testFiles)) ?? 'new behaviour');
}

/**
 * Red: the Tester writes one new failing test, changing test files only. A red names a test, by identity, that did not
 * exist (or was changed) before the turn and fails; a test file that no longer loads is a red only when a new test in
 * it uses the name that is missing (then its other tests must pass again at green). No change with `KATA_COMPLETE`
 * ends the kata once every stated example has a test (see `completion`); a passing suite is an overshoot; a test that
 * cannot run, times out, removes tests, breaks old ones, adds several failing ones or none goes back to the Tester. A
 * cycle whose red failed is rolled back.
 */
export const redPhase: PhaseSpec = {
  name: 'red',
  role: 'tester',
  phase: 'TESTING',
  maxAttempts: 3,
  exhausted: 'failed',
  files: (changes, kata) => checkRoleBoundary('tester', changes, { kata }),
  probe: {
    run: (files, cycle, host) => host.tests.afterTester(cycle.n, files),
    reached: (tests, host) => host.tests.isRed(tests),
  },
  async judge(turn, cycle, host) {
    const { attempt, report, changes, files, probed, checkpoint } = turn;
    const { state } = host;
    const n = cycle.n;
    if (changes.length === 0) {
      if (KATA_COMPLETE.test(report)) return completion(attempt, cycle, host);
      return {
        kind: 'retry',
        hint: 'You made no change. Write exactly one new failing test (edit_file in an existing test file, write_file for a new one), or answer KATA_COMPLETE if every behaviour is covered.',
      };
    }
    const tests = probed ?? (await host.tests.afterTester(n, files));
    const unrun = await notRunnable(tests, turn, host);
    if (unrun) return unrun;
    const added = await host.tests.addedTests([...files.testFiles, ...files.supportFiles], checkpoint);
    const failure = loadFailureOf(state.suite, tests);
    let redTests: RedTest[] | undefined;
    if (failure) {
      const red = await host.tests.redOfLoadFailure(failure, added);
      if (red.length === 0) {
        await checkpoint.restore();
        return { kind: 'retry', hint: notLoadedHint(failure, added, tests) };
      }
      redTests = red.map((t) => ({ file: t.file, title: t.title, cycle: n }));
      state.mustPassAgain = failure.notRun ?? [];
    }
    const verdict = tests.status === 'failed' && !failure ? judgeRed(state.suite, tests) : { kind: 'unidentified' as const };
    const broken = await brokenRule(tests, failure, verdict, turn, cycle, host);
    if (broken) return broken;
    if (tests.status === 'passed' || verdict.kind === 'overshoot') return notRed(tests, added, turn, cycle, host);
    // failed, or could not run because the production code does not exist yet: both are red, when a new test is what
    // fails. Without a runner that names it, the new test is read from the source: none there, no red.
    if (verdict.kind === 'red') {
      const test = verdict.test;
      redTests = [{ id: test.id, ...(test.file ? { file: test.file } : {}), title: titleOf(test.name), cycle: n }];
    } else if (!redTests) {
      if (added.length === 0) {
        await checkpoint.restore();
        const files = changes.map((c) => c.path).join(', ');
        return {
          kind: 'retry',
          hint: `No new test: the tests fail (${tests.status === 'error' ? (tests.reason ?? 'they could not run') : `${tests.failed} failing`}), but no test in what you changed (${files}) is new or changed, so nothing names the behaviour to build. It was undone. Write one new failing test.`,
        };
      }
      redTests = added.map((t) => ({ file: t.file, title: t.title, cycle: n }));
    }
    await acceptRed(tests, redTests, verdict, turn, cycle, host);
    return { kind: 'accept', outcome: 'red' };
  },
  async settle(result, _cycle, host) {
    if (result.outcome === 'red') return undefined;
    if (result.outcome === 'green') return 'green'; // a test of a stated example, committed on its own
    if (result.outcome === 'kata_complete') return 'kata_complete';
    await host.commits.rollback();
    return 'failed';
  },
};
