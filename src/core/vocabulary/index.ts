// The words every part of tdd-agent shares, each declared once: danger levels, approval outcomes and decisions,
// the TDD roles, phases, their labels and the session statuses, and the error codes. The core, the CLI, the
// extension host and the panel (webview) all import them from here. This module imports nothing at all (not even
// a type), so any folder of the core may import it and the browser bundle can take it as it is.

/** How much harm a tool call can do, lowest first: reads, scratch changes, file writes, commands, outside the workspace. */
export const DANGER_LEVELS = ['SAFE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
/** One of {@link DANGER_LEVELS}. */
export type DangerLevel = (typeof DANGER_LEVELS)[number];

/** Orders danger levels: `dangerRank('HIGH') > dangerRank('MEDIUM')`. */
export function dangerRank(level: DangerLevel): number {
  return DANGER_LEVELS.indexOf(level);
}

/**
 * How a call was approved or refused: `auto` by policy or `--yes`, `approved` / `always` by a person,
 * `denied` by a person (or no one to ask), `timeout` when nobody answered, `policy_denied` by a `deny` rule.
 */
export const APPROVAL_OUTCOMES = ['auto', 'approved', 'always', 'denied', 'timeout', 'policy_denied'] as const;
/** One of {@link APPROVAL_OUTCOMES}. */
export type ApprovalOutcome = (typeof APPROVAL_OUTCOMES)[number];

/** A person's decision on an approval request: approve once, deny, or always allow this tool for the session. */
export const APPROVAL_DECISIONS = ['approve', 'deny', 'always'] as const;
/** One of {@link APPROVAL_DECISIONS}. */
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];
/**
 * The languages a session works in (a kata's, a project's, the eval's): one list, so adding a language is adding it
 * here and giving it its rows (docs/extending.md, "A new language").
 */
export const LANGUAGES = ['javascript', 'typescript', 'python', 'go', 'rust', 'java', 'php', 'ruby'] as const;
/** One of {@link LANGUAGES}. */
export type Language = (typeof LANGUAGES)[number];
/** True for a supported language name. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
/** The languages in words, for messages and help: "javascript, typescript, python or go". */
export function languagesInWords(): string {
  return `${LANGUAGES.slice(0, -1).join(', ')} or ${LANGUAGES[LANGUAGES.length - 1]}`;
}

/**
 * The sandbox's modes (`--sandbox`, the `tddAgent.sandbox` setting): `auto` runs every test run, gate and command of a
 * session in the OS sandbox and refuses to start without one; `off` runs them unconfined, the person's explicit choice.
 */
export const SANDBOX_MODES = ['auto', 'off'] as const;
/** One of {@link SANDBOX_MODES}. */
export type SandboxMode = (typeof SANDBOX_MODES)[number];
/** True for a sandbox mode. */
export function isSandboxMode(value: unknown): value is SandboxMode {
  return typeof value === 'string' && (SANDBOX_MODES as readonly string[]).includes(value);
}

/** The three TDD roles. */
export const ROLES = ['tester', 'implementer', 'refactorer'] as const;
/** One of {@link ROLES}. */
export type Role = (typeof ROLES)[number];

/** A role as a person names it, in messages and in the panel. */
export const ROLE_TITLES: Readonly<Record<Role, string>> = {
  tester: 'Tester',
  implementer: 'Implementer',
  refactorer: 'Refactorer',
};

/** The phase a cycle is in; `DONE` once it has committed or failed. */
export const PHASES = ['TESTING', 'IMPLEMENTING', 'REFACTORING', 'DONE'] as const;
/** One of {@link PHASES}. */
export type Phase = (typeof PHASES)[number];

/** A phase in words (see {@link PHASE_LABELS}). */
export interface PhaseLabel {
  /** The role whose turn the phase is; none for `DONE`. */
  role?: Role;
  /** The TDD step: `red`, `green`, `refactor`, or `done`. */
  step: string;
  /** What the role is doing, to follow "The Tester is": `writing a failing test`. */
  doing: string;
}

/**
 * Each phase in words, for the CLI's progress lines (`red: Tester`), the status bar (`green`), the progress
 * notification and the panel's header (`Implementer is making it pass`).
 */
export const PHASE_LABELS: Readonly<Record<Phase, PhaseLabel>> = {
  TESTING: { role: 'tester', step: 'red', doing: 'writing a failing test' },
  IMPLEMENTING: { role: 'implementer', step: 'green', doing: 'making it pass' },
  REFACTORING: { role: 'refactorer', step: 'refactor', doing: 'tidying up' },
  DONE: { step: 'done', doing: 'done' },
};

/**
 * How a session stands: running, or how it ended. `completed`: the Tester found nothing left to test and the supervisor
 * agreed (every stated example has a test, no test that was red in the session is gone); `incomplete`: the Tester said
 * so, but the supervisor did not agree (it asked once more); `max_cycles`: the cycle limit was reached on a green cycle.
 */
export const SESSION_STATUSES = ['running', 'completed', 'incomplete', 'max_cycles', 'failed', 'cancelled'] as const;
/** One of {@link SESSION_STATUSES}. */
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/**
 * How a recorded session stands, as a person reads it: its {@link SESSION_STATUSES} status, except that a record still
 * saying `running` whose process is gone (it was killed, or the window that ran it was reloaded) was `interrupted`.
 */
export const RECORDED_SESSION_STATUSES = [...SESSION_STATUSES, 'interrupted'] as const;
/** One of {@link RECORDED_SESSION_STATUSES}. */
export type RecordedSessionStatus = (typeof RECORDED_SESSION_STATUSES)[number];

/**
 * Every error code there is: the one taxonomy of failures. The core's errors, a role's failed turn, the CLI and
 * the VS Code extension all name what went wrong with one of these, so the CLI, the panel and the audit trail can
 * switch on `error_code` without guessing. The code is the kind; an error class (a subclass of `AgentError`)
 * only says where the error came from and carries its own fields, and always sets one code from this list.
 */
export const ERROR_CODES = [
  // model provider (TIMEOUT is also any other deadline: a tool call, a test run, an HTTP request)
  'AUTH',
  'RATE_LIMIT',
  'TIMEOUT',
  'CONNECTION',
  'INVALID_REQUEST',
  'CONTEXT_LENGTH',
  'RESPONSE_TOO_LARGE',
  'PROVIDER_NOT_CONFIGURED',
  // agents
  'CONFIG',
  'VALIDATION',
  'OUTPUT_VALIDATION_FAILED',
  'HOOK_REJECTED',
  // tools
  'TOOL_NOT_FOUND',
  'TOOL_DENIED',
  'SANDBOX_VIOLATION',
  'SANDBOX_UNAVAILABLE',
  'TOOL_FAILED',
  // a role's turn: its attempts never reached the phase's goal, or the tests passed and a quality gate failed
  'EXECUTION_FAILED',
  'QUALITY_GATE_FAILED',
  // sessions
  'KATA_NOT_APPROVED',
  'REPLAY_DIVERGED',
  'GIT_FAILED',
  'SESSION_STATE_INVALID',
  'GREEN_NOT_REACHED',
  'NOTHING_TO_COMMIT',
  // the Tester ended the session with stated examples that no test checks, or a test that was red in it is gone
  'INCOMPLETE',
  // the front ends: a command line the CLI cannot read; what the VS Code extension refuses before a session starts
  'USAGE',
  'UNTRUSTED_WORKSPACE',
  'NO_WORKSPACE',
  'NO_SELECTION',
  'SESSION_RUNNING',
  // generic
  'CANCELLED',
  'UNKNOWN',
] as const;
/** One of {@link ERROR_CODES}: the stable, machine-readable kind of an `AgentError`. */
export type ErrorCode = (typeof ERROR_CODES)[number];
