import { redactSecrets } from '../../security/redact';
import type { TestErrorKind } from '../../testRunners/diagnoseLoadError';
import { hasTestFileName } from '../../testRunners/testFiles';
import { testTitlesIn } from '../../testRunners/testTitles';
import { truncateHeadTail } from '../../testRunners/truncateOutput';
import type { TestCounts } from '../events';
import type { Role } from '../../vocabulary';
import { TEST_RUN_OUTPUT_CHARS } from '../events';
import { isTestFile } from '../boundaries';
import { readTextFile } from '../context/workspaceSnapshot';
import type { ChangedFile } from '../git/changedFiles';
import type { PhaseCheckpoint } from '../commits/phaseCheckpoint';
import { behaviourOf, judgeRed, stillFailing, type LoadFailure } from '../judging/testJudgement';
import type { TestRunResult, TestSubset } from '../../testRunners/types';
import { addedTests, importedNames, importsModule, moduleStem, seesPackageNames, usesName, type SourceTest } from './addedTests';
import { Cancelled, counts, type LoopState } from './loopState';
import type { LoopSetup } from './loopSetup';
import { describeRedTest } from './redTests';

/**
 * Test runs that could not run because of the Tester's own files (production code was green before its
 * turn): a test that does not parse, or test files in which the runner finds no test. A missing
 * production module is not among them: that is the usual red of a first test.
 */
export const TESTER_FIXABLE: ReadonlySet<TestErrorKind> = new Set(['syntax', 'no_tests']);
/** Tests a `test_run_finished` event carries one by one (the panel and the Testing view list them). */
const TEST_CASES_SHOWN = 2_000;

/** What a turn changed, sorted for the related run: test files a runner runs, test support code, production files. */
export interface TurnFiles {
  /** Changed or new files a runner runs as tests (by their names, see `hasTestFileName`). */
  testFiles: string[];
  /** Changed or new production files. */
  sourceFiles: string[];
  /** A test-support file that is not itself a test file changed (a helper, a fixture, `conftest.py`): any test may use it. */
  sharedTestCode: boolean;
  /**
   * Those test-support files. A test written in one is a test all the same: uvu, tape and AVA run every file of a
   * `test/` folder (`test/colors.js`), whatever its name, so the tests a turn added are read from these too.
   */
  supportFiles: string[];
  /** A file was deleted (a test file's tests are gone, a helper may be): only the whole suite says what that did. */
  removed: boolean;
}

/** True for a related run that ran no test at all: it says nothing about the turn (the whole suite decides). */
function ranNothing(run: TestRunResult): boolean {
  return run.status === 'error' && run.errorKind === 'no_tests';
}

/** How a run that did not pass reads in a hint: timed out, could not run, or the counts. */
export function describeRun(tests: TestRunResult): string {
  if (tests.status === 'timeout') return `timed out${tests.reason ? `: ${tests.reason}` : ''}`;
  if (tests.status === 'error') return `the tests could not run${tests.reason ? `: ${tests.reason}` : ''}`;
  return `${tests.failed} failing, ${tests.passed} passing`;
}

/**
 * The supervisor's own test runs and what it reads from them: which tests a turn's run covers (related first, the
 * whole suite before a commit), whether a run is red or green against the last green state, and every run reported as
 * a `test_run_finished` event.
 */
export class TestRuns {
  constructor(
    private readonly o: Pick<
      LoopSetup,
      'testRunner' | 'testTimeoutMs' | 'signal' | 'emit' | 'recorder' | 'kata' | 'workspaceRoot'
    >,
    private readonly state: LoopState,
  ) {}

  /** Sorts a turn's changes for the related run (see {@link TurnFiles}), by the kata's rules for test files. */
  turnFiles(changes: readonly ChangedFile[]): TurnFiles {
    const files: TurnFiles = { testFiles: [], sourceFiles: [], sharedTestCode: false, supportFiles: [], removed: false };
    for (const change of changes) {
      if (change.change === 'deleted') files.removed = true;
      // A code file whose tests alone changed (Rust's `mod tests`): the Tester's test file for this turn.
      else if (change.regions?.tests && !change.regions.code) files.testFiles.push(change.path);
      else if (!isTestFile(change.path, this.o.kata)) files.sourceFiles.push(change.path);
      else if (hasTestFileName(change.path)) files.testFiles.push(change.path);
      else {
        files.sharedTestCode = true;
        files.supportFiles.push(change.path);
      }
    }
    return files;
  }

  /**
   * The run that judges a Tester's turn. The Tester may change only test files, so when it changed test files alone
   * (no shared test code, nothing deleted) and the last green state is known test by test, its files are run on
   * their own: every other test is as it was at the last green state. That run is the answer — an overshoot, too
   * many failing tests, a test that cannot run or times out goes back to the Tester, and a red is a red — unless it
   * failed without saying which tests (no report): then the whole suite runs and judges. Otherwise the whole suite
   * runs once.
   */
  async afterTester(n: number, files: TurnFiles): Promise<TestRunResult> {
    if (files.sharedTestCode || files.removed || files.testFiles.length === 0 || !this.state.suite.identified) {
      return this.run('tester', n);
    }
    const related = await this.run('tester', n, { testFiles: files.testFiles });
    if (related.scope === 'related' && related.status === 'failed' && !related.tests) return this.run('tester', n);
    return related;
  }

  /**
   * The run that judges an Implementer's or Refactorer's turn: the related tests first — the cycle's test files, the
   * test files the turn changed, and the tests the runner relates to the changed production files — as the fast
   * signal; when they do not pass, that is the answer for this attempt. When they pass (or ran no test, or the
   * command could not be narrowed and ran the whole suite already), the whole suite runs once: only a whole-suite
   * run is ever judged green and committed.
   */
  async beforeCommit(role: 'implementer' | 'refactorer', n: number, files: TurnFiles): Promise<TestRunResult> {
    const subset: TestSubset = {
      testFiles: [...new Set([...this.state.cycleTestFiles, ...files.testFiles])],
      sourceFiles: files.sourceFiles,
    };
    const related = await this.run(role, n, subset);
    if (related.scope !== 'related') return related;
    if (!this.isGreen(related) && !ranNothing(related)) return related;
    return this.run(role, n);
  }

  /**
   * For the `tests_decreased` rule on a related run: the tests the last green state had in the run's files, and the
   * tests the run found there.
   */
  relatedTestCounts(run: TestRunResult): { testsBefore?: number; testsAfter?: number } {
    if (!run.tests || !run.relatedFiles) return {};
    const files = run.relatedFiles;
    const before = [...this.state.suite.known].filter((id) => files.some((f) => id.startsWith(`${f}::`))).length;
    return { testsBefore: before, testsAfter: run.tests.length };
  }

  /**
   * The whole suite's counts after a related run: the last green state's tests outside the run's files (untouched by
   * a Tester that changed only those files), and the run's own.
   */
  suiteCountsWith(run: TestRunResult): TestCounts {
    const files = run.relatedFiles ?? [];
    const outside = (id: string): boolean => !files.some((f) => id.startsWith(`${f}::`));
    const count = (ids: ReadonlySet<string>): number => [...ids].filter(outside).length;
    const suite = this.state.suite;
    return {
      status: run.status,
      passed: count(suite.passing) + run.passed,
      failed: count(suite.knownFailures) + run.failed,
      total: count(suite.known) + run.total,
    };
  }

  /** Green: every test passes, or (test by test) every failing test is a known failure from before the session. */
  isGreen(tests: TestRunResult): boolean {
    if (tests.status === 'passed') return true;
    const suite = this.state.suite;
    return tests.status === 'failed' && suite.knownFailures.size > 0 && stillFailing(suite, tests)?.length === 0;
  }

  /**
   * Red as a Tester's turn must leave it: exactly one new failing test (test by test), or, without per-test results,
   * a failing run or one that could not load the production code yet. What the phase would send back (a test that
   * does not parse, a timeout, an overshoot) is not red.
   */
  isRed(tests: TestRunResult): boolean {
    if (tests.status === 'error') return !tests.errorKind || !TESTER_FIXABLE.has(tests.errorKind);
    if (tests.status !== 'failed') return false;
    const verdict = judgeRed(this.state.suite, tests);
    return verdict.kind === 'red' || verdict.kind === 'unidentified';
  }

  /**
   * The title of the last test in the turn's test files that the last green state did not have, read from the
   * files' source: the behaviour's name when the runner could not say which test is new and the role gave no report.
   */
  async newTestTitle(testFiles: readonly string[]): Promise<string | undefined> {
    let found: string | undefined;
    for (const file of testFiles) {
      const read = await readTextFile(this.o.workspaceRoot, file);
      if (read.kind !== 'text') continue;
      const known = [...this.state.suite.known].filter((id) => id.startsWith(`${file}::`));
      for (const title of testTitlesIn(file, read.text)) if (!known.some((id) => id.endsWith(title))) found = title;
    }
    return found === undefined ? undefined : behaviourOf({ id: found, name: found, outcome: 'failed' });
  }

  /**
   * The tests the turn added or changed in its test files, read from their source now and at the checkpoint (see
   * `addedTests`): what the Tester wrote, whether or not the runner could run it.
   */
  async addedTests(testFiles: readonly string[], checkpoint: PhaseCheckpoint): Promise<SourceTest[]> {
    const found: SourceTest[] = [];
    for (const file of testFiles) {
      const now = await readTextFile(this.o.workspaceRoot, file);
      if (now.kind !== 'text') continue;
      found.push(...addedTests(file, await checkpoint.textBefore(file), now.text));
    }
    return found;
  }

  /**
   * Of the tests a turn added, those that make a load failure a red: in a file that did not load (any of the turn's
   * files when the run does not say which), using the name that is missing — the name itself, or a name imported from
   * the missing module. When the runner did not name what is missing, a name imported from a module of the project
   * (a relative path, or a Python module) that the failure's reason mentions. Everything else is no red: a changed
   * import line alone, or a new test that does not use what is missing.
   */
  async redOfLoadFailure(failure: LoadFailure, added: readonly SourceTest[]): Promise<SourceTest[]> {
    const inFailingFiles = failure.files.length ? added.filter((t) => failure.files.includes(t.file)) : added;
    const red: SourceTest[] = [];
    for (const test of inFailingFiles) {
      const read = await readTextFile(this.o.workspaceRoot, test.file);
      if (read.kind !== 'text') continue;
      const imports = importedNames(test.file, read.text);
      const missing = failure.missing;
      // Go: the test sees its package's names without an import, so a missing name it uses is its red.
      if (missing?.kind === 'name' && seesPackageNames(test.file)) {
        if (usesName(test.body, missing.name)) red.push(test);
        continue;
      }
      const candidates = missing
        ? missing.kind === 'name'
          ? imports.filter((i) => i.name === missing.name)
          : imports.filter((i) => importsModule(i.from, missing.name))
        : imports.filter(
            (i) =>
              (/^\.{1,2}\//.test(i.from) || test.file.endsWith('.py')) &&
              (failure.reason.includes(i.from) || failure.reason.includes(moduleStem(i.from)) || failure.reason.includes(i.name)),
          );
      if (candidates.some((i) => usesName(test.body, i.name))) red.push(test);
    }
    return red;
  }

  /** Runs the tests (all, or `only` those), keeps the run for the next role's context, and reports it. */
  async run(role: Role | 'baseline', cycle: number, only?: TestSubset): Promise<TestRunResult> {
    this.checkCancelled();
    const result = await this.o.testRunner.run({
      signal: this.o.signal,
      timeoutMs: this.o.testTimeoutMs,
      ...(only ? { only } : {}),
    });
    this.checkCancelled();
    this.state.lastOutput = result.output;
    this.state.lastRun = result;
    const gone = role === 'baseline' ? [] : this.state.redTests.missingFrom(result);
    if (role !== 'baseline') {
      this.state.turnOutcome.testsPassed = result.passed;
      this.o.recorder.testRun(result.scope === 'related' ? 'related' : 'full', result.durationMs);
    }
    this.o.emit({
      type: 'test_run_finished',
      cycle,
      role,
      tests: counts(result),
      durationMs: result.durationMs,
      reason: result.reason && redactSecrets(result.reason),
      scope: result.scope === 'related' ? 'related' : 'full',
      ...(result.scope === 'related' && result.relatedFiles ? { files: result.relatedFiles.map(redactSecrets) } : {}),
      ...(result.fullRunReason ? { fullRunReason: redactSecrets(result.fullRunReason) } : {}),
      command: redactSecrets(result.command),
      output: truncateHeadTail(redactSecrets(result.output), TEST_RUN_OUTPUT_CHARS),
      testCases: result.tests?.slice(0, TEST_CASES_SHOWN).map((t) => ({
        ...t,
        id: redactSecrets(t.id),
        name: redactSecrets(t.name),
        message: t.message === undefined ? undefined : redactSecrets(t.message.slice(0, 2_000)),
      })),
    });
    if (gone.length > 0) {
      const names = gone.map((t) => redactSecrets(describeRedTest(t)));
      this.o.recorder.goneRedTests(names);
      this.o.emit({ type: 'red_tests_gone', cycle, tests: names });
    }
    return result;
  }

  /**
   * A run is committed: the red tests that pass in it are settled (see `RedTestLedger.committed`), and the gone ones
   * that came back (the Tester wrote them again) are no longer counted against the session.
   */
  committed(run: TestRunResult): void {
    const back = this.state.redTests.committed(run);
    if (back.length) this.o.recorder.redTestsBack(back.map((t) => redactSecrets(describeRedTest(t))));
  }

  private checkCancelled(): void {
    if (this.o.signal.aborted) throw new Cancelled();
  }
}
