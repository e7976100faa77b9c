import { AgentError, type ErrorCode } from '../errors/agentError';

/**
 * A tool could not be registered: a duplicate name, a name OpenAI would reject
 * (`^[a-zA-Z0-9_-]{1,64}$`), or an unknown category or danger level. Code `CONFIG`.
 */
export class ToolRegistrationError extends AgentError {
  /** The offending tool name, as given. */
  readonly toolName: string;

  constructor(toolName: string, message: string, details: Record<string, unknown> = {}) {
    super('CONFIG', message, { ...details, toolName });
    this.name = 'ToolRegistrationError';
    this.toolName = toolName;
  }
}

/**
 * One tool call went wrong in a way the model should hear about (unknown tool, malformed JSON,
 * invalid parameters, denial, timeout). The executor turns it into an ok=false ToolCallResult;
 * it is thrown only by APIs outside the model loop (e.g. `ToolRegistry.require`).
 */
export class ToolCallError extends AgentError {
  /** The tool the call named. */
  readonly toolName: string;

  constructor(code: ErrorCode, toolName: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { ...details, toolName });
    this.name = 'ToolCallError';
    this.toolName = toolName;
  }
}
