import type { TestRunResult } from '../../testRunners/types';
import type { TestCounts } from '../events';
import type { ChangedFile } from '../git/changedFiles';
import type { StatedExample } from '../kata/statedExamples';
import type { TurnOutcome } from '../session/sessionRecorder';
import { suiteStateOf, type SuiteState } from '../judging/testJudgement';
import { RedTestLedger, type RedTest } from './redTests';

/** Thrown inside the loop to unwind to the cancellation handler. */
export class Cancelled extends Error {}

/** The counts of a test run. */
export function counts(result: TestRunResult): TestCounts {
  return { status: result.status, passed: result.passed, failed: result.failed, total: result.total };
}

/**
 * What the cycle loop knows between turns, shared by the phases: the last test run and counts, the suite test by
 * test at the last green state, what the next role is told, and what the current turn did so far.
 */
export class LoopState {
  /**
   * The counts of the tree as it stands: the last green state's (or, within a cycle, of the Tester's red and what
   * follows it). Once a cycle ended, they are the counts the session stands at: after a rollback, the last commit's.
   */
  lastTests: TestCounts = { status: 'passed', passed: 0, failed: 0, total: 0 };
  /** The counts of the tree at HEAD: the baseline run's, then those of each commit's run. */
  committedTests: TestCounts = this.lastTests;
  /** The current cycle's counts before the tree was rolled back to HEAD (its red attempt), when it was; else undefined. */
  rolledBackTests: TestCounts | undefined;
  /** The output of the last test run, for the next role's context. */
  lastOutput = '';
  /** The last test run, for the next role's context. */
  lastRun: TestRunResult | undefined;
  /** The files each role was shown on its last turn: what changed since then goes after the rest (prefix caching). */
  readonly shownTo = new Map<string, Map<string, string>>();
  /** What the current role's turn did so far, for its result (reset when a phase starts). */
  turnOutcome: TurnOutcome = { filesModified: [], testsPassed: 0 };
  /** True right after a commit or a rollback to HEAD, until the next turn: nothing differs from HEAD. */
  treeClean = false;
  /** What the supervisor undid outside the role rules (protected paths), for the next role's context; cleared once shown. */
  notices: string[] = [];
  /** The test files the Tester wrote in this cycle: the related run of the Implementer and the Refactorer runs them. */
  cycleTestFiles: string[] = [];
  /**
   * The test run of the current turn's last goal probe (see `goalReached` of a role turn). Every tool round that may
   * write is probed, so the tree has not changed since: the phase judges that run, and the changes the probe saw
   * before it ran the tests (a test run may write files itself), instead of running the same tests again.
   */
  probed: { tests: TestRunResult; changes: ChangedFile[] } | undefined;
  /** Files the session's commits changed: a role's context shows them early (see `selectContextFiles`). */
  readonly sessionFiles = new Set<string>();
  /** The suite test by test at the last green state (when the runner reports each test), with the baseline's known failures. */
  suite: SuiteState = suiteStateOf({
    status: 'passed',
    passed: 0,
    failed: 0,
    total: 0,
    output: '',
    command: '',
    exitCode: 0,
    durationMs: 0,
  });

  /** The tests that were red in this session and have not passed in a commit yet (see {@link RedTestLedger}). */
  readonly redTests = new RedTestLedger();
  /** The tests the current cycle's red named: its green must make one of them pass (see the green phase). */
  cycleRedTests: RedTest[] = [];
  /**
   * Tests that passed before the cycle's red and did not run in it (their file did not load until the Implementer adds
   * the name the new test uses): its green must run them and see them pass again.
   */
  mustPassAgain: string[] = [];
  /**
   * The Tester's `KATA_COMPLETE` was not taken in this cycle: the stated examples it named as untested. Set when the
   * supervisor asks once more, cleared when a cycle starts.
   */
  completionAsked: { cycle: number; untested: StatedExample[] } | undefined;
  /** Stated examples without a test when the Tester ended the session all the same (after being asked once more). */
  untestedAtEnd: StatedExample[] = [];

  /** The tree was committed: its counts ({@link lastTests}) are the ones at HEAD now. */
  committed(): void {
    this.committedTests = this.lastTests;
  }

  /**
   * The tree was rolled back to HEAD: its counts are the last commit's (or the baseline's) again, and the cycle's own
   * counts, when it had any, are kept as those of the rolled-back attempt.
   */
  rolledBack(): void {
    if (this.lastTests !== this.committedTests) this.rolledBackTests = this.lastTests;
    this.lastTests = this.committedTests;
  }
}
