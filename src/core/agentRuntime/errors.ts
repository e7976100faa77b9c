import { AgentError, describeThrown, formatProblemList, type ErrorCode } from '../errors/agentError';
import { withCauses } from './errorCauses';

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

/** What {@link HookError} says about a hook that returned a value of the wrong kind instead of throwing. */
export interface InvalidHookValue {
  /** The value the hook returned. */
  value: unknown;
  /** What the hook point takes, in words (`an object of inputs, or nothing to keep them`). */
  expected: string;
  /** `action` for afterModel, `value` elsewhere. */
  kind?: 'action' | 'value';
}

/**
 * A lifecycle hook threw, or returned something its hook point does not take. The message names the hook and
 * the hook point; for a throw the error code is the one of the thrown error when it was an AgentError (a
 * cancellation inside a hook stays CANCELLED), else UNKNOWN, and `details.causes` lists the thrown error's own
 * causes; for a value of the wrong kind (see {@link InvalidHookValue}) it is CONFIG with the value in
 * `details.value`, so a mistyped `reject` stops the run instead of letting the response through.
 */
export class HookError extends AgentError {
  /** Name of the hook set that threw. */
  readonly hook: string;
  /** Which of the six hook points threw (e.g. `afterModel`). */
  readonly hookPoint: string;

  constructor(hook: string, hookPoint: string, code: ErrorCode, cause: unknown, invalid?: InvalidHookValue) {
    if (invalid) {
      const value = describeValue(invalid.value);
      super(
        'CONFIG',
        `Lifecycle hook "${hook}" returned an invalid ${invalid.kind ?? 'value'} from ${hookPoint}: ${value}. Return ${invalid.expected}.`,
        { hook, hookPoint, value },
      );
    } else {
      const reason = describeThrown(cause);
      super(code, `Lifecycle hook "${hook}" failed in ${hookPoint}: ${reason}`, withCauses({ hook, hookPoint }, cause), {
        cause,
      });
    }
    this.name = 'HookError';
    this.hook = hook;
    this.hookPoint = hookPoint;
  }
}

/** A value as an error message shows it: JSON where it has one (`"continue"`, `{"type":"rejcet"}`), else its kind. */
export function describeValue(value: unknown, max = 200): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'function') text = 'a function';
  else if (typeof value === 'symbol') text = value.toString();
  else if (typeof value === 'bigint') text = `${value}n`;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
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

/**
 * A code signature cannot be used: a field whose type is not a zod type, has no JSON form (`z.date()`,
 * `z.function()`, `z.bigint()`, a `Map`...) or has no description, or a missing name. CONFIG, raised when the
 * signature is created or compiled (never at execute time); each problem names the field (`outputs.at: ...`).
 */
export class SignatureError extends AgentError {
  /** Every problem, each `field: what`. */
  readonly problems: string[];

  constructor(signature: string, problems: readonly string[]) {
    super('CONFIG', formatProblemList(`Invalid signature ${JSON.stringify(signature)}:`, problems), {
      signature,
      problems: [...problems],
    });
    this.name = 'SignatureError';
    this.problems = [...problems];
  }
}
