import { AgentError } from '../errors/agentError';

/**
 * A tool call tried to leave the workspace sandbox: a path outside the workspace root, a write
 * under `.git/`, an unapproved write to a protected path, or a request to a private network
 * address. Code `SANDBOX_VIOLATION`. The message says exactly why and that nothing was changed;
 * paths in it are workspace-relative.
 */
export class SandboxViolationError extends AgentError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('SANDBOX_VIOLATION', message, details);
    this.name = 'SandboxViolationError';
  }
}
