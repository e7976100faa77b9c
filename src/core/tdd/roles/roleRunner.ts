import type { AgentLifecycle } from '../../agentRuntime/lifecycle';
import { ROLES, type Role } from '../../vocabulary';

/** One turn of one role: the context message it reads, and the budget it works within. */
export interface RoleTurn {
  /** One of the TDD roles, or a role a team added (a phase's `role`, e.g. `reviewer`). */
  role: string;
  cycle: number;
  attempt: number;
  /** The user message built by `buildRoleContext`. */
  context: string;
  signal: AbortSignal;
  /**
   * Asked after each round of tool calls that may have changed files: true when the supervisor sees the turn's goal
   * reached (the Tester's new test fails as required, the Implementer's tests pass), which ends the turn without
   * asking the model for a report.
   */
  goalReached?: () => Promise<boolean>;
  /**
   * Lifecycle hooks for the role's agent in this turn: the phase's file rule as a `wrapToolCall` hook (refusing a
   * write outside the role's files before it happens) and a team's own rules. A runner without an agent may ignore
   * them: the supervisor checks the diff after every turn either way.
   */
  hooks?: readonly AgentLifecycle[];
}

/** What a turn produced: the role's report, and whether the turn ended because its goal was reached. */
export interface RoleTurnResult {
  /**
   * The role's final message (no tool call), or the text of its last message when the goal ended the turn (often
   * empty: the report is optional). The supervisor reads only its first line, as a label.
   */
  report: string;
  /** True when `goalReached` ended the turn right after a tool round (the supervisor's last test run judged it). */
  goalReached?: boolean;
}

/** Runs a role's turn. The real one is an agent working through tools; the supervisor only needs this. */
export interface RoleRunner {
  /** Plays one turn; rejects only when the turn could not run (cancelled, provider error). */
  runTurn(turn: RoleTurn): Promise<RoleTurnResult>;
  /** Tokens the role's context may give to files and the repository map (its config's `context_tokens`). */
  contextTokens?(): Promise<number | undefined>;
}

/** One runner per role. */
export type RoleRunners = Record<Role, RoleRunner>;

/** The first non-empty line of a report, trimmed to a commit-message-sized label. */
export function reportLabel(report: string, fallback: string): string {
  const line = report
    .split('\n')
    .map((l) => l.replace(/^[#*\-\s>`]+/, '').trim())
    .find((l) => l.length > 0);
  const label = (line ?? fallback).replace(/\s+/g, ' ');
  return label.length > 72 ? `${label.slice(0, 69)}...` : label;
}

/** True for a TDD role (the session's vocabulary: events and records name it); false for a role a team added. */
export function isTddRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}
