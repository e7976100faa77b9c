import type { ErrorInfo } from '../../errors/agentError';
import type { TokenUsage } from '../../llm/types';
import type { TestCounts } from '../events';
import { SUCCESSFUL_PHASE_OUTCOMES, type CycleOutcome, type PhaseOutcome, type RoleErrorCode } from '../sessionVocabulary';
import type { Phase, Role, SessionStatus } from '../../vocabulary';
import type { SessionGitInfo } from '../git';
import type { Kata } from '../kata';
import {
  emptySessionMetrics,
  newCycleState,
  type CycleState,
  type QuestionRecord,
  type RoleResult,
  type SessionState,
} from './sessionState';
import type { SessionStore } from './sessionStore';
import type { SessionSummary } from '../sessionSummary';

/** What the loop saw of one role's turn, for its result. */
export interface TurnOutcome {
  /** Paths the role changed in its last attempt. */
  filesModified: Iterable<string>;
  /** Passing tests after the role's last test run. */
  testsPassed: number;
  /** Why it did not succeed, when the loop knows better than "execution failed". */
  error?: { error_code: RoleErrorCode; message: string };
}

/** Counters the loop bumps; each also lands on the phase record of the role that caused it. */
export type SessionCounter = 'overshoots' | 'violations' | 'retries' | 'reverts';

const PHASE_OF: Record<Role, Exclude<Phase, 'DONE'>> = {
  tester: 'TESTING',
  implementer: 'IMPLEMENTING',
  refactorer: 'REFACTORING',
};

/** What a new session starts with. */
export interface NewSessionInfo {
  kata: Kata;
  workspace: string;
  branch: string;
  model: string;
  provider: string;
  maxCycles: number;
  /** Known once the test runner was detected in the worktree. */
  testCommand?: string;
  git: SessionGitInfo;
  /** Which OS sandbox confines the session's processes. */
  sandbox: string;
}

/**
 * The session's memory: a `SessionState` (cycles with per-role phase records, totals, model
 * latency, phase durations) kept up to date as the loop runs, saved to the session's record after
 * every phase, and turned into the summary the CLI prints and the panel shows.
 */
export class SessionRecorder {
  private readonly pending: Record<Role, Record<Exclude<SessionCounter, 'retries'>, number>> = {
    tester: { overshoots: 0, violations: 0, reverts: 0 },
    implementer: { overshoots: 0, violations: 0, reverts: 0 },
    refactorer: { overshoots: 0, violations: 0, reverts: 0 },
  };
  /** Commits made from a role's work before its phase record exists (the refactor commit). */
  private readonly pendingCommits: Record<Role, string[]> = { tester: [], implementer: [], refactorer: [] };

  private constructor(
    readonly state: SessionState,
    private readonly store: SessionStore,
  ) {}

  /** A new session. */
  static start(store: SessionStore, info: NewSessionInfo): SessionRecorder {
    const now = new Date().toISOString();
    const { kata } = info;
    return new SessionRecorder(
      {
        version: 2,
        id: store.id,
        status: 'running',
        kata: {
          title: kata.title,
          slug: kata.slug,
          description: kata.description,
          language: kata.language,
          testCommand: kata.testCommand,
          sourceDir: kata.sourceDir,
          testDir: kata.testDir,
          maxCycles: kata.maxCycles,
          fileName: kata.fileName,
        },
        workspace: info.workspace,
        branch: info.branch,
        git: info.git,
        pid: process.pid,
        worktreeKept: true,
        sandbox: info.sandbox,
        testCommand: info.testCommand,
        model: info.model,
        provider: info.provider,
        maxCycles: info.maxCycles,
        startedAt: now,
        updatedAt: now,
        cycles: [],
        questions: [],
        metrics: emptySessionMetrics(),
      },
      store,
    );
  }

  /** A role's question to the person and what came of it; saved with the next save. */
  question(record: Omit<QuestionRecord, 'at'>): void {
    this.state.questions.push({ ...record, at: new Date().toISOString() });
  }

  /**
   * A saved session, ready to continue in this process: its unfinished last cycle (cancelled or
   * interrupted) is dropped, since that cycle runs again.
   */
  static resume(store: SessionStore, saved: SessionState, sandbox: string): SessionRecorder {
    const last = saved.cycles.at(-1);
    if (last && (last.outcome === 'in_progress' || last.outcome === 'cancelled')) saved.cycles.pop();
    saved.status = 'running';
    saved.pid = process.pid;
    saved.sandbox = sandbox;
    delete saved.error;
    delete saved.finishedAt;
    saved.metrics.cycles = saved.cycles.length;
    return new SessionRecorder(saved, store);
  }

  /** Number of the next cycle to run. */
  get nextCycle(): number {
    return this.state.cycles.length + 1;
  }

  private get current(): CycleState | undefined {
    const last = this.state.cycles.at(-1);
    return last?.outcome === 'in_progress' ? last : undefined;
  }

  /** Cycle `n` begins (TESTING, no attempts yet). */
  startCycle(n: number): void {
    this.state.cycles.push(newCycleState(n));
  }

  /** A role starts (or retries) its phase. */
  phaseStarted(role: Role, attempt: number): void {
    const cycle = this.current;
    if (!cycle) return;
    cycle.phase = PHASE_OF[role];
    cycle.attempts[role] = attempt;
  }

  /** A role's phase ended; its counters since the phase began and the result of its turn go on the record. */
  endPhase(
    role: Role,
    attempts: number,
    outcome: PhaseOutcome,
    durationMs: number,
    turn: TurnOutcome = { filesModified: [], testsPassed: 0 },
  ): void {
    const cycle = this.current;
    const duration = Math.round(durationMs);
    this.state.metrics.phaseDurationsMs[PHASE_OF[role]] += duration;
    if (!cycle) return;
    const counters = this.pending[role];
    const success = SUCCESSFUL_PHASE_OUTCOMES.has(outcome);
    const result: RoleResult = {
      success,
      files_modified: [...turn.filesModified].sort(),
      tests_passed: turn.testsPassed,
      overshoot_detected: counters.overshoots > 0,
      commits_made: this.pendingCommits[role],
      ...(!success && outcome !== 'cancelled'
        ? {
            error: turn.error ?? {
              error_code: 'EXECUTION_FAILED',
              message: `The ${role} did not reach its goal in ${attempts} attempt(s).`,
            },
          }
        : {}),
    };
    cycle.phases.push({ role, attempts, outcome, durationMs: duration, ...counters, result });
    this.pending[role] = { overshoots: 0, violations: 0, reverts: 0 };
    this.pendingCommits[role] = [];
  }

  /** Bumps a session counter, attributed to the role whose turn caused it. */
  count(counter: SessionCounter, role: Role): void {
    this.state.metrics[counter]++;
    if (counter !== 'retries') this.pending[role][counter]++;
  }

  /** Set by the Tester's report: what the cycle's new test is about. */
  behaviour(text: string): void {
    if (this.current) this.current.behaviour = text;
  }

  /**
   * A commit was made in the current cycle: its green state (the Implementer's, or the Tester's own test of an example
   * the code already handled: `role` tester), or its refactoring.
   */
  commit(kind: 'green' | 'refactor', sha: string, role: Role = kind === 'green' ? 'implementer' : 'refactorer'): void {
    this.state.metrics.commits++;
    if (!this.current) return;
    this.current.commits[kind] = sha;
    const ended = this.current.phases.findLast((p) => p.role === role);
    if (ended?.result) ended.result.commits_made.push(sha);
    else this.pendingCommits[role].push(sha);
  }

  /** Tests that were red in the session are gone (`file › name (red in cycle k)`): kept in the record and the summary. */
  goneRedTests(names: readonly string[]): void {
    this.state.goneRedTests = [...(this.state.goneRedTests ?? []), ...names];
  }

  /** Gone red tests that passed in a later commit (the Tester wrote them again): no longer counted as gone. */
  redTestsBack(names: readonly string[]): void {
    const left = (this.state.goneRedTests ?? []).filter((name) => !names.includes(name));
    if (left.length) this.state.goneRedTests = left;
    else delete this.state.goneRedTests;
  }

  /** The stated examples the Tester left without a test when it ended the session (as they read: `15 → "FizzBuzz"`). */
  untestedExamples(examples: readonly string[]): void {
    if (examples.length) this.state.untestedExamples = [...examples];
  }

  /** One of the supervisor's test runs in the current cycle: a related run (`fastRunMs`) or a whole-suite run (`fullRunMs`). */
  testRun(scope: 'related' | 'full', durationMs: number): void {
    const cycle = this.current;
    if (!cycle) return;
    const key = scope === 'related' ? 'fastRunMs' : 'fullRunMs';
    cycle[key] = (cycle[key] ?? 0) + Math.max(0, Math.round(durationMs));
  }

  /** One model call: tokens, latency, and the tool calls read from its text (a local model without a tool parser). */
  modelCall(usage: Pick<TokenUsage, 'promptTokens' | 'completionTokens'>, latencyMs: number, toolCallsFromText = 0): void {
    const m = this.state.metrics;
    m.modelCalls++;
    m.toolCallsFromText += toolCallsFromText;
    m.tokens.prompt += usage.promptTokens;
    m.tokens.completion += usage.completionTokens;
    m.tokens.total += usage.promptTokens + usage.completionTokens;
    m.modelLatencyMs.total += Math.round(latencyMs);
    m.modelLatencyMs.max = Math.max(m.modelLatencyMs.max, Math.round(latencyMs));
  }

  /**
   * The counts of the tree the session stands at, before any cycle (the baseline run): what `tests_passed` says until
   * a cycle ends.
   */
  baseline(tests: TestCounts): void {
    this.state.metrics.testsPassing = tests.passed;
  }

  /**
   * Closes the current cycle with its outcome, the counts of the state it ended at (after a rollback, the last
   * commit's: where the session stands now), and, when its tree was rolled back, the counts of the rolled-back attempt.
   */
  finishCycle(outcome: CycleOutcome, tests: TestCounts, rolledBackTests?: TestCounts): void {
    const cycle = this.current;
    if (!cycle) return;
    const now = new Date();
    cycle.outcome = outcome;
    cycle.phase = 'DONE';
    cycle.tests = { passed: tests.passed, failed: tests.failed, total: tests.total };
    if (rolledBackTests)
      cycle.rolledBackTests = { passed: rolledBackTests.passed, failed: rolledBackTests.failed, total: rolledBackTests.total };
    cycle.finishedAt = now.toISOString();
    cycle.durationMs = Math.max(0, now.getTime() - Date.parse(cycle.startedAt));
    this.state.metrics.cycles = this.state.cycles.length;
    this.state.metrics.testsPassing = tests.passed;
  }

  /** The session ended: how, and why when it did not end well. */
  finish(status: Exclude<SessionStatus, 'running'>, error?: ErrorInfo): void {
    this.state.status = status;
    delete this.state.pid;
    this.state.finishedAt = new Date().toISOString();
    if (error) this.state.error = { error_code: error.error_code, message: error.message };
  }

  /** The worktree was removed at the end; the record keeps the branch. */
  worktreeRemoved(): void {
    this.state.worktreeKept = false;
  }

  /**
   * Stamps `updatedAt` and saves the record through the store (atomically, secrets redacted): after every phase, so a
   * crash loses at most the phase that ran.
   */
  async save(): Promise<void> {
    this.state.updatedAt = new Date().toISOString();
    await this.store.save(this.state);
  }

  /** The session as `tdd-agent kata --json` prints it. */
  summary(): SessionSummary {
    const { state } = this;
    const m = state.metrics;
    return {
      status: state.status === 'running' ? 'failed' : state.status,
      kata: state.kata.title,
      branch: state.branch,
      cycles: state.cycles
        .filter((c) => c.outcome !== 'in_progress')
        .map((c) => ({
          n: c.n,
          outcome: c.outcome as CycleOutcome,
          commit: c.commits.refactor ?? c.commits.green ?? null,
          tests: { passed: c.tests?.passed ?? 0, failed: c.tests?.failed ?? 0 },
          ...(c.rolledBackTests
            ? { rolled_back_tests: { passed: c.rolledBackTests.passed, failed: c.rolledBackTests.failed } }
            : {}),
          ...(c.fastRunMs !== undefined ? { fast_run_ms: c.fastRunMs } : {}),
          ...(c.fullRunMs !== undefined ? { full_run_ms: c.fullRunMs } : {}),
          phases: c.phases.map((p) => ({
            role: p.role,
            attempts: p.attempts,
            outcome: p.outcome,
            duration_ms: p.durationMs,
            ...(p.result ?? {}),
          })),
        })),
      session: {
        id: state.id,
        repository: state.git.repository,
        base_branch: state.git.baseBranch,
        base_commit: state.git.baseCommit,
        worktree: state.worktreeKept ? state.git.worktree : null,
        sandbox: state.sandbox ?? 'none',
      },
      totals: {
        cycles: m.cycles,
        commits: m.commits,
        tests_passed: m.testsPassing,
        overshoots: m.overshoots,
        violations: m.violations,
        retries: m.retries,
        reverts: m.reverts,
        tokens: m.tokens.total,
        toolCallsFromText: m.toolCallsFromText,
      },
      ...(state.untestedExamples?.length ? { untested_examples: state.untestedExamples } : {}),
      ...(state.goneRedTests?.length ? { gone_red_tests: state.goneRedTests } : {}),
      ...(state.error ? { error: state.error } : {}),
    };
  }
}
