import type { TestRunResult } from '../../testRunners/types';
import type { CycleOutcome, PhaseOutcome } from '../sessionVocabulary';
import type { Phase } from '../../vocabulary';
import type { ChangedFile } from '../git/changedFiles';
import type { KataInfo } from './loopSetup';
import type { TurnFiles } from './testRuns';

/**
 * What a phase may do with its session, beyond its role's turn: read where and on what the session works, read one of
 * its commits, see its last test run. A phase of your own (`PhaseSpec`) is handed one; the built-in phases work
 * with the loop itself.
 */
export interface PhaseHost {
  /** The session's worktree: where the roles' files are. */
  readonly workspaceRoot: string;
  /** The kata or task the session works on. */
  readonly kata: KataInfo;
  /** Aborted when the session is stopped: a judge that waits on something of its own passes it on. */
  readonly signal: AbortSignal;
  /** The supervisor's last test run in this session (undefined before the first). */
  readonly lastRun: TestRunResult | undefined;
  /** The patch one of the session's commits made (`git show` without its message): what a Reviewer reads. */
  commitDiff(commit: string): Promise<string>;
}

/** The tree as it was before a turn: what it held, and putting it back. */
export interface TurnCheckpoint {
  /** A file's text before the turn (undefined: the turn created it, or it is not text). */
  textBefore(path: string): Promise<string | undefined>;
  /** Undoes the turn's changes (all, or only `paths`); returns the paths it put back. */
  restore(paths?: string[]): Promise<string[]>;
}

/** A change a role may not make: the sentence the role reads, and the path involved (if any). */
export interface FileRefusal {
  message: string;
  path?: string;
}

/**
 * What a phase's judge decides about one attempt: `accept` ends the phase with that outcome, `retry` gives the role
 * another attempt (while it has attempts left) with the hint as the reason, `fail` ends the phase at once.
 */
export type PhaseVerdict =
  { kind: 'accept'; outcome: PhaseOutcome } | { kind: 'retry'; hint: string } | { kind: 'fail'; outcome: PhaseOutcome };

/** One finished attempt of a role, as a judge sees it: what the role said, and what the diff says it did. */
export interface PhaseAttempt<Checkpoint extends TurnCheckpoint = TurnCheckpoint> {
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
  checkpoint: Checkpoint;
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
 * `runPhase` runs any of them. A phase of your own is handed a {@link PhaseHost} (`Host`) and its attempts' checkpoints
 * (`Checkpoint`); the built-in phases are given the loop's own, which do more.
 */
export interface PhaseSpec<Host extends PhaseHost = PhaseHost, Checkpoint extends TurnCheckpoint = TurnCheckpoint> {
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
  when?(cycle: CycleSoFar, host: Host): boolean;
  /** A section the role's context gets beyond the usual ones (a Reviewer: the diff it reviews). */
  context?(cycle: CycleSoFar, host: Host): Promise<string | undefined>;
  /**
   * The goal probe, asked after each tool round that may have written files: the tests run as the judge would run
   * them, and whether the turn's goal is reached (which ends the turn; the judge then gets that same run).
   */
  readonly probe?: {
    /** Runs the tests of the turn's changes as the judge would. */
    run(files: TurnFiles, cycle: CycleSoFar, host: Host): Promise<TestRunResult>;
    /** True when that run says the turn's goal is reached. */
    reached(tests: TestRunResult, host: Host): boolean;
  };
  /** Judges an attempt within the file rule: accept, retry with a hint, or fail. */
  judge(attempt: PhaseAttempt<Checkpoint>, cycle: CycleSoFar, host: Host): Promise<PhaseVerdict>;
  /** After the phase: how the cycle ends now, or nothing to go on to the next phase. */
  settle?(result: PhaseResult, cycle: CycleSoFar, host: Host): Promise<CycleOutcome | undefined>;
}
