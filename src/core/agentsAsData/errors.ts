import { AgentError, formatProblemList } from '../errors/agentError';

/**
 * An agent config file exists but cannot be used: every problem found (missing keys, a name or version that
 * does not match the path, an invalid mode, enums inconsistent with the output schema, bad JSON with its line,
 * input keys missing from the payload) is listed in the message and in `details.problems`.
 */
export class AgentConfigError extends AgentError {
  /** Every problem found, each a short `where: what` line. */
  readonly problems: string[];

  constructor(
    headline: string,
    problems: readonly string[],
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super('CONFIG', formatProblemList(headline, problems), { ...details, problems: [...problems] }, options);
    this.name = 'AgentConfigError';
    this.problems = [...problems];
  }
}

/** No config file exists for the requested agent name and version; the message lists what does exist. */
export class UnknownAgentConfigError extends AgentError {
  constructor(message: string, details: Record<string, unknown>) {
    super('CONFIG', message, details);
    this.name = 'UnknownAgentConfigError';
  }
}

/**
 * The model's output does not satisfy the agent's output schema (or is not JSON at all). Every violation is
 * listed by path, e.g. `answer: required` or `confidence: expected number, got string`.
 */
export class AgentPromptValidationError extends AgentError {
  /** Every violation found, each a `path: what` line. */
  readonly violations: string[];

  constructor(
    headline: string,
    violations: readonly string[],
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(
      'OUTPUT_VALIDATION_FAILED',
      formatProblemList(headline, violations),
      { ...details, violations: [...violations] },
      options,
    );
    this.name = 'AgentPromptValidationError';
    this.violations = [...violations];
  }
}
