// The one place that arms a deadline and an abort signal for a wait that must end exactly once. A leaf: it
// imports nothing, so any folder of the core may use it.

/** A wait armed by {@link settleOnce}: ends once, whichever of its work, its deadline or its abort comes first. */
export interface SettleOnce {
  /** Whether the wait has ended. */
  readonly settled: boolean;
  /**
   * Ends the wait unless it already ended: stops the timer, detaches the abort listener, then runs `then`
   * (e.g. the promise's resolve). Returns whether this call ended it; a later call does nothing.
   */
  settle(then?: () => void): boolean;
}

/** What {@link settleOnce} arms. Each handler runs at most once, and never after the wait has ended. */
export interface SettleOnceOptions {
  /** The deadline in milliseconds; no timer without it (or without `onTimeout`). */
  timeoutMs?: number;
  /** Runs when the deadline passes first; it usually calls `wait.settle(...)`, or starts what will (a kill). */
  onTimeout?: (wait: SettleOnce) => void;
  /** The caller's abort signal; no listener without it (or without `onAbort`). */
  signal?: AbortSignal;
  /**
   * Runs when `signal` aborts first; it usually calls `wait.settle(...)`. A signal that is already aborted runs
   * it at once, before `settleOnce` returns (so it gets the wait as its argument).
   */
  onAbort?: (wait: SettleOnce) => void;
  /** Lets the process exit while the timer is pending (Node's `timer.unref()`); default false. */
  unref?: boolean;
}

/**
 * Arms a deadline and an abort signal for one wait and returns its {@link SettleOnce}: whichever ends the wait
 * first (its own work calling `settle`, the deadline or the abort) ends it, the rest do nothing, and ending it
 * always clears the timer and removes the abort listener. The pattern of every hand-written timeout/abort promise:
 *
 * ```ts
 * new Promise<void>((resolve, reject) => {
 *   settleOnce({
 *     timeoutMs: ms, onTimeout: (wait) => wait.settle(resolve),
 *     signal, onAbort: (wait) => wait.settle(() => reject(signal!.reason)),
 *   });
 * });
 * ```
 *
 * A handler that does not settle (a timeout that kills a process and waits for it to exit) leaves the other
 * armed: an abort after such a timeout still runs `onAbort`.
 */
export function settleOnce(options: SettleOnceOptions): SettleOnce {
  const { timeoutMs, onTimeout, signal, onAbort } = options;
  let settled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait: SettleOnce = {
    get settled() {
      return settled;
    },
    settle(then) {
      if (settled) return false;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (onAbort) signal?.removeEventListener('abort', aborted);
      then?.();
      return true;
    },
  };
  function aborted(): void {
    if (!settled) onAbort!(wait);
  }
  if (signal && onAbort) {
    if (signal.aborted) aborted();
    else signal.addEventListener('abort', aborted, { once: true });
  }
  if (timeoutMs !== undefined && onTimeout && !settled) {
    timer = setTimeout(() => {
      timer = undefined;
      if (!settled) onTimeout(wait);
    }, timeoutMs);
    if (options.unref) (timer as { unref?: () => void }).unref?.();
  }
  return wait;
}
