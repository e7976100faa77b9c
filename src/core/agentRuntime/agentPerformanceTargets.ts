/** The performance targets an agent's metrics are compared with: the defaults and the check of an agent's own. */
import { AgentSettingsError } from './errors';
import {
  PERFORMANCE_TARGET_NAMES,
  checkTargets,
  mergeTargets,
  type PerformanceMetrics,
  type PerformanceTargets,
} from '../metrics/performanceMetrics';

/** The performance targets every agent has unless it overrides `performanceTargets()`. */
export const DEFAULT_PERFORMANCE_TARGETS: Readonly<PerformanceTargets> = Object.freeze({
  frameworkInitMs: 100,
  agentCreationP95Ms: 200,
  executionP95Ms: 500,
});

/**
 * The targets in effect: `targets` merged over {@link DEFAULT_PERFORMANCE_TARGETS} (a key left out keeps its
 * default, one set to `undefined` is off), when every given target is a known name and a positive finite
 * number (a success rate at most 1); else throws CONFIG naming each bad key.
 */
export function effectivePerformanceTargets(targets: PerformanceTargets): PerformanceTargets {
  if (!targets || typeof targets !== 'object' || Array.isArray(targets))
    throw new AgentSettingsError(['performanceTargets: must return an object of targets']);
  const problems: string[] = [];
  const known: readonly string[] = PERFORMANCE_TARGET_NAMES;
  for (const [key, value] of Object.entries(targets)) {
    if (!known.includes(key)) {
      problems.push(`performanceTargets.${key}: not a performance target (targets: ${known.join(', ')})`);
      continue;
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      problems.push(`performanceTargets.${key}: must be a positive number, got ${JSON.stringify(value)}`);
    } else if (key === 'minSuccessRate' && value > 1) {
      problems.push(`performanceTargets.minSuccessRate: must be at most 1, got ${value}`);
    }
  }
  if (problems.length > 0) throw new AgentSettingsError(problems);
  return mergeTargets(DEFAULT_PERFORMANCE_TARGETS, targets);
}

/** The targets (checked as by {@link effectivePerformanceTargets}) `metrics` misses; throws CONFIG without metrics. */
export function missedPerformanceTargets(targets: PerformanceTargets, metrics: PerformanceMetrics | undefined): string[] {
  const effective = effectivePerformanceTargets(targets);
  if (!metrics)
    throw new AgentSettingsError([
      'performanceTracking: checkPerformanceTargets needs performanceTracking: true in the agent settings',
    ]);
  return checkTargets(metrics.snapshot(), effective);
}
