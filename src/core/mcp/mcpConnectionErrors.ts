/** The errors an MCP server connection fails with, worded for the user: which server, what went wrong, its stderr tail. */
import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { formatByteSize } from '../llm/responseSizeLimit';
import type { HttpMessageLimitError } from './boundedHttpFetch';
import type { StdioOutputLimitError } from './boundedStdioTransport';
import { McpServerError } from './errors';

/** What a connection's errors quote, as it is when the error is made. */
export interface McpConnectionFacts {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  /** Its command (stdio) or its URL (HTTP). */
  readonly endpoint: string;
  readonly stderrTail: string;
  /** The HTTP message that crossed the bound, if one did. */
  readonly httpLimit: HttpMessageLimitError | undefined;
  /** The stdio output that crossed a bound, if some did. */
  readonly stdioLimit: StdioOutputLimitError | undefined;
}

/** The step a connection failed in (while connecting or listing tools). */
export type McpConnectionStep = 'connect' | 'list tools';

/** An error's message, or the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stderrNote(stderrTail: string): string {
  const tail = stderrTail.trim();
  return tail ? ` Its stderr ends with: ${tail.slice(-500)}` : '';
}

/** The server closed the connection (`when`: `during startup`, `unexpectedly`...). */
export function closedError(facts: McpConnectionFacts, when: string): McpServerError {
  return new McpServerError(
    'CONNECTION',
    facts.name,
    `MCP server "${facts.name}" closed the connection ${when}.${stderrNote(facts.stderrTail)}`,
    {
      stderr: facts.stderrTail.trim().slice(-1000),
    },
  );
}

/** The error for a server whose output crossed a bound (a stdio child has been killed, HTTP disconnected), if it did. */
export function outputLimitError(facts: McpConnectionFacts): McpServerError | undefined {
  const http = facts.httpLimit;
  if (http) {
    const what = http.kind === 'event' ? 'a server-sent event' : 'a response';
    return new McpServerError(
      'CONNECTION',
      facts.name,
      `MCP server "${facts.name}" (${facts.endpoint}) sent ${what} of more than ${formatByteSize(http.limitBytes)}, far larger than an MCP message should be. It was disconnected.`,
      { reason: `http_${http.kind}_too_large`, limitBytes: http.limitBytes },
    );
  }
  const crossed = facts.stdioLimit;
  if (!crossed) return undefined;
  const limit = formatByteSize(crossed.limitBytes);
  const what =
    crossed.kind === 'line_too_long'
      ? `wrote a line of more than ${limit} to stdout; an MCP stdio server writes one JSON-RPC message per line, so this is not MCP output (or a message far too large)`
      : `wrote more than ${limit} to stdout that is not MCP (one JSON-RPC message per line); servers must write their logs to stderr`;
  return new McpServerError(
    'CONNECTION',
    facts.name,
    `MCP server "${facts.name}" ${what}. It was stopped. Check that "${facts.endpoint}" is an MCP server started in stdio mode.${stderrNote(facts.stderrTail)}`,
    { reason: crossed.kind, limitBytes: crossed.limitBytes, stderr: facts.stderrTail.trim().slice(-1000) },
  );
}

/** What made `step` fail: a bound crossed, a timeout, the connection closed, a command not found, or anything else. */
export function describeFailure(
  facts: McpConnectionFacts,
  error: unknown,
  step: McpConnectionStep,
  timeoutMs: number,
): McpServerError {
  if (error instanceof McpServerError) return error;
  const overLimit = outputLimitError(facts);
  if (overLimit) return overLimit;
  const where = facts.transport === 'stdio' ? `"${facts.endpoint}"` : facts.endpoint;
  if (error instanceof McpError && error.code === (McpErrorCode.RequestTimeout as number)) {
    return new McpServerError(
      'TIMEOUT',
      facts.name,
      `MCP server "${facts.name}" (${where}) did not answer within ${timeoutMs / 1000} s (${step}). Check that it speaks MCP over ${facts.transport}.${stderrNote(facts.stderrTail)}`,
      { step, timeoutMs },
      { cause: error },
    );
  }
  if (error instanceof McpError && error.code === (McpErrorCode.ConnectionClosed as number)) {
    return closedError(facts, step === 'connect' ? 'during startup' : 'while listing tools');
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'EACCES') {
    return new McpServerError(
      'CONNECTION',
      facts.name,
      `MCP server "${facts.name}" could not be started: ${where} (${code}). Check the command and PATH.`,
      {
        step,
      },
      { cause: error },
    );
  }
  return new McpServerError(
    'CONNECTION',
    facts.name,
    `MCP server "${facts.name}" (${where}) failed to ${step}: ${messageOf(error)}${stderrNote(facts.stderrTail)}`,
    { step },
    {
      cause: error,
    },
  );
}
