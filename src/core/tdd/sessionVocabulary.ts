// The words of a TDD session (roles, phases, outcomes, statuses) as constants and types. A leaf of
// `tdd/`: `events.ts` and `supervisor/sessionSummary.ts` both build on it, so neither imports the other's values.
import type { ErrorCode } from '../errors/agentError';

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
export const PHASE_OUTCOMES = [
  'red',
  'green',
  'refactored',
  'no_change',
  'skipped',
  'failed',
  'cancelled',
  'kata_complete',
] as const;
/** One of {@link PHASE_OUTCOMES}. */
export type PhaseOutcome = (typeof PHASE_OUTCOMES)[number];

/**
 * Why a role's turn did not succeed, as error codes of the one list (`ERROR_CODES`): its attempts ran but
 * never reached the phase's goal (`EXECUTION_FAILED`), its last test run was killed at the time limit
 * (`TIMEOUT`), or the tests passed and a quality gate failed (`QUALITY_GATE_FAILED`).
 */
export const ROLE_ERROR_CODES = ['EXECUTION_FAILED', 'TIMEOUT', 'QUALITY_GATE_FAILED'] as const satisfies readonly ErrorCode[];
/** One of {@link ROLE_ERROR_CODES}. */
export type RoleErrorCode = (typeof ROLE_ERROR_CODES)[number];

/** Outcomes after which a role's turn counts as a success. */
export const SUCCESSFUL_PHASE_OUTCOMES: ReadonlySet<PhaseOutcome> = new Set([
  'red',
  'green',
  'refactored',
  'no_change',
  'kata_complete',
]);

/** A role as a person names it, in messages. */
export const ROLE_TITLES: Readonly<Record<Role, string>> = {
  tester: 'Tester',
  implementer: 'Implementer',
  refactorer: 'Refactorer',
};

/**
 * What came of a role's question to the person: `answered`, `declined` (no one can answer: `--yes`, no terminal),
 * `timeout`, `cancelled` (the session stopped).
 */
export const QUESTION_OUTCOMES = ['answered', 'declined', 'timeout', 'cancelled'] as const;
/** One of {@link QUESTION_OUTCOMES}. */
export type QuestionOutcome = (typeof QUESTION_OUTCOMES)[number];
