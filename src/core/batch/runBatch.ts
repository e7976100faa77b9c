import { AgentError, toAgentError, type ErrorInfo } from '../errors/agentError';

/** Result of one item, at its input index. */
export type BatchItemResult<T> = { index: number; ok: true; value: T } | { index: number; ok: false; error: ErrorInfo };

/** Totals of a batch. */
export interface BatchMetadata {
  total: number;
  succeeded: number;
  failed: number;
  /** Items never started because the batch was cancelled (counted in `failed` too). */
  cancelled: number;
  concurrency: number;
  durationMs: number;
}

/** Results in input order plus totals. */
export interface BatchResult<T> {
  results: BatchItemResult<T>[];
  metadata: BatchMetadata;
}

/** Options of {@link runBatch}. */
export interface BatchOptions {
  /** Items in flight at once (1..64). Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
}

/**
 * Runs `worker` over `items` with at most `concurrency` in flight; results come back in input order and
 * one failure never stops the batch. After cancellation no new item starts; those items get CANCELLED.
 */
export async function runBatch<I, T>(
  items: readonly I[],
  worker: (item: I, index: number, signal?: AbortSignal) => Promise<T>,
  options: BatchOptions = {},
): Promise<BatchResult<T>> {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new AgentError('VALIDATION', `concurrency: must be a whole number from 1 to 64 (got ${concurrency})`, { concurrency });
  }
  const started = performance.now();
  const results = new Array<BatchItemResult<T>>(items.length);
  let next = 0;
  let succeeded = 0;
  let cancelled = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      if (options.signal?.aborted) {
        cancelled++;
        results[index] = {
          index,
          ok: false,
          error: new AgentError('CANCELLED', 'The batch was cancelled before this item started.').toJSON(),
        };
        continue;
      }
      try {
        results[index] = { index, ok: true, value: await worker(items[index]!, index, options.signal) };
        succeeded++;
      } catch (e) {
        results[index] = { index, ok: false, error: toAgentError(e).toJSON() };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return {
    results,
    metadata: {
      total: items.length,
      succeeded,
      failed: items.length - succeeded,
      cancelled,
      concurrency,
      durationMs: performance.now() - started,
    },
  };
}
