/** How an MCP server connection reaches its server (a bounded stdio child or bounded HTTP), and makes sure a stdio child is gone. */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundedMessageFetch, type HttpMessageLimitError } from './boundedHttpFetch';
import { BoundedStdioTransport, DEFAULT_MCP_MAX_LINE_BYTES, DEFAULT_MCP_MAX_NON_PROTOCOL_BYTES } from './boundedStdioTransport';
import type { McpServerConfig } from './config';

/** The bounds of a server's output (see McpServerConnectionOptions). */
export interface McpTransportLimits {
  maxStdoutLineBytes?: number;
  maxNonProtocolBytes?: number;
  maxHttpMessageBytes?: number;
}

/** What the transport tells its connection. */
export interface McpTransportSinks {
  /** A chunk of the stdio child's stderr. */
  readonly stderr: (chunk: Buffer) => void;
  /** The stdio transport, as soon as it exists. */
  readonly stdio: (transport: BoundedStdioTransport) => void;
  /** The stdio child's pid, as soon as the child exists. */
  readonly started: (pid: number | undefined) => void;
  /** An HTTP message crossed the bound. */
  readonly httpLimit: (error: HttpMessageLimitError) => void;
}

/** The transport for `config`: a stdio child whose stdout is read with bounds, or streamable HTTP with bounded messages. */
export function createMcpTransport(config: McpServerConfig, limits: McpTransportLimits, sinks: McpTransportSinks): Transport {
  if (config.transport === 'stdio') {
    const transport = new BoundedStdioTransport({
      command: config.command,
      args: config.args ?? [],
      ...(config.env ? { env: config.env } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      maxLineBytes: limits.maxStdoutLineBytes ?? DEFAULT_MCP_MAX_LINE_BYTES,
      maxNonProtocolBytes: limits.maxNonProtocolBytes ?? DEFAULT_MCP_MAX_NON_PROTOCOL_BYTES,
      onStderr: sinks.stderr,
    });
    sinks.stdio(transport);
    // Remember the pid as soon as the child exists: close() must still be able to make sure it is gone.
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      sinks.started(transport.pid);
    };
    return transport;
  }
  const maxBytes = limits.maxHttpMessageBytes ?? DEFAULT_MCP_MAX_LINE_BYTES;
  return new StreamableHTTPClientTransport(new URL(config.url), {
    ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
    fetch: boundedMessageFetch(maxBytes, sinks.httpLimit),
  });
}

/** Resolves after `ms` (without keeping the process alive). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Signal 0 only asks whether `pid` exists; it throws for a process that is gone. */
function isAlive(pid: number): boolean {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
}

/**
 * Makes sure stdio child `pid` is gone once its stdin is closed: waits for `exited` up to `graceMs`, then
 * SIGKILLs a child still alive and waits for it (at most 2 s).
 */
export async function stopStdioChild(pid: number, exited: Promise<void>, graceMs: number): Promise<void> {
  // The SDK waits up to 2 s per signal; a server that ignores stdin EOF gets SIGKILL after a short grace.
  await Promise.race([exited, delay(graceMs)]);
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await Promise.race([exited, delay(2000)]);
}
