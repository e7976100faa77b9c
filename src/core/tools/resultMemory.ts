import type { ToolCallResult } from './types';

/** One remembered tool call: what was called with which (redacted) parameters, and the result. */
export interface RememberedToolCall {
  at: string;
  params: unknown;
  result: ToolCallResult;
}

/** A bounded list of the most recent tool calls (oldest dropped first) an agent can read back. */
export class ToolResultMemory {
  private readonly entries: RememberedToolCall[] = [];

  constructor(readonly capacity = 50) {}

  /** Remembers one call, dropping the oldest beyond capacity. */
  add(entry: RememberedToolCall): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** The most recent calls, oldest first (at most `limit`). */
  recent(limit = this.capacity): RememberedToolCall[] {
    return this.entries.slice(-Math.max(0, limit));
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.length = 0;
  }

  /** Number of remembered calls. */
  get size(): number {
    return this.entries.length;
  }
}
