import { z } from 'zod';
import { AgentSettingsError } from './errors';

/** Names of the built-in execution strategies. */
export const STRATEGY_NAMES = ['single_shot', 'multi_cycle'] as const;
/** One of {@link STRATEGY_NAMES}. */
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/**
 * Every setting of an agent, with defaults. `model`, `temperature` and `maxTokens` left unset fall back to
 * the agent's prompt config (`config/agents/...`) and then the provider default. Unknown keys are rejected.
 */
export const BaseAgentConfigSchema = z.strictObject({
  provider: z.enum(['openai', 'ollama', 'replay']).optional(),
  model: z.string().min(1).optional(),
  baseURL: z.url().optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.int().positive().optional(),
  /** Per model call, in ms. */
  timeoutMs: z.int().positive().max(3_600_000).default(120_000),
  strategy: z.enum(STRATEGY_NAMES).default('single_shot'),
  /** Only for `multi_cycle`. */
  maxCycles: z.int().min(1).max(1000).default(10),
  /** Re-asks after invalid output (0 = none). */
  maxRepairAttempts: z.int().min(0).max(5).default(1),
  /** Tokens the repair calls of one execution may spend in total. */
  repairTokenBudget: z.int().positive().default(8000),
  /** Debug/warn records through the process-wide logger (secrets redacted). */
  logging: z.boolean().default(true),
  /** Execution times, success rate, p50/p95 and token usage into a PerformanceMetrics. */
  performanceTracking: z.boolean().default(false),
  /** Failures come back as `{ error: { error_code, message, details } }` instead of throwing. */
  errorHandling: z.boolean().default(false),
  /** Enables `executeBatch`. */
  batchProcessing: z.boolean().default(false),
  /** Parallel executions in `executeBatch` (only with batchProcessing). */
  batchConcurrency: z.int().min(1).max(64).default(4),
  /** One JSON line per execution to the audit sink. */
  auditTrail: z.boolean().default(false),
  /** File the audit trail appends to (only with auditTrail; or pass an AuditTrail to the agent). */
  auditPath: z.string().min(1).optional(),
});

/** Validated settings, defaults applied. */
export type BaseAgentConfig = z.infer<typeof BaseAgentConfigSchema>;
/** What callers may pass: every field optional. */
export type BaseAgentConfigInput = z.input<typeof BaseAgentConfigSchema>;

/** Settings that only make sense together with another one: [field, requires field, required value]. */
const DEPENDENT: ReadonlyArray<[keyof BaseAgentConfigInput, keyof BaseAgentConfigInput, unknown]> = [
  ['maxCycles', 'strategy', 'multi_cycle'],
  ['batchConcurrency', 'batchProcessing', true],
  ['auditPath', 'auditTrail', true],
];

/**
 * Validates settings: `extensions` (an agent class's own defaults) are merged over the base defaults and
 * `input` over those. Throws {@link AgentSettingsError} naming every bad or conflicting field.
 */
export function parseAgentConfig(input: BaseAgentConfigInput = {}, extensions: BaseAgentConfigInput = {}): BaseAgentConfig {
  const merged = { ...extensions, ...input };
  const parsed = BaseAgentConfigSchema.safeParse(merged);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const keys = 'keys' in issue && Array.isArray(issue.keys) ? issue.keys.join(', ') : '';
      const path = issue.path.length ? issue.path.join('.') : keys || '(settings)';
      problems.push(`${path}: ${issue.message}`);
    }
  }
  for (const [field, needs, value] of DEPENDENT) {
    if (merged[field] !== undefined && merged[needs] !== value) {
      problems.push(`${field}: only applies when ${needs} is ${JSON.stringify(value)} (it is ${JSON.stringify(merged[needs] ?? 'unset')})`);
    }
  }
  if (problems.length > 0 || !parsed.success) throw new AgentSettingsError(problems, { fields: problems.map((p) => p.split(':')[0]) });
  return parsed.data;
}
