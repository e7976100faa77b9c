import type { Role } from '../../vocabulary';
import { greenPhase } from './greenPhase';
import type { PhaseSpec } from './phaseContract';
import { redPhase } from './redPhase';
import { refactorPhase } from './refactorPhase';

/**
 * The red-green-refactor cycle as data: the phases a cycle runs in order unless a session is given others (these
 * three, with a team's own appended). Typed as the public {@link PhaseSpec}: what they do with the loop's insides is
 * theirs.
 */
export const TDD_PHASES: readonly PhaseSpec[] = [redPhase, greenPhase, refactorPhase];

/** How many times each TDD role may try within one phase before the supervisor gives up on it. */
export const MAX_ATTEMPTS: Readonly<Record<Role, number>> = {
  tester: redPhase.maxAttempts,
  implementer: greenPhase.maxAttempts,
  refactorer: refactorPhase.maxAttempts,
};
