import { AgentError, type ErrorCode } from '../errors/agentError';

/**
 * An MCP server could not be used: invalid configuration (CONFIG), could not start or closed
 * the connection (CONNECTION), or did not answer in time (TIMEOUT). The message names the
 * server and, for a crash, ends with the tail of its stderr.
 */
export class McpServerError extends AgentError {
  /** The configured server name. */
  readonly server: string;

  constructor(
    code: ErrorCode,
    server: string,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, { ...details, server }, options);
    this.name = 'McpServerError';
    this.server = server;
  }
}

/** An MCP tool reported an error (`isError`) or its call failed. Code TOOL_FAILED, TIMEOUT or CANCELLED. */
export class McpToolError extends AgentError {
  /** The configured server name. */
  readonly server: string;
  /** The tool's name on the server (not prefixed). */
  readonly tool: string;

  constructor(code: ErrorCode, server: string, tool: string, message: string, options?: { cause?: unknown }) {
    super(code, message, { server, tool }, options);
    this.name = 'McpToolError';
    this.server = server;
    this.tool = tool;
  }
}
