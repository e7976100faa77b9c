import type { TokenUsage } from '../llm/types';
import { percentile } from './percentile';

/** Timing summary of one kind of measurement. */
export interface TimingSummary {
  count: number;
  p50: number;
  p95: number;
  mean: number;
}

/** Everything recorded so far. Times are in ms. */
export interface MetricsSnapshot {
  frameworkInitMs?: number;
  agentCreation: TimingSummary;
  execution: TimingSummary & { succeeded: number; failed: number; successRate: number };
  tokens: TokenUsage;
}

/** The names a {@link PerformanceTargets} object may have; any other key is refused by the agents. */
export const PERFORMANCE_TARGET_NAMES = ['frameworkInitMs', 'executionP95Ms', 'agentCreationP95Ms', 'minSuccessRate'] as const;

/** Limits an agent's executions should meet; see `checkTargets`. */
export interface PerformanceTargets {
  /** Framework initialisation (`createAgentRuntime`: provider resolution and client), in ms. */
  frameworkInitMs?: number;
  executionP95Ms?: number;
  agentCreationP95Ms?: number;
  minSuccessRate?: number;
}

/** One execution as the metrics record it. */
export interface ExecutionSample {
  durationMs: number;
  success: boolean;
  usage?: TokenUsage;
}

/** Fixed-size ring of recent samples, so memory stays flat however long the process runs. */
class SampleRing {
  private readonly values: number[] = [];
  private next = 0;
  count = 0;
  sum = 0;

  constructor(private readonly capacity: number) {}

  push(value: number): void {
    this.count++;
    this.sum += value;
    if (this.values.length < this.capacity) this.values.push(value);
    else this.values[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
  }

  summary(): TimingSummary {
    return {
      count: this.count,
      p50: percentile(this.values, 50),
      p95: percentile(this.values, 95),
      mean: this.count ? this.sum / this.count : 0,
    };
  }
}

/**
 * Performance tracking: framework init, agent creation and execution times (p50/p95 over the last
 * `window` samples), success rate and token usage. One instance can be shared by many agents.
 */
export class PerformanceMetrics {
  private frameworkInitMs?: number;
  private readonly creation: SampleRing;
  private readonly execution: SampleRing;
  private succeeded = 0;
  private failed = 0;
  private readonly tokens: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

  constructor(options: { window?: number } = {}) {
    const window = Math.max(1, options.window ?? 10_000);
    this.creation = new SampleRing(window);
    this.execution = new SampleRing(window);
  }

  /** How long framework initialisation (provider resolution, client) took. */
  recordFrameworkInit(ms: number): void {
    this.frameworkInitMs = ms;
  }

  /** How long constructing one agent took. */
  recordAgentCreation(ms: number): void {
    this.creation.push(ms);
  }

  /** One finished execution. */
  recordExecution(sample: ExecutionSample): void {
    this.execution.push(sample.durationMs);
    if (sample.success) this.succeeded++;
    else this.failed++;
    if (sample.usage) {
      this.tokens.promptTokens += sample.usage.promptTokens;
      this.tokens.completionTokens += sample.usage.completionTokens;
      this.tokens.totalTokens += sample.usage.totalTokens;
    }
  }

  /** A copy of everything recorded so far. */
  snapshot(): MetricsSnapshot {
    const total = this.succeeded + this.failed;
    return {
      frameworkInitMs: this.frameworkInitMs,
      agentCreation: this.creation.summary(),
      execution: {
        ...this.execution.summary(),
        succeeded: this.succeeded,
        failed: this.failed,
        successRate: total ? this.succeeded / total : 0,
      },
      tokens: { ...this.tokens },
    };
  }
}

/**
 * `targets` over `defaults` (000 EP-6: "missing keys → use defaults"): a key `targets` leaves out keeps its
 * default; a key it sets to `undefined` turns that target off.
 */
export function mergeTargets(defaults: PerformanceTargets, targets: PerformanceTargets): PerformanceTargets {
  return { ...defaults, ...targets };
}

/** Lists each target the snapshot misses, as `name: actual vs target` (empty when all are met). */
export function checkTargets(snapshot: MetricsSnapshot, targets: PerformanceTargets): string[] {
  const misses: string[] = [];
  if (
    targets.frameworkInitMs !== undefined &&
    snapshot.frameworkInitMs !== undefined &&
    snapshot.frameworkInitMs > targets.frameworkInitMs
  ) {
    misses.push(`frameworkInitMs: ${snapshot.frameworkInitMs.toFixed(2)} > ${targets.frameworkInitMs}`);
  }
  if (targets.executionP95Ms !== undefined && snapshot.execution.p95 > targets.executionP95Ms) {
    misses.push(`executionP95Ms: ${snapshot.execution.p95.toFixed(2)} > ${targets.executionP95Ms}`);
  }
  if (targets.agentCreationP95Ms !== undefined && snapshot.agentCreation.p95 > targets.agentCreationP95Ms) {
    misses.push(`agentCreationP95Ms: ${snapshot.agentCreation.p95.toFixed(3)} > ${targets.agentCreationP95Ms}`);
  }
  if (
    targets.minSuccessRate !== undefined &&
    snapshot.execution.count > 0 &&
    snapshot.execution.successRate < targets.minSuccessRate
  ) {
    misses.push(`minSuccessRate: ${snapshot.execution.successRate.toFixed(3)} < ${targets.minSuccessRate}`);
  }
  return misses;
}
