import type { PhaseCheckpoint } from '../commits/phaseCheckpoint';
import type { PhaseAttempt as AttemptOf, PhaseSpec as SpecOf } from './phaseContract';
import type { PhaseHost } from './phaseHost';

export type { CycleSoFar, FileRule, PhaseResult, PhaseVerdict } from './phaseContract';

/** A phase as the loop runs it: the public {@link SpecOf | PhaseSpec} given the loop's own host and checkpoints. */
export type PhaseSpec = SpecOf<PhaseHost, PhaseCheckpoint>;

/** An attempt as the loop's own phases judge it, with the loop's checkpoint. */
export type PhaseAttempt = AttemptOf<PhaseCheckpoint>;
