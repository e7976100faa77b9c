/** A tool call while it runs: its deadline and the caller's abort, and the context the tool is handed. */
import type { Logger } from '../logging/logger';
import type { ProcessSandbox } from '../osSandbox/types';
import { Deadlines, type Expiring } from './callDeadlines';
import type { DangerLevel, ToolCallResult, ToolContext } from './types';

/**
 * The ToolContext of one call. Its signal and logger are made when the tool first reads them (most calls never do),
 * as getters of the class: getters in an object literal were made anew for every call.
 */
export class ToolCallContext implements ToolContext {
  requestEscalation?: (level: DangerLevel, reason: string) => Promise<boolean>;

  constructor(
    readonly workspaceRoot: string,
    private readonly parentLogger: Logger,
    private readonly toolName: string,
    private readonly call: RunningCall,
    readonly sandbox: ProcessSandbox | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.call.signal;
  }

  get logger(): Logger {
    return this.parentLogger.child(this.toolName);
  }
}

/** How a running call ended: the tool's result, or its deadline or the caller's abort came first. */
export type CallOutcome = ToolCallResult | 'timeout' | 'cancelled';

/** Every executor's running calls' deadlines, on one timer. */
const callDeadlines = new Deadlines();

/**
 * One running tool call: settles once, with the tool's result or on its deadline or the caller's abort, whichever
 * comes first, and then aborts the tool's signal. That signal is made when the tool first reads it (most calls
 * never do: an AbortSignal per call was a large share of the executor's own cost); read after the abort, it is
 * already aborted. The instance is the abort listener and its own deadline's entry (one shared timer: callDeadlines.ts), so a call makes no closures and no timer.
 */
export class RunningCall implements Expiring {
  readonly outcome: Promise<CallOutcome>;
  private resolve!: (outcome: CallOutcome) => void;
  private settled = false;
  private controller?: AbortController;
  private abortReason?: { value: unknown };

  constructor(
    private readonly outer: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.outcome = new Promise<CallOutcome>((resolve) => {
      this.resolve = resolve;
    });
    callDeadlines.add(this, timeoutMs);
    outer?.addEventListener('abort', this, { once: true });
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason) this.controller.abort(this.abortReason.value);
    }
    return this.controller.signal;
  }

  /** Its deadline passed. */
  expire(): void {
    this.end('timeout', new Error('timeout'));
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.end('cancelled', this.outer?.reason);
  }

  /** Aborts the tool's signal and settles with `why` (unless already settled). */
  end(why: 'timeout' | 'cancelled', reason: unknown): void {
    if (this.settled) return;
    this.abortReason = { value: reason };
    this.controller?.abort(reason);
    this.settle(why);
  }

  settle(outcome: CallOutcome): void {
    if (this.settled) return;
    this.settled = true;
    callDeadlines.delete(this);
    this.outer?.removeEventListener('abort', this);
    this.resolve(outcome);
  }
}
