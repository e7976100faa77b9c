import { AgentError } from '../../errors/agentError';

/** A kata file cannot be read or is invalid; the message names the file and the field. */
export class KataError extends AgentError {
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super('VALIDATION', message, details, options);
    this.name = 'KataError';
  }
}
