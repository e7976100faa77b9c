import type { Role } from '../events';

/** One turn of one role: the context message it reads, and the budget it works within. */
export interface RoleTurn {
  role: Role;
  cycle: number;
  attempt: number;
  /** The user message built by `buildRoleContext`. */
  context: string;
  signal: AbortSignal;
}

/** What a turn produced: the role's report. */
export interface RoleTurnResult {
  /** The role's final message (no tool call). The supervisor reads only its first line, as a label. */
  report: string;
}

/** Runs a role's turn. The real one is an agent working through tools; the supervisor only needs this. */
export interface RoleRunner {
  /** Plays one turn; rejects only when the turn could not run (cancelled, provider error). */
  runTurn(turn: RoleTurn): Promise<RoleTurnResult>;
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
