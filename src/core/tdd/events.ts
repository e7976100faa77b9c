import type { ErrorInfo } from '../errors/agentError';
import type { ProjectProfile } from '../project/projectProfile';
import type { ApprovalOutcome, Phase, Role, SessionStatus } from '../vocabulary';
import type { TestCaseResult, TestRunScope, TestRunStatus } from '../testRunners/types';
import type { CycleOutcome, PhaseOutcome, QuestionOutcome } from './sessionVocabulary';
import type { SessionSummary } from './sessionSummary';

/** The counts of one test run, as the supervisor saw them. */
export interface TestCounts {
  status: TestRunStatus;
  passed: number;
  failed: number;
  total: number;
}

/** Longest runner output a `test_run_finished` event carries (its head and tail are kept). */
export const TEST_RUN_OUTPUT_CHARS = 20_000;

/**
 * Everything the supervisor tells the outside world, in order. The CLI prints these as lines,
 * the VS Code panel folds them into its view model. Plain JSON values only.
 */
export type SupervisorEvent =
  | {
      type: 'session_started';
      kata: string;
      branch: string;
      baseBranch: string | null;
      model: string;
      provider: string;
      maxCycles: number;
      workspace: string;
      sessionId: string;
      worktree: string;
      sandbox: string;
      /** A bound the sandbox cannot set on this host, said once before the first run (no process limit here). */
      sandboxNotice?: string;
      resumedFromCycle?: number;
      /** Tokens the resumed session had already used (absent for a new session). */ resumedTokens?: number;
    }
  /**
   * The project the session works in, before the first turn: language, package manager or interpreter, test runner
   * and the command that runs, test file patterns, source and test folders, and where each came from
   * (`profile.fields`). `scaffolded`: the folder had no manifest and the session wrote a minimal project;
   * `task`: the session runs a task given in plain words rather than a kata file.
   */
  | { type: 'project_profile'; profile: ProjectProfile; scaffolded: boolean; task: boolean }
  | { type: 'cycle_started'; cycle: number }
  | { type: 'phase_changed'; cycle: number; phase: Phase; role?: Role; attempt: number; hint?: string }
  | {
      type: 'model_called';
      cycle: number;
      role: Role;
      promptTokens: number;
      completionTokens: number;
      latencyMs: number;
      /** Tool calls the model wrote into its text and the client read from there (absent: none). */
      toolCallsFromText?: number;
    }
  /** A piece of a role's text as the model streams it; `message` numbers the model calls of one turn (attempt). */
  | { type: 'role_text'; cycle: number; role: Role; attempt: number; message: number; delta: string }
  /** A role's whole message of one model call (redacted); `final` for its report (a reply without tool calls). */
  | { type: 'role_message'; cycle: number; role: Role; attempt: number; message: number; text: string; final: boolean }
  | {
      type: 'tool_called';
      cycle: number;
      role: Role;
      callId: string;
      tool: string;
      params: unknown;
      ok: boolean;
      summary: string;
      approval: ApprovalOutcome;
      durationMs: number;
    }
  | {
      type: 'test_run_finished';
      cycle: number;
      role: Role | 'baseline';
      tests: TestCounts;
      durationMs: number;
      reason?: string;
      /**
       * Which tests ran: `related` — during a phase, the changed and new test files first (and, for jest and vitest,
       * the tests of the changed production files), the fast signal — or `full`, the whole suite (the baseline, the
       * run before every commit, and whenever the command cannot be narrowed). Absent in older records: full.
       */
      scope?: TestRunScope;
      /** For a `related` run: the files given to the runner, workspace-relative. */
      files?: string[];
      /** A related run was asked for but the test command could not be narrowed: why the whole suite ran instead. */
      fullRunReason?: string;
      /** The command that ran. */ command?: string;
      /** The runner's output, redacted, at most `TEST_RUN_OUTPUT_CHARS` characters (head and tail). */ output?: string;
      /**
       * Each test's result (the run's `tests`, names and messages redacted), when the runner's report could be read;
       * absent otherwise (then only `output` says which tests ran). The Testing view prefers it to parsing `output`.
       */
      testCases?: TestCaseResult[];
    }
  | { type: 'overshoot'; cycle: number; attempt: number; reason: string }
  | { type: 'violation'; cycle: number; role: Role; attempt: number; reasons: string[] }
  | { type: 'reverted'; cycle: number; role: Role; reason: string }
  | { type: 'quality_gate_failed'; cycle: number; command: string; output: string }
  /**
   * Protected paths (`.github/`, `.vscode/`, `.husky/`, `.npmrc`, `.env*`, …: see `protectedPaths.ts`) changed without
   * a tool call a person approved — a generated test or command wrote them — and were put back as the last commit has
   * them before committing. `paths` lists at most 50 of the `count`; `role` is the role whose phase was committed.
   */
  | { type: 'protected_paths_reverted'; cycle: number; role: Role; paths: string[]; count: number; reason: string }
  /**
   * Tests that already failed at the baseline run, before any role's turn (`file › full name`): set aside, never
   * blamed on a role, and not required to pass for green.
   */
  | { type: 'known_failures'; cycle: number; tests: string[] }
  /**
   * A role asked the person a question (`ask_person`) and the answer came, or did not: `declined` when no one can
   * answer (`--yes`, no terminal), `timeout`, `cancelled`. Question and answer redacted.
   */
  | {
      type: 'person_question';
      cycle: number;
      role: Role;
      question: string;
      outcome: QuestionOutcome;
      answer?: string;
      answeredBy?: string;
    }
  /**
   * Tests that were red in this session (a cycle's Tester made them fail) and are gone from a later run: their cycle was
   * rolled back and no test took their place under the same name, or their name changed. `tests`: `file › name (red in
   * cycle k)`. The session does not end `completed` over them (see `SessionSummary.gone_red_tests`).
   */
  | { type: 'red_tests_gone'; cycle: number; tests: string[] }
  | { type: 'commit_made'; cycle: number; sha: string; message: string }
  | { type: 'phase_finished'; cycle: number; role: Role; outcome: PhaseOutcome; attempts: number; durationMs: number }
  /**
   * A cycle ended. `tests`: the counts of the state it ended at, which is where the session stands — a failed or
   * cancelled cycle's tree was rolled back, so the last commit's counts (the baseline's before any commit).
   * `rolledBackTests`: when the cycle's tree was rolled back, the counts it had reached before (its red run), which
   * are no longer in the branch; absent otherwise.
   */
  | {
      type: 'cycle_finished';
      cycle: number;
      outcome: CycleOutcome;
      commit?: string;
      tests: TestCounts;
      rolledBackTests?: TestCounts;
    }
  | { type: 'session_finished'; status: SessionStatus; summary: SessionSummary }
  | { type: 'error'; error: ErrorInfo };

/** Receives the supervisor's events in order. */
export type SupervisorEventListener = (event: SupervisorEvent) => void;
