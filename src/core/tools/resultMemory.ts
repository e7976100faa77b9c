import { isoTime } from '../logging/isoTime';
import type { ToolCallResult } from './types';

/** One remembered tool call: what was called with which (redacted) parameters, and the result. */
export interface RememberedToolCall {
  at: string;
  params: unknown;
  result: ToolCallResult;
}

/** Where a remembered call's parameters come from when read: made (e.g. redacted) only then. */
export interface ShownParams {
  shownParams(): unknown;
}

/** A remembered call as kept: its time as epoch milliseconds and its parameters' source until someone reads it. */
interface StoredCall {
  atMs: number;
  source: ShownParams;
  result: ToolCallResult;
}

/**
 * A bounded list of the most recent tool calls (oldest dropped first) an agent can read back. A call's time is kept
 * as a number and written as an ISO string when read: most remembered calls are never read, and formatting a date
 * per call was a large share of what remembering cost.
 */
export class ToolResultMemory {
  private readonly entries: StoredCall[] = [];

  constructor(readonly capacity = 50) {}

  /**
   * Remembers one call made at `atMs` (epoch milliseconds) whose parameters `source` shows when the call is read back,
   * dropping the oldest beyond capacity.
   */
  remember(atMs: number, source: ShownParams, result: ToolCallResult): void {
    this.keep({ atMs, source, result });
  }

  /** The most recent calls, oldest first (at most `limit`). */
  recent(limit = this.capacity): RememberedToolCall[] {
    return this.entries.slice(-Math.max(0, limit)).map(remembered);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.length = 0;
  }

  private keep(entry: StoredCall): void {
    this.entries.push(entry);
    // Once full, every call drops the oldest: shift() allocates nothing, where splice() returns a new array each time.
    if (this.entries.length === this.capacity + 1) this.entries.shift();
    else if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** Number of remembered calls. */
  get size(): number {
    return this.entries.length;
  }
}

function remembered(entry: StoredCall): RememberedToolCall {
  return { at: isoTime(entry.atMs), params: entry.source.shownParams(), result: entry.result };
}
