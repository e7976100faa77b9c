import type { TestRunResult } from '../../testRunners/types';
import type { CycleOutcome, PhaseOutcome } from '../sessionVocabulary';
import type { Phase } from '../../vocabulary';
import type { ChangedFile } from '../git/changedFiles';
import type { PhaseCheckpoint } from '../commits/phaseCheckpoint';
import type { FileRefusal, PhaseHost } from './phaseHost';
import type { KataInfo } from './loopSetup';
import type { TurnFiles } from './testRuns';

/**
 * What a phase's judge decides about one attempt: `accept` ends the phase with that outcome, `retry` gives the role
 * another attempt (while it has attempts left) with the hint as the reason, `fail` ends the phase at once.
 */
export type PhaseVerdict =
  { kind: 'accept'; outcome: PhaseOutcome } | { kind: 'retry'; hint: string } | { kind: 'fail'; outcome: PhaseOutcome };

/** One finished attempt of a role, as a judge sees it: what the role said, and what the diff says it did. */
export interface PhaseAttempt {
  /** Which attempt of the phase this was (from 1). */
  attempt: number;
  /** The role's report (its final message); the supervisor reads only its first line, as a label. */
  report: string;
  /** The files the turn changed, from the diff (never from the report), already within the phase's file rule. */
  changes: readonly ChangedFile[];
  /** {@link changes} sorted for a related test run. */
  files: TurnFiles;
  /** The goal probe's run of this same tree, when the turn was probed (see {@link PhaseSpec.probe}). */
  probed?: TestRunResult;
  /** The tree before the turn: `restore()` undoes the turn. */
  checkpoint: PhaseCheckpoint;
}

/** What a cycle's phases have left so far, for the phases after them. */
export interface CycleSoFar {
  /** The cycle's number. */
  readonly n: number;
  /** The behaviour the Tester's red test pins (the subject of the cycle's commit). */
  behaviour?: string;
  /** What the Implementer's report calls its change. */
  label?: string;
  /** The cycle's newest commit. */
  commit?: string;
  /** The Refactorer's commit, when it refactored. */
  refactorCommit?: string;
  /** Why the cycle's green state was not committed although its tests pass (no test of its own): the rollback's reason. */
  rejected?: string;
}

/** How a phase ended: its outcome, the attempts it took, and the last attempt's report. */
export interface PhaseResult {
  outcome: PhaseOutcome;
  attempts: number;
  report: string;
}

/**
 * The files a role may change: a refusal for each change it may not make (none when the turn is within bounds). The
 * supervisor checks it on the diff after every turn, and puts it on the role's agent as a `wrapToolCall` hook that
 * refuses a write outside it before it happens (see `fileRuleHook`).
 */
export type FileRule = (changes: readonly ChangedFile[], kata: KataInfo) => FileRefusal[];

/**
 * One phase of a cycle as data: whose turn it is, which files it may change, how the supervisor judges an attempt
 * (accept / retry with a hint / fail), and what the cycle does after it. Red, green and refactor are three specs
 * (`TDD_PHASES`); a team adds a phase — a Reviewer reading the Refactorer's diff — as one more spec and a role config.
 * `runPhase` runs any of them.
 */
export interface PhaseSpec {
  /** The phase's name (`red`, `green`, `refactor`, `review`). */
  readonly name: string;
  /**
   * Whose turn it is: the agent config's name (`config/agents/<role>/v1.json`). The three TDD roles are reported in
   * the session's events and record; any other role's turns are not (its spec tells what it found its own way, e.g. a
   * Reviewer's callback with its comments), though its model calls count in the session's token totals.
   */
  readonly role: string;
  /** The phase a TDD role's `phase_changed` event shows. */
  readonly phase?: Exclude<Phase, 'DONE'>;
  /** How many attempts the role gets. */
  readonly maxAttempts: number;
  /** The outcome when every attempt was used. */
  readonly exhausted: PhaseOutcome;
  /** Which files the role may change. */
  readonly files: FileRule;
  /** What a file-rule violation undoes: the whole turn (default), or only the paths it names. */
  readonly restoreOnViolation?: 'turn' | 'paths';
  /** Whether the phase runs in this cycle (default: always). */
  when?(cycle: CycleSoFar, host: PhaseHost): boolean;
  /** A section the role's context gets beyond the usual ones (a Reviewer: the diff it reviews). */
  context?(cycle: CycleSoFar, host: PhaseHost): Promise<string | undefined>;
  /**
   * The goal probe, asked after each tool round that may have written files: the tests run as the judge would run
   * them, and whether the turn's goal is reached (which ends the turn; the judge then gets that same run).
   */
  readonly probe?: {
    /** Runs the tests of the turn's changes as the judge would. */
    run(files: TurnFiles, cycle: CycleSoFar, host: PhaseHost): Promise<TestRunResult>;
    /** True when that run says the turn's goal is reached. */
    reached(tests: TestRunResult, host: PhaseHost): boolean;
  };
  /** Judges an attempt within the file rule: accept, retry with a hint, or fail. */
  judge(attempt: PhaseAttempt, cycle: CycleSoFar, host: PhaseHost): Promise<PhaseVerdict>;
  /** After the phase: how the cycle ends now, or nothing to go on to the next phase. */
  settle?(result: PhaseResult, cycle: CycleSoFar, host: PhaseHost): Promise<CycleOutcome | undefined>;
}
