/**
 * The extension's settings (`tddAgent.*`) as one validated value. Pure: it takes a getter, so the
 * `vscode` configuration, a test or a plain object can feed it. Invalid values are a CONFIG
 * AgentError naming each setting and what is wrong; missing values take the manifest's defaults.
 */
import { z } from 'zod';
import { AgentError, type ApprovalPolicyConfig, DANGER_LEVELS, type McpServerConfig, mcpServerConfigSchema } from '../../core';
import { SANDBOX_MODES, type PanelSandboxMode } from '../../shared/panelProtocol';
import { approvalPolicyConfig, combinedApprovalPolicy, type SettingLayers } from './approvalPolicySetting';
import { mcpServersSetting } from './mcpServersSetting';
import { MODEL_PRICES_SCHEMA } from './modelPrices';

/** The configuration section. */
export const SETTINGS_SECTION = 'tddAgent';

/** Providers a person may choose. */
export const PROVIDER_CHOICES = ['auto', 'openai', 'ollama', 'replay'] as const;
/** Rules per danger level. */
export const APPROVAL_RULE_CHOICES = ['allow', 'ask', 'deny'] as const;

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/** The schema of every `tddAgent.*` setting (keys without the section prefix). */
export const extensionSettingsSchema = z.object({
  provider: z.enum(PROVIDER_CHOICES).default('auto'),
  model: optionalText,
  baseUrl: optionalText.refine((v) => v === undefined || /^https?:\/\/[^\s]+$/i.test(v), 'must be an http(s) URL'),
  ollamaHost: optionalText,
  cassette: optionalText,
  // No default here: unset, the kata's own `max_cycles` applies (and the core's default after it).
  maxCycles: z.number().int().min(1).max(100).optional(),
  approvalPolicy: z.partialRecord(z.enum(DANGER_LEVELS), z.enum(APPROVAL_RULE_CHOICES)).default({}),
  approvalTimeoutSeconds: z.number().int().min(5).max(3600).default(300),
  qualityGates: z.array(z.string().min(1)).default([]),
  testTimeoutMs: z.number().int().min(1000).max(3_600_000).default(60_000),
  mcpServers: z.array(mcpServerConfigSchema).default([]),
  agentsDir: optionalText,
  sandbox: z.enum(SANDBOX_MODES).default('auto'),
  sandboxEnvironment: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, 'must be a variable name, or a prefix ending in *'))
    .default([]),
  modelPrices: MODEL_PRICES_SCHEMA.default({}),
});

/** Validated settings. */
export interface ExtensionSettings {
  provider: (typeof PROVIDER_CHOICES)[number];
  model?: string;
  baseUrl?: string;
  ollamaHost?: string;
  /** Cassette file for the replay provider (relative paths are resolved against the workspace). */
  cassette?: string;
  /** Most cycles a run may take, when the person set it; unset, the kata's own `max_cycles` (or the core's 10) applies. */
  maxCycles?: number;
  /** The approval policy as the core's ApprovalPolicy takes it (CRITICAL never `allow`). */
  approvalPolicy: ApprovalPolicyConfig;
  approvalTimeoutMs: number;
  qualityGates: string[];
  testTimeoutMs: number;
  /** MCP servers whose tools join kata sessions (a role sees them when its config lists them). */
  mcpServers: McpServerConfig[];
  /** A folder of role configs (`tester/v1.json`, ...) replacing the bundled ones; relative to the workspace folder. */
  agentsDir?: string;
  /**
   * `auto`: every test run, quality gate and command of a session runs in the OS sandbox (bubblewrap on
   * Linux, sandbox-exec on macOS), or the session does not start; `off`: they run unconfined (only a
   * person's own settings can choose that: the setting is restricted in untrusted workspaces).
   */
  sandbox: PanelSandboxMode;
  /** Variables of the host's environment shown inside the sandbox beyond its allow-list (names, or prefixes ending in `*`). */
  sandboxEnvironment: string[];
  /** USD per million input/output tokens by model id, over the defaults of `modelPrices.ts` (the panel's estimated cost). */
  modelPrices: Record<string, { input: number; output: number }>;
}

/**
 * Settings read only from the person's user settings (their workspace and folder values are ignored, and the manifest
 * gives them `application` scope): a repository's `.vscode/settings.json` must not choose where requests carrying the
 * API key go (`provider`, `baseUrl`, `ollamaHost`), nor turn the sandbox off or let variables into it.
 */
export const USER_ONLY_SETTING_KEYS: ReadonlySet<string> = new Set([
  'provider',
  'baseUrl',
  'ollamaHost',
  'sandbox',
  'sandboxEnvironment',
]);

/** Of the user-only settings, those that choose where a request carrying the API key goes. */
export const KEY_DESTINATION_SETTING_KEYS: ReadonlySet<string> = new Set(['provider', 'baseUrl', 'ollamaHost']);

/**
 * Settings whose manifest default is not applied: only a value the person set counts, otherwise the
 * kata decides (`maxCycles` unset: the kata's own `max_cycles`).
 */
export const SET_ONLY_SETTING_KEYS: ReadonlySet<string> = new Set(['maxCycles']);

/** The part of `vscode.WorkspaceConfiguration` the settings are read through. */
export interface ConfigurationLike {
  get(key: string): unknown;
  inspect(key: string): SettingLayers | undefined;
}

/**
 * The `get(key)` {@link readSettings} takes, over a configuration: user-only keys from the user settings
 * alone (else the manifest default), the approval policy as the person's own made stricter by a workspace's
 * (never looser: {@link combinedApprovalPolicy}), a workspace's MCP servers never below MEDIUM
 * ({@link mcpServersSetting}), set-only keys without the manifest default, every other key as VS Code resolves it.
 */
export function configurationReader(config: ConfigurationLike): (key: string) => unknown {
  return (key) => {
    if (USER_ONLY_SETTING_KEYS.has(key)) {
      const values = config.inspect(key);
      return values?.globalValue ?? values?.defaultValue;
    }
    if (key === 'approvalPolicy') return combinedApprovalPolicy(config.inspect(key));
    if (key === 'mcpServers') return mcpServersSetting(config.inspect(key));
    if (SET_ONLY_SETTING_KEYS.has(key)) {
      const values = config.inspect(key);
      return values?.workspaceFolderValue ?? values?.workspaceValue ?? values?.globalValue;
    }
    return config.get(key);
  };
}

/** Every key read from the configuration. */
export const SETTING_KEYS = Object.keys(extensionSettingsSchema.shape) as Array<keyof typeof extensionSettingsSchema.shape>;

/**
 * Reads and validates the settings through `get(key)` (e.g. `configuration.get(key)`).
 * @throws AgentError CONFIG listing every invalid setting as `tddAgent.<key>: <problem>`.
 */
export function readSettings(get: (key: string) => unknown): ExtensionSettings {
  const raw: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const value = get(key);
    if (value !== undefined && value !== null) raw[key] = value;
  }
  const parsed = extensionSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${SETTINGS_SECTION}.${issue.path.map(String).join('.')}: ${issue.message}`,
    );
    throw new AgentError('CONFIG', `Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`, { problems });
  }
  const s = parsed.data;
  return {
    provider: s.provider,
    ...(s.model ? { model: s.model } : {}),
    ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}),
    ...(s.ollamaHost ? { ollamaHost: s.ollamaHost } : {}),
    ...(s.cassette ? { cassette: s.cassette } : {}),
    ...(s.maxCycles !== undefined ? { maxCycles: s.maxCycles } : {}),
    approvalPolicy: approvalPolicyConfig(s.approvalPolicy),
    approvalTimeoutMs: s.approvalTimeoutSeconds * 1000,
    qualityGates: s.qualityGates,
    testTimeoutMs: s.testTimeoutMs,
    mcpServers: s.mcpServers,
    ...(s.agentsDir ? { agentsDir: s.agentsDir } : {}),
    sandbox: s.sandbox,
    sandboxEnvironment: s.sandboxEnvironment,
    modelPrices: s.modelPrices,
  };
}
