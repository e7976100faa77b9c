import { AgentError, toAgentError, type ErrorCode } from '../../errors/agentError';
import type { ProcessSandbox } from '../../osSandbox';
import { redactSecrets } from '../../security/redact';
import type { TestErrorKind } from '../../testRunners/diagnoseLoadError';
import { hasTestFileName } from '../../testRunners/testFiles';
import { truncateHeadTail } from '../../testRunners/truncateOutput';
import type { TestRunner, TestRunResult, TestSubset } from '../../testRunners/types';
import type { CycleOutcome, Phase, PhaseOutcome, Role, SessionStatus, SupervisorEvent, TestCounts } from '../events';
import { TEST_RUN_OUTPUT_CHARS } from '../events';
import { ROLE_TITLES } from '../sessionVocabulary';
import { testTitlesIn } from '../../testRunners/testTitles';
import { buildRoleContext } from '../roles/roleContext';
import { readTextFile } from '../context/workspaceSnapshot';
import { reportLabel, type RoleRunners, type RoleTurnResult } from '../roles/roleRunner';
import { checkRoleBoundary, describeViolations, isTestFile, type BoundaryViolation } from '../boundaries';
import type { ChangedFile } from '../git/changedFiles';
import { PhaseCheckpoint, type CheckpointGit } from './phaseCheckpoint';
import { unapprovedProtectedChanges, type ProtectedChange } from './protectedChanges';
import type { PersonQuestions } from './personQuestions';
import { runQualityGates, type GateFailure } from './qualityGates';
import type { SessionRecorder, TurnOutcome } from './sessionRecorder';
import { behaviourOf, failingTests, judgeRed, stillFailing, suiteStateOf, testNames, type SuiteState } from './testJudgement';

/** How many times a role may try within one phase before the supervisor gives up on it. */
export const MAX_ATTEMPTS: Record<Role, number> = { tester: 3, implementer: 3, refactorer: 3 };

/** What the loop needs from git beyond the checkpoint: commit, undo, history. */
export interface LoopGit extends CheckpointGit {
  /** Commits every change and returns the sha. */
  commitAll(message: string): Promise<string>;
  /** Discards every uncommitted change the session made (tracked and untracked, not ignored files). */
  rollbackToHead(): Promise<void>;
  /** Newest first, one line each. */
  recentCommits(n: number): Promise<string[]>;
  /** The `.git` entries of nested repositories the last commit removed before staging (their files went in as plain files). */
  removedNestedRepositories?(): readonly string[];
}

/** What the loop needs to know about the kata. */
export interface KataInfo {
  title: string;
  slug: string;
  description: string;
  language: string;
  sourceDir: string;
  testDir: string;
}

/** Everything a {@link CycleLoop} works with. */
export interface CycleLoopOptions {
  workspaceRoot: string;
  kata: KataInfo;
  git: LoopGit;
  testRunner: TestRunner;
  roles: RoleRunners;
  maxCycles: number;
  /** First cycle number (greater than 1 when resuming). */
  firstCycle?: number;
  /** Records every cycle, phase and counter (and persists them). */
  recorder: SessionRecorder;
  qualityGates?: readonly string[];
  /** Confines the quality-gate commands (the test runner carries its own). */
  sandbox?: ProcessSandbox;
  testTimeoutMs: number;
  signal: AbortSignal;
  /** Receives every supervisor event. */
  emit(event: SupervisorEvent): void;
  /**
   * Says whether a protected path (see `protectedPaths.ts`) holds exactly what a tool call a person approved left there
   * (`ApprovedProtectedWrites.matches`). Before every commit, every other change of a protected path — a generated test
   * writing `.github/workflows/…` or `.npmrc` — is put back as HEAD has it, reported, and told to the next role.
   * Without it, no change of a protected path is kept.
   */
  approvedProtectedChange?: (path: string) => Promise<boolean>;
  /** The roles' questions to the person: told whose turn runs, and their answers shown to every later turn. */
  questions?: PersonQuestions;
}

/** How the cycles ended, with the last test counts and, when it did not end well, why. */
export interface CycleLoopResult {
  status: Exclude<SessionStatus, 'running'>;
  lastTests: TestCounts;
  error?: AgentError;
}

const KATA_COMPLETE = /^\W*KATA_COMPLETE\b/i;

/**
 * Test runs that could not run because of the Tester's own files (production code was green before its
 * turn): a test that does not parse, or test files in which the runner finds no test. A missing
 * production module is not among them: that is the usual red of a first test.
 */
const TESTER_FIXABLE: ReadonlySet<TestErrorKind> = new Set(['syntax', 'no_tests']);
/** Characters of runner output a Tester retry carries. */
const RUNNER_ERROR_HINT_CHARS = 2_000;
/** Errors of a role's turn that another attempt may not meet again (see `attemptTurn`). */
const RETRIED_TURN_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'TIMEOUT',
  'CONNECTION',
  'RATE_LIMIT',
  'INVALID_REQUEST',
  'RESPONSE_TOO_LARGE',
  'OUTPUT_VALIDATION_FAILED',
  'HOOK_REJECTED',
  'TOOL_FAILED',
  'UNKNOWN',
]);
/** Tests a `test_run_finished` event carries one by one (the panel and the Testing view list them). */
const TEST_CASES_SHOWN = 2_000;
/** Protected paths a `protected_paths_reverted` event and a role's notice name (the rest are counted). */
const PROTECTED_PATHS_SHOWN = 50;

function counts(result: TestRunResult): TestCounts {
  return { status: result.status, passed: result.passed, failed: result.failed, total: result.total };
}

/** What a turn changed, sorted for the related run: test files a runner runs, test support code, production files. */
interface TurnFiles {
  /** Changed or new files a runner runs as tests (by their names, see `hasTestFileName`). */
  testFiles: string[];
  /** Changed or new production files. */
  sourceFiles: string[];
  /** A test-support file that is not itself a test file changed (a helper, a fixture, `conftest.py`): any test may use it. */
  sharedTestCode: boolean;
  /** A file was deleted (a test file's tests are gone, a helper may be): only the whole suite says what that did. */
  removed: boolean;
}

/** True for a related run that ran no test at all: it says nothing about the turn (the whole suite decides). */
function ranNothing(run: TestRunResult): boolean {
  return run.status === 'error' && run.errorKind === 'no_tests';
}

/** Thrown inside the loop to unwind to the cancellation handler. */
class Cancelled extends Error {}

/**
 * Runs red-green-refactor cycles. The supervisor never trusts a role's report: after every turn
 * it looks at the diff (role boundaries) and runs the real tests itself, and only a green tree
 * is ever committed.
 */
export class CycleLoop {
  private lastTests: TestCounts = { status: 'passed', passed: 0, failed: 0, total: 0 };
  private lastOutput = '';
  private lastRun: TestRunResult | undefined;
  /** The files each role was shown on its last turn: what changed since then goes after the rest (prefix caching). */
  private readonly shownTo = new Map<Role, Map<string, string>>();
  private cycleInProgress: number | undefined;
  /** What the current role's turn did so far, for its result (reset when a phase starts). */
  private turnOutcome: TurnOutcome = { filesModified: [], testsPassed: 0 };
  /** True right after a commit or a rollback to HEAD, until the next turn: nothing differs from HEAD. */
  private treeClean = false;
  /** What the supervisor undid outside the role rules (protected paths), for the next role's context; cleared once shown. */
  private notices: string[] = [];
  /** The test files the Tester wrote in this cycle: the related run of the Implementer and the Refactorer runs them. */
  private cycleTestFiles: string[] = [];
  /**
   * The test run of the current turn's last goal probe (see `goalReached` of a role turn). Every tool round that may
   * write is probed, so the tree has not changed since: the phase judges that run, and the changes the probe saw
   * before it ran the tests (a test run may write files itself), instead of running the same tests again.
   */
  private probed: { tests: TestRunResult; changes: ChangedFile[] } | undefined;
  /** Files the session's commits changed: a role's context shows them early (see `selectContextFiles`). */
  private readonly sessionFiles = new Set<string>();
  /** The suite test by test at the last green state (when the runner reports each test), with the baseline's known failures. */
  private suite: SuiteState = suiteStateOf({
    status: 'passed',
    passed: 0,
    failed: 0,
    total: 0,
    output: '',
    command: '',
    exitCode: 0,
    durationMs: 0,
  });

  constructor(private readonly o: CycleLoopOptions) {}

  /** Runs the baseline test run, then cycles until the kata is complete, a cycle fails twice in a row, or maxCycles. */
  async run(): Promise<CycleLoopResult> {
    const first = this.o.firstCycle ?? 1;
    try {
      await this.baseline(first);

      let consecutiveFailures = 0;
      for (let n = first; n < first + this.o.maxCycles; n++) {
        const outcome = await this.runCycle(n);
        if (outcome === 'kata_complete') return this.result('completed');
        consecutiveFailures = outcome === 'failed' ? consecutiveFailures + 1 : 0;
        if (consecutiveFailures >= 2) {
          return this.result(
            'failed',
            new AgentError(
              'GREEN_NOT_REACHED',
              `Two cycles in a row failed to reach green; stopping at the last green commit. See the cycle history for the test output.`,
              { cycle: n },
            ),
          );
        }
      }
      // Reaching the cycle limit is a success only when the last cycle ended green.
      if (consecutiveFailures > 0) {
        return this.result(
          'failed',
          new AgentError(
            'GREEN_NOT_REACHED',
            `The last cycle failed to reach green before the cycle limit; the workspace is at the last green commit.`,
            { cycle: first + this.o.maxCycles - 1 },
          ),
        );
      }
      return this.result('max_cycles');
    } catch (err) {
      if (err instanceof Cancelled || this.o.signal.aborted) {
        await this.o.git.rollbackToHead();
        this.abandonCycle('cancelled');
        return this.result('cancelled');
      }
      const error = toAgentError(err);
      await this.o.git.rollbackToHead().catch(() => undefined);
      this.abandonCycle('failed');
      this.o.emit({ type: 'error', error: error.toJSON() });
      return this.result('failed', error);
    }
  }

  /**
   * The run before any model request: the project's tests must run in the session's sandbox. One that could not run
   * (a load error, a missing module or runner, a config error, test files but no test) or timed out stops the session
   * with the runner's own words and a next step. Tests already failing are known failures: listed, and never blamed
   * on a role. Without per-test results, failing tests cannot be told apart, and the session refuses to start.
   */
  private async baseline(first: number): Promise<void> {
    const baseline = await this.runTests('baseline', first);
    if (baseline.status === 'error' || baseline.status === 'timeout') {
      const tail = truncateHeadTail(redactSecrets(baseline.output.trim()), 1_500);
      throw new AgentError(
        'CONFIG',
        `The project's tests cannot run in the session's sandbox (\`${baseline.command}\`): ${baseline.reason ?? baseline.status}\n${tail ? `${tail}\n` : ''}${baselineNextStep(baseline)} No model request was made.`,
        { command: baseline.command, errorKind: baseline.errorKind, status: baseline.status },
      );
    }
    const failing = failingTests(baseline);
    if (baseline.status === 'failed' && failing.length === 0) {
      throw new AgentError(
        'CONFIG',
        `The project's tests are not green before the session starts (${baseline.failed} failing), and the runner does not say which tests fail, so they could not be set aside. Make them pass first, or use a test command whose runner reports each test (node --test, mocha, jest, vitest, pytest). No model request was made.`,
        { command: baseline.command, failed: baseline.failed },
      );
    }
    this.suite = suiteStateOf(baseline, new Set(failing.map((t) => t.id)));
    this.lastTests = counts(baseline);
    if (failing.length > 0) {
      this.notices.push(
        `These tests already failed before the session started; they are set aside (no role is asked to fix them, and they do not count against anyone):\n${testNames(failing)}`,
      );
      this.o.emit({
        type: 'known_failures',
        cycle: first,
        tests: failing.map((t) => redactSecrets(`${t.file ? `${t.file} › ` : ''}${t.name}`)),
      });
    }
  }

  /** Closes the cycle that was running when the loop stopped, so the history shows where it stopped. */
  private abandonCycle(outcome: 'cancelled' | 'failed'): void {
    const n = this.cycleInProgress;
    if (n === undefined) return;
    this.cycleInProgress = undefined;
    this.o.recorder.finishCycle(outcome, this.lastTests);
    this.o.emit({ type: 'cycle_finished', cycle: n, outcome, tests: this.lastTests });
  }

  private result(status: CycleLoopResult['status'], error?: AgentError): CycleLoopResult {
    return { status, lastTests: this.lastTests, error };
  }

  private checkCancelled(): void {
    if (this.o.signal.aborted) throw new Cancelled();
  }

  private async runCycle(n: number): Promise<CycleOutcome> {
    this.o.recorder.startCycle(n);
    this.cycleInProgress = n;
    this.cycleTestFiles = [];
    this.o.emit({ type: 'cycle_started', cycle: n });

    const red = await this.redPhase(n);
    if (red.outcome !== 'red') {
      const outcome: CycleOutcome = red.outcome === 'kata_complete' ? 'kata_complete' : 'failed';
      if (outcome === 'failed') await this.rollback();
      return this.endCycle(n, outcome, null);
    }

    const green = await this.greenPhase(n);
    if (!green) {
      await this.rollback();
      this.o.recorder.count('reverts', 'implementer');
      this.o.emit({
        type: 'reverted',
        cycle: n,
        role: 'implementer',
        reason: 'No green state after the last attempt: the cycle was rolled back to the last green commit.',
      });
      return this.endCycle(n, 'failed', null);
    }
    const message = `feat: ${red.behaviour}\n\ntest: ${red.behaviour}\nimplementation: ${green.label}`;
    this.o.recorder.behaviour(red.behaviour);
    let commit = await this.commit(n, message, 'green');

    const refactorCommit = await this.refactorPhase(n);
    if (refactorCommit) commit = refactorCommit;
    return this.endCycle(n, 'green', commit ?? null);
  }

  private async endCycle(n: number, outcome: CycleOutcome, commit: string | null): Promise<CycleOutcome> {
    this.o.recorder.finishCycle(outcome, this.lastTests);
    this.cycleInProgress = undefined;
    this.o.emit({ type: 'phase_changed', cycle: n, phase: 'DONE', attempt: 0 });
    this.o.emit({ type: 'cycle_finished', cycle: n, outcome, commit: commit ?? undefined, tests: this.lastTests });
    await this.o.recorder.save();
    return outcome;
  }

  /** The state of the tree before a turn; the turn may change it, so it is not known to be clean afterwards. */
  private async checkpoint(): Promise<PhaseCheckpoint> {
    const checkpoint = await PhaseCheckpoint.take(this.o.workspaceRoot, this.o.git, { clean: this.treeClean });
    this.treeClean = false;
    return checkpoint;
  }

  /** Rolls the tree back to the last commit (nothing differs from HEAD afterwards). */
  private async rollback(): Promise<void> {
    await this.o.git.rollbackToHead();
    this.treeClean = true;
  }

  /**
   * Commits the tree after putting back protected paths no approved tool call wrote; returns undefined when nothing
   * was left to commit.
   */
  private async commit(n: number, label: string, kind: 'green' | 'refactor'): Promise<string | undefined> {
    let changed = await this.o.git.changedFiles();
    if (await this.revertUnapprovedProtectedPaths(n, kind === 'green' ? 'implementer' : 'refactorer', changed)) {
      changed = await this.o.git.changedFiles();
      if (!changed.length) {
        this.treeClean = true;
        return undefined;
      }
    }
    for (const change of changed) if (change.change !== 'deleted') this.sessionFiles.add(change.path);
    // The message is built from the model's report, which may repeat a secret: the event must not carry it either.
    const message = redactSecrets(label);
    const sha = await this.o.git.commitAll(message);
    this.treeClean = true;
    this.reportNestedRepositories(n, kind === 'green' ? 'implementer' : 'refactorer');
    this.o.recorder.commit(kind, sha);
    this.o.emit({ type: 'commit_made', cycle: n, sha, message: message.split('\n')[0]! });
    return sha;
  }

  /**
   * Puts back, as HEAD has them, the changed protected paths that no approved tool call wrote as they are now (a
   * generated test writes files without asking anyone, and `git add -A` would commit them), reports them, and keeps
   * a notice for the next role. `changed` is the tree's difference from HEAD now. Returns true when it reverted anything.
   */
  private async revertUnapprovedProtectedPaths(n: number, role: Role, changed: readonly ChangedFile[]): Promise<boolean> {
    const found = await unapprovedProtectedChanges(changed, this.o.approvedProtectedChange);
    if (found.length === 0) return false;
    for (let i = 0; i < found.length; i += 500) await this.o.git.revertPaths(found.slice(i, i + 500).map((f) => f.path));
    const reason =
      'protected files changed without an approved tool call (a test or a command wrote them); they were put back as the last commit has them';
    this.o.emit({
      type: 'protected_paths_reverted',
      cycle: n,
      role,
      paths: found.slice(0, PROTECTED_PATHS_SHOWN).map((f) => f.path),
      count: found.length,
      reason,
    });
    this.notices.push(describeProtectedChanges(found));
    return true;
  }

  /**
   * Reports the nested repositories the commit took apart: a test that runs `git init` leaves a repository whose own
   * config (`core.fsmonitor`, hooks) would run on the host once it is staged as a gitlink, so its `.git` was removed.
   */
  private reportNestedRepositories(n: number, role: Role): void {
    const removed = this.o.git.removedNestedRepositories?.() ?? [];
    if (removed.length === 0) return;
    this.o.emit({
      type: 'protected_paths_reverted',
      cycle: n,
      role,
      paths: removed.slice(0, PROTECTED_PATHS_SHOWN),
      count: removed.length,
      reason: NESTED_REPOSITORY_REASON,
    });
    const lines = removed.slice(0, PROTECTED_PATHS_SHOWN).map((path) => `- ${path}`);
    if (removed.length > PROTECTED_PATHS_SHOWN) lines.push(`- and ${removed.length - PROTECTED_PATHS_SHOWN} more`);
    this.notices.push([`Before the last commit the supervisor removed these: ${NESTED_REPOSITORY_REASON}.`, ...lines].join('\n'));
  }

  /** Red: one new failing test. A passing suite is an overshoot; touching production code is a violation. */
  private async redPhase(n: number): Promise<{ outcome: PhaseOutcome; behaviour: string }> {
    const started = Date.now();
    this.turnOutcome = { filesModified: [], testsPassed: this.lastTests.passed };
    let hint: string | undefined;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS.tester; attempt++) {
      if (attempt > 1) this.o.recorder.count('retries', 'tester');
      const checkpoint = await this.checkpoint();
      const turn = await this.attemptTurn('tester', 'TESTING', n, attempt, hint, checkpoint, () =>
        this.probe(
          'tester',
          checkpoint,
          (files) => this.testsAfterTester(n, files),
          (tests) => this.isRed(tests),
        ),
      );
      if ('retry' in turn) {
        hint = turn.retry;
        continue;
      }
      const report = turn.report;
      const changes = this.probed?.changes ?? (await checkpoint.changesSince());
      this.turnOutcome.filesModified = changes.map((c) => c.path);

      if (changes.length === 0) {
        if (KATA_COMPLETE.test(report)) return this.endPhase(n, 'tester', attempt, 'kata_complete', started, { behaviour: '' });
        hint =
          'You made no change. Write exactly one new failing test (edit_file in an existing test file, write_file for a new one), or answer KATA_COMPLETE if every behaviour is covered.';
        continue;
      }
      const outOfBounds = checkRoleBoundary('tester', changes, { kata: this.o.kata });
      if (outOfBounds.length) {
        hint = await this.violation(n, 'tester', attempt, outOfBounds, checkpoint);
        continue;
      }

      const turnFiles = this.turnFiles(changes);
      const tests = this.probed?.tests ?? (await this.testsAfterTester(n, turnFiles));
      if (tests.status === 'timeout') {
        await checkpoint.restore();
        hint = `The tests timed out after your change (${tests.reason ?? 'no output'}). Write a test that finishes quickly.`;
        this.turnOutcome.error = { error_code: 'TIMEOUT', message: 'The tests timed out after the tester’s change.' };
        continue;
      }
      if (tests.status === 'error' && tests.errorKind && TESTER_FIXABLE.has(tests.errorKind)) {
        // The Implementer may not touch tests, so it could never fix this: the Tester gets it back.
        await checkpoint.restore();
        hint = `Your test could not run (${tests.reason ?? tests.errorKind}), so it was undone. Fix it and write it again. Runner output:\n${truncateHeadTail(tests.output, RUNNER_ERROR_HINT_CHARS)}`;
        continue;
      }
      const fewer =
        tests.status === 'error'
          ? []
          : tests.scope === 'related'
            ? checkRoleBoundary('tester', [], this.relatedTestCounts(tests))
            : checkRoleBoundary('tester', [], { testsBefore: this.lastTests.total, testsAfter: tests.total });
      if (fewer.length) {
        hint = await this.violation(n, 'tester', attempt, fewer, checkpoint);
        continue;
      }
      const verdict = tests.status === 'failed' ? judgeRed(this.suite, tests) : { kind: 'unidentified' as const };
      if (verdict.kind === 'broke_old' || verdict.kind === 'too_many') {
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
        hint = await this.violation(n, 'tester', attempt, [violation], checkpoint);
        continue;
      }
      if (tests.status === 'passed' || verdict.kind === 'overshoot') {
        this.o.recorder.count('overshoots', 'tester');
        const reason = `Overshoot: your new test passed without any production change (${tests.passed} passing), so it does not specify new behaviour. Write a test for behaviour that is not implemented yet.`;
        this.o.emit({ type: 'overshoot', cycle: n, attempt, reason });
        await checkpoint.restore();
        hint = reason;
        continue;
      }
      // failed, or could not run because the production code does not exist yet: both are red.
      this.lastTests = tests.scope === 'related' ? this.suiteCountsWith(tests) : counts(tests);
      this.turnOutcome.testsPassed = this.lastTests.passed;
      this.cycleTestFiles = turnFiles.testFiles;
      const behaviour =
        verdict.kind === 'red'
          ? behaviourOf(verdict.test)
          : report.trim()
            ? reportLabel(report, 'new behaviour')
            : ((await this.newTestTitle(turnFiles.testFiles)) ?? 'new behaviour');
      return this.endPhase(n, 'tester', attempt, 'red', started, { behaviour });
    }
    return this.endPhase(n, 'tester', MAX_ATTEMPTS.tester, 'failed', started, { behaviour: '' });
  }

  /** Green: the smallest production change that passes every test, without touching tests. */
  private async greenPhase(n: number): Promise<{ label: string } | undefined> {
    const started = Date.now();
    this.turnOutcome = { filesModified: [], testsPassed: this.lastTests.passed };
    const redTotal = this.lastTests.total;
    // Attempt 1 has no rejection to report: the context shows the Tester's red run as the last test output.
    let hint: string | undefined;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS.implementer; attempt++) {
      if (attempt > 1) this.o.recorder.count('retries', 'implementer');
      const checkpoint = await this.checkpoint();
      const turn = await this.attemptTurn('implementer', 'IMPLEMENTING', n, attempt, hint, checkpoint, () =>
        this.probe(
          'implementer',
          checkpoint,
          (files) => this.testsBeforeCommit('implementer', n, files),
          (tests) => this.isGreen(tests),
        ),
      );
      if ('retry' in turn) {
        hint = turn.retry;
        continue;
      }
      const report = turn.report;
      const changes = this.probed?.changes ?? (await checkpoint.changesSince());
      this.turnOutcome.filesModified = changes.map((c) => c.path);

      const touchedTests = checkRoleBoundary('implementer', changes, { kata: this.o.kata });
      if (touchedTests.length) {
        hint = await this.violation(
          n,
          'implementer',
          attempt,
          touchedTests,
          checkpoint,
          touchedTests.flatMap((v) => (v.path ? [v.path] : [])),
        );
        continue;
      }
      const tests = this.probed?.tests ?? (await this.testsBeforeCommit('implementer', n, this.turnFiles(changes)));
      const green = this.isGreen(tests);
      const fewer = green ? checkRoleBoundary('implementer', [], { testsBefore: redTotal, testsAfter: tests.total }) : [];
      if (fewer.length) {
        hint = await this.violation(n, 'implementer', attempt, fewer, checkpoint);
        continue;
      }
      if (!green) {
        hint = `Attempt ${attempt} did not make the tests pass (${describe(tests)}). Test output:\n${tests.output}`;
        this.turnOutcome.error = {
          error_code: tests.status === 'timeout' ? 'TIMEOUT' : 'EXECUTION_FAILED',
          message: `The tests did not pass after the last attempt (${describe(tests)}).`,
        };
        continue;
      }
      const gate = await this.qualityGates(n);
      if (gate) {
        hint = `The tests pass, but the quality gate failed:\n${gate.output}`;
        this.turnOutcome.error = { error_code: 'QUALITY_GATE_FAILED', message: `The quality gate '${gate.command}' failed.` };
        continue;
      }
      this.lastTests = counts(tests);
      this.suite = suiteStateOf(tests, this.suite.knownFailures);
      this.endPhase(n, 'implementer', attempt, 'green', started, {});
      return { label: reportLabel(report, 'make the test pass') };
    }
    this.endPhase(n, 'implementer', MAX_ATTEMPTS.implementer, 'failed', started, {});
    return undefined;
  }

  /** Refactor: one behaviour-preserving change, kept only when everything stays green. Never fatal. */
  private async refactorPhase(n: number): Promise<string | undefined> {
    const started = Date.now();
    this.turnOutcome = { filesModified: [], testsPassed: this.lastTests.passed };
    let hint: string | undefined;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS.refactorer; attempt++) {
      if (attempt > 1) this.o.recorder.count('retries', 'refactorer');
      const checkpoint = await this.checkpoint();
      const turn = await this.attemptTurn('refactorer', 'REFACTORING', n, attempt, hint, checkpoint);
      if ('retry' in turn) {
        hint = turn.retry;
        continue;
      }
      const report = turn.report;
      const changes = await checkpoint.changesSince();
      this.turnOutcome.filesModified = changes.map((c) => c.path);
      // NO_REFACTOR is the polite form of "no change"; only the diff counts.
      if (changes.length === 0) {
        this.endPhase(n, 'refactorer', attempt, 'no_change', started, {});
        return undefined;
      }
      const deletedTests = checkRoleBoundary('refactorer', changes, { kata: this.o.kata });
      if (deletedTests.length) {
        hint = await this.violation(n, 'refactorer', attempt, deletedTests, checkpoint);
        continue;
      }
      const tests = await this.testsBeforeCommit('refactorer', n, this.turnFiles(changes));
      const green = this.isGreen(tests);
      const fewer =
        green && checkRoleBoundary('refactorer', [], { testsBefore: this.lastTests.total, testsAfter: tests.total }).length > 0;
      const gate = green && !fewer ? await this.qualityGates(n) : undefined;
      if (green && !fewer && !gate) {
        this.lastTests = counts(tests);
        this.suite = suiteStateOf(tests, this.suite.knownFailures);
        const sha = await this.commit(n, `refactor: ${reportLabel(report, 'tidy up')}`, 'refactor');
        // Only protected files had changed, and they were put back: nothing was refactored.
        this.endPhase(n, 'refactorer', attempt, sha ? 'refactored' : 'no_change', started, {});
        return sha;
      }
      const reason = fewer
        ? `The number of tests went down from ${this.lastTests.total} to ${tests.total}.`
        : gate
          ? `The quality gate failed after the refactoring:\n${gate.output}`
          : `The refactoring broke the tests (${describe(tests)}):\n${tests.output}`;
      this.turnOutcome.error = gate
        ? { error_code: 'QUALITY_GATE_FAILED', message: `The quality gate '${gate.command}' failed after the refactoring.` }
        : { error_code: tests.status === 'timeout' ? 'TIMEOUT' : 'EXECUTION_FAILED', message: reason.split('\n')[0]! };
      await checkpoint.restore();
      this.o.recorder.count('reverts', 'refactorer');
      this.o.emit({ type: 'reverted', cycle: n, role: 'refactorer', reason: reason.split('\n')[0]! });
      hint = `Your previous refactoring was reverted. ${reason}`;
    }
    this.endPhase(n, 'refactorer', MAX_ATTEMPTS.refactorer, 'skipped', started, {});
    return undefined;
  }

  /**
   * A turn's goal probe, asked after each tool round that may have written files: the changes since the checkpoint,
   * inside the role's boundary, run as the phase runs them (`run`) and judged by `reached`. That run is kept in
   * `probed`; when it says the goal is reached, the turn ends and the phase judges that same run without running the
   * tests again.
   */
  private async probe(
    role: Role,
    checkpoint: PhaseCheckpoint,
    run: (files: TurnFiles) => Promise<TestRunResult>,
    reached: (tests: TestRunResult) => boolean,
  ): Promise<boolean> {
    this.probed = undefined;
    const changes = await checkpoint.changesSince();
    if (changes.length === 0 || checkRoleBoundary(role, changes, { kata: this.o.kata }).length > 0) return false;
    const tests = await run(this.turnFiles(changes));
    this.probed = { tests, changes };
    return reached(tests);
  }

  /**
   * Red as a Tester's turn must leave it: exactly one new failing test (test by test), or, without per-test results,
   * a failing run or one that could not load the production code yet. What the phase would send back (a test that
   * does not parse, a timeout, an overshoot) is not red.
   */
  private isRed(tests: TestRunResult): boolean {
    if (tests.status === 'error') return !tests.errorKind || !TESTER_FIXABLE.has(tests.errorKind);
    if (tests.status !== 'failed') return false;
    const verdict = judgeRed(this.suite, tests);
    return verdict.kind === 'red' || verdict.kind === 'unidentified';
  }

  /**
   * The title of the last test in the turn's test files that the last green state did not have, read from the
   * files' source: the behaviour's name when the runner could not say which test is new and the role gave no report.
   */
  private async newTestTitle(testFiles: readonly string[]): Promise<string | undefined> {
    let found: string | undefined;
    for (const file of testFiles) {
      const read = await readTextFile(this.o.workspaceRoot, file);
      if (read.kind !== 'text') continue;
      const known = [...this.suite.known].filter((id) => id.startsWith(`${file}::`));
      for (const title of testTitlesIn(file, read.text)) if (!known.some((id) => id.endsWith(title))) found = title;
    }
    return found === undefined ? undefined : behaviourOf({ id: found, name: found, outcome: 'failed' });
  }

  /** Green: every test passes, or (test by test) every failing test is a known failure from before the session. */
  private isGreen(tests: TestRunResult): boolean {
    if (tests.status === 'passed') return true;
    return tests.status === 'failed' && this.suite.knownFailures.size > 0 && stillFailing(this.suite, tests)?.length === 0;
  }

  /** Runs the quality gates on a green tree; a failure is reported as an event and returned. */
  private async qualityGates(n: number): Promise<GateFailure | undefined> {
    const gate = await runQualityGates(this.o.qualityGates ?? [], this.o.workspaceRoot, {
      timeoutMs: this.o.testTimeoutMs,
      signal: this.o.signal,
      sandbox: this.o.sandbox,
    });
    if (gate) this.o.emit({ type: 'quality_gate_failed', cycle: n, command: gate.command, output: gate.output });
    return gate;
  }

  private endPhase<T extends object>(
    n: number,
    role: Role,
    attempts: number,
    outcome: PhaseOutcome,
    started: number,
    extra: T,
  ): { outcome: PhaseOutcome } & T {
    const durationMs = Date.now() - started;
    this.o.recorder.endPhase(role, attempts, outcome, durationMs, this.turnOutcome);
    this.o.emit({ type: 'phase_finished', cycle: n, role, outcome, attempts, durationMs });
    return { outcome, ...extra };
  }

  /** Counts and reports a role violation, undoes the offending changes (or only `paths`), and returns the hint for the retry. */
  private async violation(
    n: number,
    role: Role,
    attempt: number,
    violations: BoundaryViolation[],
    checkpoint: PhaseCheckpoint,
    paths?: string[],
  ): Promise<string> {
    this.o.recorder.count('violations', role);
    this.o.emit({ type: 'violation', cycle: n, role, attempt, reasons: violations.map((v) => v.message) });
    await checkpoint.restore(paths);
    return describeViolations(violations);
  }

  /**
   * One attempt of a role (001's execute_with_retry): a turn that throws an error a new attempt may not meet again (a
   * provider error, a model timeout, malformed output, a failed tool) has its changes undone and counts as a failed
   * attempt, the next attempt hearing why; at the last attempt the error ends the session, saying how many attempts
   * failed. Errors no retry can mend (authentication, configuration, the sandbox, git, a replay that diverged, a
   * context that is too long) end it at once.
   */
  private async attemptTurn(
    role: Role,
    phase: Phase,
    n: number,
    attempt: number,
    hint: string | undefined,
    checkpoint: PhaseCheckpoint,
    goalReached?: () => Promise<boolean>,
  ): Promise<RoleTurnResult | { retry: string }> {
    this.probed = undefined;
    try {
      return await this.turn(role, phase, n, attempt, hint, goalReached);
    } catch (err) {
      if (err instanceof Cancelled) throw err;
      const error = toAgentError(err);
      if (!RETRIED_TURN_ERRORS.has(error.error_code)) throw error;
      const who = ROLE_TITLES[role];
      if (attempt >= MAX_ATTEMPTS[role]) {
        throw new AgentError(
          error.error_code,
          `The ${who}'s turn failed ${attempt} times; the last time: ${error.message}`,
          error.details,
          {
            cause: err,
          },
        );
      }
      await checkpoint.restore();
      this.turnOutcome.error = {
        error_code: error.error_code === 'TIMEOUT' ? 'TIMEOUT' : 'EXECUTION_FAILED',
        message: error.message.split('\n')[0]!,
      };
      this.o.emit({
        type: 'reverted',
        cycle: n,
        role,
        reason: `The ${who}'s turn ended with an error (${error.error_code}: ${error.message.split('\n')[0]}); its changes were undone and it tries again.`,
      });
      return {
        retry: `Your previous attempt ended with an error before it finished (${error.message.split('\n')[0]}); its changes were undone. Try again.`,
      };
    }
  }

  private async turn(
    role: Role,
    phase: Phase,
    cycle: number,
    attempt: number,
    hint: string | undefined,
    goalReached?: () => Promise<boolean>,
  ): Promise<RoleTurnResult> {
    this.checkCancelled();
    this.o.emit({ type: 'phase_changed', cycle, phase, role, attempt, hint: hint?.split('\n')[0] });
    this.o.recorder.phaseStarted(role, attempt);
    await this.o.recorder.save();
    let shownBefore = this.shownTo.get(role);
    if (!shownBefore) this.shownTo.set(role, (shownBefore = new Map()));
    const uncommitted = (await this.o.git.changedFiles()).filter((c) => c.change !== 'deleted').map((c) => c.path);
    const isTest = (path: string) => isTestFile(path, this.o.kata);
    const named = (this.lastRun?.tests ?? [])
      .filter((t) => t.outcome === 'failed' && t.file && !this.suite.knownFailures.has(t.id))
      .map((t) => t.file!);
    const context = await buildRoleContext({
      role,
      shownBefore,
      isTestFile: isTest,
      focusFiles: [...new Set([...uncommitted.filter(isTest), ...this.cycleTestFiles, ...named])],
      sessionFiles: [...new Set([...uncommitted, ...this.sessionFiles])],
      fileTokenBudget: await this.o.roles[role].contextTokens?.(),
      kataTitle: this.o.kata.title,
      kataDescription: this.o.kata.description,
      language: this.o.kata.language,
      sourceDir: this.o.kata.sourceDir,
      testDir: this.o.kata.testDir,
      testCommand: this.o.testRunner.command,
      workspaceRoot: this.o.workspaceRoot,
      cycle,
      maxCycles: (this.o.firstCycle ?? 1) + this.o.maxCycles - 1,
      attempt,
      maxAttempts: MAX_ATTEMPTS[role],
      recentCommits: await this.o.git.recentCommits(5),
      lastTestOutput: this.lastOutput,
      lastTestRun: this.lastRun,
      lastError: hint,
      notices: this.notices.length ? this.notices : undefined,
      answers: this.o.questions?.answers(),
      signal: this.o.signal,
    });
    this.notices = [];
    this.o.questions?.startTurn(role, cycle);
    try {
      // Every round that may have written files is probed, so the last probe's run (if any) saw the tree as the turn
      // left it: later rounds only read (list, read, run the tests). The phase judges that run.
      return await this.o.roles[role].runTurn({ role, cycle, attempt, context, signal: this.o.signal, goalReached });
    } catch (err) {
      if (this.o.signal.aborted) throw new Cancelled();
      throw err;
    } finally {
      this.checkCancelled();
    }
  }

  /** Sorts a turn's changes for the related run (see {@link TurnFiles}), by the kata's rules for test files. */
  private turnFiles(changes: readonly ChangedFile[]): TurnFiles {
    const files: TurnFiles = { testFiles: [], sourceFiles: [], sharedTestCode: false, removed: false };
    for (const change of changes) {
      if (change.change === 'deleted') files.removed = true;
      else if (!isTestFile(change.path, this.o.kata)) files.sourceFiles.push(change.path);
      else if (hasTestFileName(change.path)) files.testFiles.push(change.path);
      else files.sharedTestCode = true;
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
  private async testsAfterTester(n: number, files: TurnFiles): Promise<TestRunResult> {
    if (files.sharedTestCode || files.removed || files.testFiles.length === 0 || !this.suite.identified) {
      return this.runTests('tester', n);
    }
    const related = await this.runTests('tester', n, { testFiles: files.testFiles });
    if (related.scope === 'related' && related.status === 'failed' && !related.tests) return this.runTests('tester', n);
    return related;
  }

  /**
   * The run that judges an Implementer's or Refactorer's turn: the related tests first — the cycle's test files, the
   * test files the turn changed, and the tests the runner relates to the changed production files — as the fast
   * signal; when they do not pass, that is the answer for this attempt. When they pass (or ran no test, or the
   * command could not be narrowed and ran the whole suite already), the whole suite runs once: only a whole-suite
   * run is ever judged green and committed.
   */
  private async testsBeforeCommit(role: 'implementer' | 'refactorer', n: number, files: TurnFiles): Promise<TestRunResult> {
    const subset: TestSubset = {
      testFiles: [...new Set([...this.cycleTestFiles, ...files.testFiles])],
      sourceFiles: files.sourceFiles,
    };
    const related = await this.runTests(role, n, subset);
    if (related.scope !== 'related') return related;
    if (!this.isGreen(related) && !ranNothing(related)) return related;
    return this.runTests(role, n);
  }

  /**
   * For the `tests_decreased` rule on a related run: the tests the last green state had in the run's files, and the
   * tests the run found there.
   */
  private relatedTestCounts(run: TestRunResult): { testsBefore?: number; testsAfter?: number } {
    if (!run.tests || !run.relatedFiles) return {};
    const files = run.relatedFiles;
    const before = [...this.suite.known].filter((id) => files.some((f) => id.startsWith(`${f}::`))).length;
    return { testsBefore: before, testsAfter: run.tests.length };
  }

  /**
   * The whole suite's counts after a related run: the last green state's tests outside the run's files (untouched by
   * a Tester that changed only those files), and the run's own.
   */
  private suiteCountsWith(run: TestRunResult): TestCounts {
    const files = run.relatedFiles ?? [];
    const outside = (id: string): boolean => !files.some((f) => id.startsWith(`${f}::`));
    const count = (ids: ReadonlySet<string>): number => [...ids].filter(outside).length;
    return {
      status: run.status,
      passed: count(this.suite.passing) + run.passed,
      failed: count(this.suite.knownFailures) + run.failed,
      total: count(this.suite.known) + run.total,
    };
  }

  private async runTests(role: Role | 'baseline', cycle: number, only?: TestSubset): Promise<TestRunResult> {
    this.checkCancelled();
    const result = await this.o.testRunner.run({
      signal: this.o.signal,
      timeoutMs: this.o.testTimeoutMs,
      ...(only ? { only } : {}),
    });
    this.checkCancelled();
    this.lastOutput = result.output;
    this.lastRun = result;
    if (role !== 'baseline') {
      this.turnOutcome.testsPassed = result.passed;
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
    return result;
  }
}

/** Why the `.git` of a nested repository is removed before a commit, as the event and the next role read it. */
const NESTED_REPOSITORY_REASON =
  'git repositories nested in the session (a test or a command ran `git init`) are never committed as repositories: their `.git` was removed and their files were committed as plain files';

/** The notice a role reads about protected paths the supervisor put back. */
function describeProtectedChanges(found: readonly ProtectedChange[]): string {
  const lines = found.slice(0, PROTECTED_PATHS_SHOWN).map((f) => `- ${f.path}: ${f.reason}`);
  if (found.length > PROTECTED_PATHS_SHOWN) lines.push(`- and ${found.length - PROTECTED_PATHS_SHOWN} more`);
  return [
    'Before the last commit the supervisor put these files back as the previous commit has them: they are protected, and they changed without a tool call a person approved (a test or a command wrote them). Tests must not write them; change them only with write_file or edit_file, which ask a person first.',
    ...lines,
  ].join('\n');
}

/** What to do when the baseline run could not run the project's tests. */
function baselineNextStep(run: TestRunResult): string {
  switch (run.errorKind) {
    case 'missing_module':
      return "Next step: install the project's dependencies in your checkout (the session reuses them), or name the test command with --test-command / test_command.";
    case 'runner_missing':
      return 'Next step: install the test runner (or the project dependencies that bring it), or name the test command with --test-command / test_command.';
    case 'no_tests':
      return "Next step: check that the test command finds the project's test files (its config's include / testMatch / testpaths).";
    default:
      return run.status === 'timeout'
        ? 'Next step: raise the time limit of a test run (--test-timeout, tddAgent.testTimeoutMs) or make the suite faster.'
        : 'Next step: run the same command in your checkout and fix what it reports, or name another test command with --test-command / test_command.';
  }
}

function describe(tests: TestRunResult): string {
  if (tests.status === 'timeout') return `timed out${tests.reason ? `: ${tests.reason}` : ''}`;
  if (tests.status === 'error') return `the tests could not run${tests.reason ? `: ${tests.reason}` : ''}`;
  return `${tests.failed} failing, ${tests.passed} passing`;
}
