import { AgentError } from '../../errors/agentError';

/** A git operation failed; the message says which and what the repository looks like now. */
export class GitOperationError extends AgentError {
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super('GIT_FAILED', message, details, options);
    this.name = 'GitOperationError';
  }
}
