// The words of a TDD session's outcomes as constants and types. A leaf of `tdd/`: `events.ts` and
// `sessionSummary.ts` both build on it, so neither imports the other's values. The words the CLI and the panel share
// too (roles, phases and their labels, session statuses) are declared once in `core/vocabulary`, and imported from
// there.
import type { ErrorCode } from '../vocabulary';

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

/**
 * What came of a role's question to the person: `answered`, `declined` (no one can answer: `--yes`, no terminal),
 * `timeout`, `cancelled` (the session stopped).
 */
export const QUESTION_OUTCOMES = ['answered', 'declined', 'timeout', 'cancelled'] as const;
/** One of {@link QUESTION_OUTCOMES}. */
export type QuestionOutcome = (typeof QUESTION_OUTCOMES)[number];
