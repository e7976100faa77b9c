import type { Readable, Writable } from 'node:stream';

/** The process streams and environment the CLI works with (tests pass their own). */
export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

/** A usage or configuration problem: exit code 2 with a one-line reason. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Exit codes of `tdd-agent`. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
