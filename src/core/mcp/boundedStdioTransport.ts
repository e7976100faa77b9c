import type { ChildProcess } from 'node:child_process';
import spawn from 'cross-spawn';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { settleOnce } from '../async/settleOnce';

/** Default longest JSON-RPC line an MCP stdio server may write: 4 MB. */
export const DEFAULT_MCP_MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Default total of stdout lines that are not JSON-RPC messages a server may write before it is stopped: 1 MB. */
export const DEFAULT_MCP_MAX_NON_PROTOCOL_BYTES = 1024 * 1024;

const REPORTED_NON_PROTOCOL_LINES = 5;

/** What the child to start is and how much stdout it may write that is not a usable message. */
export interface BoundedStdioTransportOptions {
  command: string;
  args?: string[];
  /** Added to the SDK's safe default variables (HOME, PATH, ...); nothing else of this process's environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Longest stdout line (one JSON-RPC message) in bytes (default {@link DEFAULT_MCP_MAX_LINE_BYTES}). */
  maxLineBytes?: number;
  /** Total bytes of stdout lines that are not JSON-RPC messages (default {@link DEFAULT_MCP_MAX_NON_PROTOCOL_BYTES}). */
  maxNonProtocolBytes?: number;
  /** Receives the child's stderr as it arrives (the caller keeps a bounded tail). */
  onStderr?: (chunk: Buffer) => void;
}

/** Why a child's stdout was refused: a line past `maxLineBytes`, or too much output that is not JSON-RPC. */
export class StdioOutputLimitError extends Error {
  constructor(
    /** Which bound was crossed. */
    readonly kind: 'line_too_long' | 'non_protocol_output',
    /** The bound in bytes. */
    readonly limitBytes: number,
  ) {
    super(
      kind === 'line_too_long'
        ? `stdout line longer than ${limitBytes} bytes`
        : `more than ${limitBytes} bytes of non-JSON-RPC stdout`,
    );
    this.name = 'StdioOutputLimitError';
  }
}

/**
 * The client side of MCP over stdio, like the SDK's `StdioClientTransport` (the same `cross-spawn`, the
 * same default environment, one JSON-RPC message per line with the SDK's `serializeMessage` /
 * `deserializeMessage`) but with bounded reading: a partial line is held as a list of chunks and never grows past `maxLineBytes`, and lines that
 * are not JSON-RPC messages are dropped and counted up to `maxNonProtocolBytes`. Past either bound the
 * child is killed at once (SIGKILL: it is not speaking MCP), stdout is no longer read, `onerror` gets a
 * {@link StdioOutputLimitError} (also kept in {@link outputError}) and `onclose` follows as soon as the
 * child has exited, so a pending `initialize` fails immediately instead of waiting for its timeout.
 */
export class BoundedStdioTransport implements Transport {
  /** Set by the SDK's Protocol. */
  onclose?: () => void;
  /** Set by the SDK's Protocol. */
  onerror?: (error: Error) => void;
  /** Set by the SDK's Protocol. */
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcess | undefined;
  private pidValue: number | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private nonProtocolBytes = 0;
  private nonProtocolLines = 0;
  private violation: StdioOutputLimitError | undefined;
  private closeReported = false;
  private readonly maxLineBytes: number;
  private readonly maxNonProtocolBytes: number;

  constructor(private readonly options: BoundedStdioTransportOptions) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MCP_MAX_LINE_BYTES;
    this.maxNonProtocolBytes = options.maxNonProtocolBytes ?? DEFAULT_MCP_MAX_NON_PROTOCOL_BYTES;
  }

  /** The child's pid once started (kept after it exits, for diagnostics and a last kill). */
  get pid(): number | undefined {
    return this.pidValue;
  }

  /** The bound the child's stdout crossed, if it did. */
  get outputError(): StdioOutputLimitError | undefined {
    return this.violation;
  }

  /** Starts the child; resolves once it is spawned, rejects when it cannot be (ENOENT, EACCES). */
  start(): Promise<void> {
    if (this.child) throw new Error('BoundedStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args ?? [], {
        env: { ...getDefaultEnvironment(), ...this.options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        cwd: this.options.cwd,
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        this.pidValue = child.pid;
        resolve();
      });
      child.on('close', () => {
        this.child = undefined;
        this.reportClose();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
      child.stderr?.on('data', (chunk: Buffer) => this.options.onStderr?.(chunk));
    });
  }

  /** Writes one message as a line; waits for the pipe to drain when it is full. */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.violation) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends stdin and waits up to 2 s for the child to exit, then SIGTERM, then SIGKILL (as the SDK does). */
  async close(): Promise<void> {
    const child = this.child;
    this.dropPending();
    if (!child) {
      this.reportClose();
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const waitOrGiveUp = (): Promise<void> =>
      new Promise<void>((resolve) => {
        const wait = settleOnce({ timeoutMs: 2000, onTimeout: (w) => w.settle(resolve), unref: true });
        void exited.then(() => wait.settle(resolve));
      });
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    await waitOrGiveUp();
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      child.kill(signal);
      await waitOrGiveUp();
    }
    this.reportClose();
  }

  private onStdout(chunk: Buffer): void {
    if (this.violation) return;
    let start = 0;
    for (let newline = chunk.indexOf(0x0a, start); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      if (this.pendingBytes + (newline - start) > this.maxLineBytes) return this.refuse('line_too_long', this.maxLineBytes);
      const piece = chunk.subarray(start, newline);
      const line = this.pending.length > 0 ? Buffer.concat([...this.pending, piece]) : piece;
      this.dropPending();
      start = newline + 1;
      this.onLine(line);
      if (this.violation) return;
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxLineBytes) return this.refuse('line_too_long', this.maxLineBytes);
      this.pending.push(chunk.subarray(start));
    }
  }

  private onLine(raw: Buffer): void {
    const line = raw.toString('utf8').replace(/\r$/, '');
    if (line.trim() === '') return;
    let message: JSONRPCMessage | undefined;
    let problem: unknown;
    // A JSON-RPC message is a JSON object: anything else is refused without paying for a parse.
    if (line.trimStart().startsWith('{')) {
      try {
        message = deserializeMessage(line);
      } catch (error) {
        problem = error;
      }
    }
    if (message) {
      this.onmessage?.(message);
      return;
    }
    this.nonProtocolBytes += raw.length + 1;
    if (this.nonProtocolBytes > this.maxNonProtocolBytes) return this.refuse('non_protocol_output', this.maxNonProtocolBytes);
    // Reported a few times, not once per line: a chatty server would flood the log.
    if (++this.nonProtocolLines <= REPORTED_NON_PROTOCOL_LINES) {
      this.onerror?.(
        problem instanceof Error ? problem : new Error(`stdout line that is not a JSON-RPC message: ${line.slice(0, 80)}`),
      );
    }
  }

  /** Stops reading, kills the child and reports the connection closed once it has exited. */
  private refuse(kind: StdioOutputLimitError['kind'], limitBytes: number): void {
    this.violation = new StdioOutputLimitError(kind, limitBytes);
    this.dropPending();
    const child = this.child;
    if (child) {
      child.stdout?.removeAllListeners('data');
      child.stdout?.destroy();
      child.kill('SIGKILL');
      // `close` (after exit and stdio end) reports it; a grandchild holding stderr open must not delay it.
      child.once('exit', () => this.reportClose());
      setTimeout(() => this.reportClose(), 2000).unref();
    }
    this.onerror?.(this.violation);
  }

  private dropPending(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  private reportClose(): void {
    if (this.closeReported) return;
    this.closeReported = true;
    this.onclose?.();
  }
}
