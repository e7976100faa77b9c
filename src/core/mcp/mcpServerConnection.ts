/** One MCP server connection: its options and state, and connecting, listing and calling tools, closing. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Listeners } from '../control/transport';
import { getLogger, type Logger } from '../logging/logger';
import { redactSecrets, registerSecret } from '../security/redact';
import type { ToolOutput } from '../tools/types';
import type { BoundedStdioTransport } from './boundedStdioTransport';
import type { HttpMessageLimitError } from './boundedHttpFetch';
import type { McpServerConfig } from './config';
import { closedError, describeFailure, messageOf, outputLimitError, type McpConnectionFacts } from './mcpConnectionErrors';
import { createMcpTransport, delay, stopStdioChild } from './mcpTransport';
import { McpServerError, McpToolError } from './errors';
import { mcpResultToOutput, type McpCallResult } from './toolResult';

/** Default time to connect and list tools. */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 10_000;
/** Default longest MCP tool call (the executor's own timeout usually ends it first). */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 5 * 60_000;

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** Where a connection is in its life. */
export type McpConnectionState = 'idle' | 'connecting' | 'connected' | 'failed' | 'closed';

/** Options of an McpServerConnection. */
export interface McpServerConnectionOptions {
  logger?: Logger;
  /** How long to wait for a stdio server to exit after its stdin closes before killing it (default 500 ms). */
  closeGraceMs?: number;
  /** Client name/version sent in `initialize`. */
  clientInfo?: { name: string; version: string };
  /** Longest stdout line (one JSON-RPC message) a stdio server may write, in bytes (default 4 MB). */
  maxStdoutLineBytes?: number;
  /** Total bytes of stdout lines that are not JSON-RPC a stdio server may write before it is stopped (default 1 MB). */
  maxNonProtocolBytes?: number;
  /** Longest JSON response, or event of an event stream, an HTTP server may send, in bytes (default 4 MB, as a stdio line). */
  maxHttpMessageBytes?: number;
}

const SECRET_NAME = /key|token|secret|password|passwd|auth|cookie|credential/i;
const STDERR_TAIL = 4000;

/**
 * One MCP server: starts it (stdio child process) or reaches it (streamable HTTP) with the
 * official SDK client, lists its tools and calls them. Failures become McpServerError with the
 * server's name and stderr tail; a server that dies later moves to `failed` and tells its
 * `onFailure` listeners (the hub then unregisters its tools). `close()` leaves no child behind.
 * A stdio server's stdout is read with bounds (see `BoundedStdioTransport`): an over-long line or
 * too much output that is not MCP fails the connection at once and the child is killed. An HTTP server's
 * responses are bounded the same way (see `boundedMessageFetch`): one message past the bound fails the connection
 * at once and closes it.
 */
export class McpServerConnection {
  private client: Client | undefined;
  private stderrTail = '';
  private stateValue: McpConnectionState = 'idle';
  private errorValue: McpServerError | undefined;
  private closing = false;
  private exited: Promise<void> = Promise.resolve();
  private markExited: () => void = () => undefined;
  private readonly failureListeners = new Listeners<McpServerError>();
  private readonly logger: Logger;
  private childPid: number | undefined;
  private stdio: BoundedStdioTransport | undefined;
  private httpLimit: HttpMessageLimitError | undefined;

  constructor(
    readonly config: McpServerConfig,
    private readonly options: McpServerConnectionOptions = {},
  ) {
    this.logger = options.logger ?? getLogger(`mcp.${config.name}`);
    // Secret-looking env values and headers (tokens) must never reach logs or errors.
    const values = config.transport === 'stdio' ? config.env : config.headers;
    for (const [key, value] of Object.entries(values ?? {})) if (SECRET_NAME.test(key)) registerSecret(value);
  }

  /** The configured name. */
  get name(): string {
    return this.config.name;
  }

  /** Current state. */
  get state(): McpConnectionState {
    return this.stateValue;
  }

  /** The error that made the connection fail, if it did. */
  get error(): McpServerError | undefined {
    return this.errorValue;
  }

  /** What errors quote, as it is now; the server is named by its command (stdio) or its URL (HTTP). */
  private get facts(): McpConnectionFacts {
    const config = this.config;
    return {
      name: config.name,
      transport: config.transport,
      endpoint: config.transport === 'stdio' ? config.command : config.url,
      stderrTail: this.stderrTail,
      httpLimit: this.httpLimit,
      stdioLimit: this.stdio?.outputError,
    };
  }

  /** Pid of the stdio child process while it was started (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.childPid;
  }

  /** Name and version the server reported. */
  get serverInfo(): { name: string; version: string } | undefined {
    return this.client?.getServerVersion();
  }

  /** Calls `listener` once when the server fails after connecting (crash, exit, broken pipe). */
  onFailure(listener: (error: McpServerError) => void): () => void {
    return this.failureListeners.add(listener);
  }

  /** Starts/reaches the server and runs `initialize`. Throws McpServerError; the connection is then closed. */
  async connect(signal?: AbortSignal): Promise<void> {
    if (this.stateValue !== 'idle')
      throw new McpServerError('CONFIG', this.name, `MCP server "${this.name}" was already started.`);
    this.stateValue = 'connecting';
    const timeout = this.config.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    try {
      const transport = this.createTransport();
      const client = new Client(this.options.clientInfo ?? { name: 'tdd-agent', version: '0.1.0' }, { capabilities: {} });
      this.client = client;
      this.exited = new Promise((resolve) => (this.markExited = resolve));
      client.onclose = () => this.onTransportClosed();
      client.onerror = (error) => this.logger.debug('MCP transport error', { error: redactSecrets(error.message) });
      await client.connect(transport, { timeout, signal });
      if (this.stateValue !== 'connecting') throw closedError(this.facts, 'during startup');
      this.stateValue = 'connected';
    } catch (error) {
      await this.exitedOrSoon();
      const failure = describeFailure(this.facts, error, 'connect', timeout);
      await this.fail(failure);
      throw failure;
    }
  }

  /** Every tool the server offers (all pages). Throws McpServerError; the connection is then closed. */
  async listTools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    const client = this.requireClient();
    const timeout = this.config.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    try {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout, signal });
        for (const tool of page.tools) {
          tools.push({
            name: tool.name,
            ...(tool.description !== undefined ? { description: tool.description } : {}),
            inputSchema: tool.inputSchema as Record<string, unknown>,
            ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
          });
        }
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    } catch (error) {
      const failure = describeFailure(this.facts, error, 'list tools', timeout);
      await this.fail(failure);
      throw failure;
    }
  }

  /** Calls one tool by its server-side name. An `isError` result or a failed call throws McpToolError. */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ToolOutput> {
    if (this.stateValue !== 'connected' || !this.client) {
      throw new McpToolError(
        'CONNECTION',
        this.name,
        tool,
        `MCP server "${this.name}" is not available (${this.errorValue?.message ?? this.stateValue}); its tool ${tool} cannot run.`,
      );
    }
    const timeout = options.timeoutMs ?? this.config.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
    let result: McpCallResult;
    try {
      result = (await this.client.callTool({ name: tool, arguments: args }, undefined, {
        timeout,
        signal: options.signal,
      })) as McpCallResult;
    } catch (error) {
      if (options.signal?.aborted)
        throw new McpToolError('CANCELLED', this.name, tool, `MCP tool ${tool} was cancelled.`, { cause: error });
      const overLimit = outputLimitError(this.facts);
      if (overLimit)
        throw new McpToolError('TOOL_FAILED', this.name, tool, `MCP tool ${tool} failed: ${overLimit.message}`, { cause: error });
      const timedOut = error instanceof McpError && error.code === (McpErrorCode.RequestTimeout as number);
      throw new McpToolError(
        timedOut ? 'TIMEOUT' : 'TOOL_FAILED',
        this.name,
        tool,
        timedOut
          ? `MCP tool ${tool} on server "${this.name}" did not answer within ${timeout / 1000} s.`
          : `MCP tool ${tool} on server "${this.name}" failed: ${messageOf(error)}`,
        { cause: error },
      );
    }
    const output = mcpResultToOutput(result);
    if (result.isError) {
      throw new McpToolError(
        'TOOL_FAILED',
        this.name,
        tool,
        `MCP tool ${tool} on server "${this.name}" reported an error: ${output.content || '(no message)'}`,
      );
    }
    return output;
  }

  /** Closes the session and, for stdio, makes sure the child process is gone. Idempotent. */
  async close(): Promise<void> {
    if (this.stateValue === 'closed') return;
    this.closing = true;
    const pid = this.childPid;
    const client = this.client;
    const closed = client ? client.close().catch(() => undefined) : Promise.resolve();
    if (this.config.transport === 'stdio' && pid !== undefined) {
      await stopStdioChild(pid, this.exited, this.options.closeGraceMs ?? 500);
    }
    await Promise.race([closed, delay(2000)]);
    this.stateValue = 'closed';
  }

  private createTransport(): Transport {
    return createMcpTransport(this.config, this.options, {
      stderr: (chunk) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      },
      stdio: (transport) => {
        this.stdio = transport;
      },
      started: (pid) => {
        this.childPid = pid;
      },
      httpLimit: (error) => {
        this.httpLimit ??= error;
        // Pending requests fail now (connection closed) instead of at their timeouts; onclose reports why.
        void this.client?.close().catch(() => undefined);
      },
    });
  }

  /** Lets a dying child's last stderr bytes arrive before an error quotes them. */
  private async exitedOrSoon(): Promise<void> {
    if (this.config.transport !== 'stdio') return;
    await Promise.race([this.exited, delay(50)]);
    await new Promise((resolve) => setImmediate(resolve));
  }

  private onTransportClosed(): void {
    this.markExited();
    if (this.closing || this.stateValue === 'closed' || this.stateValue === 'failed') return;
    if (this.stateValue === 'connecting') {
      // connect() reports it, once the stderr tail has been read.
      this.stateValue = 'failed';
      return;
    }
    const error = outputLimitError(this.facts) ?? closedError(this.facts, 'unexpectedly');
    this.errorValue = error;
    this.stateValue = 'failed';
    this.logger.warn('MCP server went away', { server: this.name, error: error.message });
    for (const listenerError of this.failureListeners.emit(error)) {
      this.logger.warn('an MCP failure listener threw', { error: messageOf(listenerError) });
    }
  }

  private async fail(error: McpServerError): Promise<void> {
    this.errorValue = error;
    await this.close();
    this.stateValue = 'failed';
  }

  private requireClient(): Client {
    if (this.stateValue !== 'connected' || !this.client) {
      throw new McpServerError('CONNECTION', this.name, `MCP server "${this.name}" is not connected (${this.stateValue}).`);
    }
    return this.client;
  }
}
