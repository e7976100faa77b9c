import type { ErrorInfo } from '../errors/agentError';
import type { DangerLevel, ApprovalOutcome } from '../tools/types';
import type { TestRunStatus } from '../testRunners/types';

/** The three TDD roles. */
export const ROLES = ['tester', 'implementer', 'refactorer'] as const;
/** One of {@link ROLES}. */
export type Role = (typeof ROLES)[number];

/** The phase a cycle is in; `DONE` once it has committed or failed. */
export const PHASES = ['TESTING', 'IMPLEMENTING', 'REFACTORING', 'DONE'] as const;
/** One of {@link PHASES}. */
export type Phase = (typeof PHASES)[number];

/** How a session stands: running, or how it ended. */
export const SESSION_STATUSES = ['running', 'completed', 'max_cycles', 'failed', 'cancelled'] as const;
/** One of {@link SESSION_STATUSES}. */
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** How a cycle ended: committed green, rolled back, stopped, or the Tester found nothing left to test. */
export const CYCLE_OUTCOMES = ['green', 'failed', 'cancelled', 'kata_complete'] as const;
/** One of {@link CYCLE_OUTCOMES}. */
export type CycleOutcome = (typeof CYCLE_OUTCOMES)[number];

/**
 * How one role's phase ended: `red` (Tester wrote a failing test), `green` (Implementer made it pass),
 * `refactored` / `no_change` / `skipped` (Refactorer: committed, nothing to do, gave up after red attempts).
 */
export const PHASE_OUTCOMES = ['red', 'green', 'refactored', 'no_change', 'skipped', 'failed', 'cancelled', 'kata_complete'] as const;
/** One of {@link PHASE_OUTCOMES}. */
export type PhaseOutcome = (typeof PHASE_OUTCOMES)[number];

/**
 * Why a role's turn did not succeed: its attempts ran but never reached the phase's goal
 * (`EXECUTION_FAILED`), its last test run was killed at the time limit (`TIMED_OUT`), or the tests passed
 * and a quality gate failed (`QUALITY_GATE_FAILED`).
 */
export const ROLE_ERROR_CODES = ['EXECUTION_FAILED', 'TIMED_OUT', 'QUALITY_GATE_FAILED'] as const;
/** One of {@link ROLE_ERROR_CODES}. */
export type RoleErrorCode = (typeof ROLE_ERROR_CODES)[number];

/** Outcomes after which a role's turn counts as a success. */
export const SUCCESSFUL_PHASE_OUTCOMES: ReadonlySet<PhaseOutcome> = new Set(['red', 'green', 'refactored', 'no_change', 'kata_complete']);

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
  | { type: 'session_started'; kata: string; branch: string; baseBranch: string | null; model: string; provider: string; maxCycles: number; workspace: string; sessionId: string; worktree: string; sandbox: string; resumedFromCycle?: number; /** Tokens the resumed session had already used (absent for a new session). */ resumedTokens?: number }
  | { type: 'cycle_started'; cycle: number }
  | { type: 'phase_changed'; cycle: number; phase: Phase; role?: Role; attempt: number; hint?: string }
  | { type: 'model_called'; cycle: number; role: Role; promptTokens: number; completionTokens: number; latencyMs: number }
  /** A piece of a role's text as the model streams it; `message` numbers the model calls of one turn (attempt). */
  | { type: 'role_text'; cycle: number; role: Role; attempt: number; message: number; delta: string }
  /** A role's whole message of one model call (redacted); `final` for its report (a reply without tool calls). */
  | { type: 'role_message'; cycle: number; role: Role; attempt: number; message: number; text: string; final: boolean }
  | { type: 'tool_called'; cycle: number; role: Role; callId: string; tool: string; params: unknown; ok: boolean; summary: string; approval: ApprovalOutcome; durationMs: number }
  | { type: 'approval_requested'; requestId: string; tool: string; dangerLevel: DangerLevel; params: unknown; expiresAt: number }
  | { type: 'approval_answered'; requestId: string; decision: string }
  | { type: 'test_run_finished'; cycle: number; role: Role | 'baseline'; tests: TestCounts; durationMs: number; reason?: string; /** The command that ran. */ command?: string; /** The runner's output, redacted, at most {@link TEST_RUN_OUTPUT_CHARS} characters (head and tail). */ output?: string }
  | { type: 'overshoot'; cycle: number; attempt: number; reason: string }
  | { type: 'violation'; cycle: number; role: Role; attempt: number; reasons: string[] }
  | { type: 'reverted'; cycle: number; role: Role; reason: string }
  | { type: 'quality_gate_failed'; cycle: number; command: string; output: string }
  | { type: 'commit_made'; cycle: number; sha: string; message: string }
  | { type: 'phase_finished'; cycle: number; role: Role; outcome: PhaseOutcome; attempts: number; durationMs: number }
  | { type: 'cycle_finished'; cycle: number; outcome: CycleOutcome; commit?: string; tests: TestCounts }
  | { type: 'session_finished'; status: SessionStatus; summary: import('./supervisor/sessionSummary').SessionSummary }
  | { type: 'error'; error: ErrorInfo };

/** Receives the supervisor's events in order. */
export type SupervisorEventListener = (event: SupervisorEvent) => void;
