import { ROLE_TITLES } from '../../vocabulary';
import { describeViolations } from '../boundaries';
import type { PhaseCheckpoint } from '../commits/phaseCheckpoint';
import { runQualityGates, type GateFailure } from '../judging/qualityGates';
import { SessionCommits } from '../commits/sessionCommits';
import { isTddRole } from '../roles/roleRunner';
import type { TestRunResult } from '../../testRunners/types';
import type { LoopState } from './loopState';
import type { LoopSetup, KataInfo } from './loopSetup';
import type { FileRefusal, PhaseHost as PublicPhaseHost } from './phaseContract';
import { TestRuns } from './testRuns';

export type { FileRefusal } from './phaseContract';

/** A role as a person names it, in messages: `Tester`, or a team's role by its name (`reviewer` → `Reviewer`). */
export function roleTitle(role: string): string {
  return isTddRole(role) ? ROLE_TITLES[role] : role.charAt(0).toUpperCase() + role.slice(1);
}

/**
 * What the built-in phases work with: the loop's setup and state, the supervisor's test runs, the session's commits,
 * and the reactions every phase shares (a role-rule violation undone and told to the role, the quality gates on a
 * green tree). A phase of a team's sees only the public host it implements.
 */
export class PhaseHost implements PublicPhaseHost {
  /** The supervisor's own test runs. */
  readonly tests: TestRuns;
  /** Checkpoints, rollbacks and commits of the session's tree. */
  readonly commits: SessionCommits;

  constructor(
    /** The session's workspace, git, tests, roles and record. */
    readonly setup: LoopSetup,
    /** What the loop knows between turns. */
    readonly state: LoopState,
    approvedProtectedChange?: (path: string) => Promise<boolean>,
  ) {
    this.tests = new TestRuns(setup, state);
    this.commits = new SessionCommits({ ...setup, approvedProtectedChange }, state);
  }

  get workspaceRoot(): string {
    return this.setup.workspaceRoot;
  }

  get kata(): KataInfo {
    return this.setup.kata;
  }

  get signal(): AbortSignal {
    return this.setup.signal;
  }

  get lastRun(): TestRunResult | undefined {
    return this.state.lastRun;
  }

  async commitDiff(commit: string): Promise<string> {
    return (await this.setup.git.commitDiff?.(commit)) ?? '';
  }

  /**
   * Counts and reports a role violation (a TDD role's; a team's role is only told), undoes the offending changes (or
   * only `paths`), and returns the hint for the retry.
   */
  async violation(
    n: number,
    role: string,
    attempt: number,
    violations: readonly FileRefusal[],
    checkpoint: PhaseCheckpoint,
    paths?: string[],
  ): Promise<string> {
    if (isTddRole(role)) {
      this.setup.recorder.count('violations', role);
      this.setup.emit({ type: 'violation', cycle: n, role, attempt, reasons: violations.map((v) => v.message) });
    }
    await checkpoint.restore(paths);
    return describeViolations(violations, paths);
  }

  /** Runs the quality gates on a green tree; a failure is reported as an event and returned. */
  async qualityGates(n: number): Promise<GateFailure | undefined> {
    const gate = await runQualityGates(this.setup.qualityGates ?? [], this.setup.workspaceRoot, {
      timeoutMs: this.setup.testTimeoutMs,
      signal: this.setup.signal,
      sandbox: this.setup.sandbox,
    });
    if (gate) this.setup.emit({ type: 'quality_gate_failed', cycle: n, command: gate.command, output: gate.output });
    return gate;
  }
}
