import { z } from 'zod';
import { AgentSettingsError } from './errors';

/** Names of the built-in execution strategies. */
export const STRATEGY_NAMES = ['single_shot', 'multi_cycle'] as const;
/** One of {@link STRATEGY_NAMES}. */
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/**
 * A model call's limit when neither the agent (`timeoutMs`) nor its client (`createOpenAIClient({ timeoutMs })`)
 * sets one: 120 s.
 */
export const DEFAULT_MODEL_CALL_TIMEOUT_MS = 120_000;

/**
 * Every setting of an agent, with defaults. `model`, `temperature` and `maxTokens` left unset fall back to
 * the agent's prompt config (`config/agents/...`) and then the provider default. Unknown keys are rejected.
 */
export const BaseAgentConfigSchema = z.strictObject({
  /** Where the calls should go; given, it must be the llm client's provider (a mismatch is refused at construction). */
  provider: z.enum(['openai', 'ollama', 'replay']).optional(),
  model: z.string().min(1).optional(),
  /** The server the calls should go to; given, it must be the llm client's (a mismatch is refused at construction). */
  baseURL: z.url().optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.int().positive().optional(),
  /**
   * Per model call (each attempt), in ms. Unset (the default): the timeout the client was created with, else
   * `DEFAULT_MODEL_CALL_TIMEOUT_MS`. Set, and the client was created with one too: the tighter applies.
   */
  timeoutMs: z.int().positive().max(3_600_000).optional(),
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

/**
 * Validated settings, defaults applied; plus any keys an agent's config extensions add (e.g.
 * `generation_config`), read with `config['generation_config']`.
 */
export type BaseAgentConfig = z.infer<typeof BaseAgentConfigSchema> & { readonly [key: string]: unknown };
/** What callers may pass: every field optional. */
export type BaseAgentConfigInput = z.input<typeof BaseAgentConfigSchema>;
/**
 * What `frameworkConfigExtensions()` and `configExtensions()` return: defaults for any base setting, plus keys
 * of their own (e.g. `generation_config`), which the settings then accept too. Keys of their own are
 * provider-specific settings: every model call sends them in its request body (see `requestExtensions`).
 */
export type AgentConfigExtensions = BaseAgentConfigInput & { [key: string]: unknown };

const BASE_KEYS: ReadonlySet<string> = new Set(Object.keys(BaseAgentConfigSchema.shape));

/** Request fields the model client sets itself: an extension of that name would be overwritten, so it is refused. */
const CLIENT_REQUEST_FIELDS: ReadonlySet<string> = new Set([
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'response_format',
  'tools',
  'tool_choice',
  'stream',
  'stream_options',
]);

/**
 * The provider-specific settings of an agent (000 EP-4): the keys its config extensions declare besides the base
 * settings (e.g. `generation_config`), sent to the model in the request body. Undefined when there are none.
 */
export function requestExtensions(config: BaseAgentConfig): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(config)) if (!BASE_KEYS.has(key)) (out ??= {})[key] = config[key];
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype
  );
}

/** `over` merged onto `base`; plain-object values merge key by key (so `generation_config` parts add up). */
function mergeSettings(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    out[key] = isPlainObject(out[key]) && isPlainObject(value) ? mergeSettings(out[key], value) : value;
  }
  return out;
}

/** Settings that only make sense together with another one: [field, requires field, required value]. */
const DEPENDENT: ReadonlyArray<[keyof BaseAgentConfigInput, keyof BaseAgentConfigInput, unknown]> = [
  ['maxCycles', 'strategy', 'multi_cycle'],
  ['batchConcurrency', 'batchProcessing', true],
  ['auditPath', 'auditTrail', true],
];

/**
 * Validates settings. Layers, each over the one before: the base defaults, `framework` (framework-level
 * extensions), `extensions` (the agent class's own), then `input` (the caller's). Plain-object values merge
 * key by key. Keys outside the base schema are accepted when an extension layer declares them (their values
 * are kept as given); anywhere else they are typos and rejected. Throws {@link AgentSettingsError} naming
 * every bad or conflicting field.
 */
export function parseAgentConfig(
  input: BaseAgentConfigInput = {},
  extensions: AgentConfigExtensions = {},
  framework: AgentConfigExtensions = {},
): BaseAgentConfig {
  const problems: string[] = [];
  for (const [layer, value] of [
    ['framework config extensions', framework],
    ['config extensions', extensions],
    ['settings', input],
  ] as const) {
    if (!isPlainObject(value))
      problems.push(`(${layer}): expected an object of settings, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  if (problems.length > 0) throw new AgentSettingsError(problems);
  const declared = new Set([...Object.keys(framework), ...Object.keys(extensions)].filter((key) => !BASE_KEYS.has(key)));
  for (const key of declared) {
    if (CLIENT_REQUEST_FIELDS.has(key))
      problems.push(
        `${key}: a request field the client sets itself (extensions are sent beside it); use the agent's settings, prompt or tools instead`,
      );
  }
  const merged = mergeSettings(mergeSettings(mergeSettings({}, framework), extensions), input as Record<string, unknown>);
  const base = Object.fromEntries(Object.entries(merged).filter(([key]) => !declared.has(key)));
  const extra = Object.fromEntries(Object.entries(merged).filter(([key]) => declared.has(key)));
  const parsed = BaseAgentConfigSchema.safeParse(base);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const keys = 'keys' in issue && Array.isArray(issue.keys) ? issue.keys.join(', ') : '';
      const path = issue.path.length ? issue.path.join('.') : keys || '(settings)';
      problems.push(`${path}: ${issue.message}`);
    }
  }
  for (const [field, needs, value] of DEPENDENT) {
    if (merged[field] !== undefined && merged[needs] !== value) {
      problems.push(
        `${field}: only applies when ${needs} is ${JSON.stringify(value)} (it is ${JSON.stringify(merged[needs] ?? 'unset')})`,
      );
    }
  }
  if (problems.length > 0 || !parsed.success)
    throw new AgentSettingsError(problems, { fields: problems.map((p) => p.split(':')[0]) });
  return { ...extra, ...parsed.data };
}
