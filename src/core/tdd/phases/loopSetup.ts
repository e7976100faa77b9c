import type { AgentLifecycle } from '../../agentRuntime/lifecycle';
import type { ProcessSandbox } from '../../osSandbox';
import type { TestRunner } from '../../testRunners/types';
import type { SupervisorEvent } from '../events';
import type { RoleRunner, RoleRunners } from '../roles/roleRunner';
import type { LoopGit } from '../commits/loopGit';
import type { PersonQuestions } from '../roles/personQuestions';
import type { SessionRecorder } from '../session/sessionRecorder';

/** What the loop needs to know about the kata. */
export interface KataInfo {
  title: string;
  slug: string;
  description: string;
  language: string;
  sourceDir: string;
  testDir: string;
  /** True for a task given in plain words (its examples are read from the sentence: see `taskExamples`). */
  task?: boolean;
}

/** What the phases work with: the session's workspace, git, tests, roles and record. */
export interface LoopSetup {
  workspaceRoot: string;
  kata: KataInfo;
  git: LoopGit;
  testRunner: TestRunner;
  roles: RoleRunners;
  /** The runner of a role a team added (a phase whose `role` is none of the three TDD roles, e.g. `reviewer`). */
  runnerFor?: (role: string) => RoleRunner;
  /**
   * Lifecycle hooks put on a role's agent for each of its turns, by role name (`{ implementer: [noConsoleLog] }`): a
   * team's own role rules, as `wrapToolCall` hooks refusing a tool call with the reason. They run after the phase's
   * own file rule (see `fileRuleHook`).
   */
  roleHooks?: Readonly<Record<string, readonly AgentLifecycle[]>>;
  maxCycles: number;
  /** First cycle number (greater than 1 when resuming). */
  firstCycle?: number;
  /** Records every cycle, phase and counter (and persists them). */
  recorder: SessionRecorder;
  qualityGates?: readonly string[];
  /** Confines the quality-gate commands (the test runner carries its own). */
  sandbox?: ProcessSandbox;
  testTimeoutMs: number;
  signal: AbortSignal;
  /** Receives every supervisor event. */
  emit(event: SupervisorEvent): void;
  /** The roles' questions to the person: told whose turn runs, and their answers shown to every later turn. */
  questions?: PersonQuestions;
}
