import { AgentError, describeThrown, formatProblemList, type ErrorCode } from '../errors/agentError';

/** A lifecycle hook rejected the run (`afterModel` returned `HookAction.reject(reason)`). */
export class HookRejectedError extends AgentError {
  /** Name of the hook set that rejected. */
  readonly hook: string;
  /** The reason the hook gave. */
  readonly reason: string;

  constructor(hook: string, reason: string, details: Record<string, unknown> = {}) {
    super('HOOK_REJECTED', `Lifecycle hook "${hook}" rejected the run: ${reason}`, { ...details, hook, reason });
    this.name = 'HookRejectedError';
    this.hook = hook;
    this.reason = reason;
  }
}

/**
 * A lifecycle hook threw. The message names the hook and the hook point; the error code is the one of
 * the thrown error when it was an AgentError (a cancellation inside a hook stays CANCELLED), else UNKNOWN.
 */
export class HookError extends AgentError {
  /** Name of the hook set that threw. */
  readonly hook: string;
  /** Which of the six hook points threw (e.g. `afterModel`). */
  readonly hookPoint: string;

  constructor(hook: string, hookPoint: string, code: ErrorCode, cause: unknown) {
    const reason = describeThrown(cause);
    super(code, `Lifecycle hook "${hook}" failed in ${hookPoint}: ${reason}`, { hook, hookPoint }, { cause });
    this.name = 'HookError';
    this.hook = hook;
    this.hookPoint = hookPoint;
  }
}

/**
 * The model's output did not match the agent's output schema, also after the bounded repair attempts.
 * `violations` lists each problem as `path: what`.
 */
export class OutputValidationError extends AgentError {
  /** Every violation of the last attempt. */
  readonly violations: string[];

  constructor(message: string, violations: readonly string[], details: Record<string, unknown> = {}) {
    super('OUTPUT_VALIDATION_FAILED', formatProblemList(message, violations), {
      ...details,
      violations: [...violations],
    });
    this.name = 'OutputValidationError';
    this.violations = [...violations];
  }
}

/** An agent setting is invalid or two settings conflict; the message names the field(s). */
export class AgentSettingsError extends AgentError {
  /** Every problem, each `field: what`. */
  readonly problems: string[];

  constructor(problems: readonly string[], details: Record<string, unknown> = {}) {
    super('CONFIG', formatProblemList('Invalid agent settings:', problems), {
      ...details,
      problems: [...problems],
    });
    this.name = 'AgentSettingsError';
    this.problems = [...problems];
  }
}

/** The inputs given to `execute` are unusable (e.g. an empty question); raised before any model call. */
export class AgentInputError extends AgentError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('VALIDATION', message, details);
    this.name = 'AgentInputError';
  }
}
