/** What an agent is constructed with: {@link BaseAgentOptions}, the check that refuses unknown or conflicting options, and the agent's id. */
import type { AuditTrail } from '../audit/auditTrail';
import type { ControlProtocol } from '../control/controlProtocol';
import type { LlmClient } from '../llm/types';
import type { PerformanceMetrics } from '../metrics/performanceMetrics';
import type { ApprovalPolicy } from '../tools/approvalPolicy';
import type { ToolExecutor } from '../tools/executor';
import type { ToolRegistry } from '../tools/registry';
import type { BaseAgentConfigInput } from './config';
import type { AgentConfigRef, AgentPromptLoader } from './configPromptSource';
import { AgentSettingsError } from './errors';
import type { AgentEventListener } from './events';
import type { AgentLifecycle } from './lifecycle';
import type { Signature } from './signature';

/** Constructor options of {@link BaseAgent} and every agent built on it. */
export interface BaseAgentOptions {
  /** Answers model calls (from `createAgentRuntime`, `createOpenAIClient`, or a replay client). */
  llm: LlmClient;
  /** Settings, validated with defaults (see BaseAgentConfigSchema). */
  config?: BaseAgentConfigInput;
  /** Default (also for an empty or blank id): `<agent kind>-<n>`. A number is converted to a string. */
  id?: string | number;
  /** Prompt from a code signature (overrides `createSignature()`). */
  signature?: Signature;
  /** Prompt from a JSON agent config in `config/agents` (overrides `agentDefinition()`). */
  agentConfig?: AgentConfigRef;
  /** How config prompts are loaded; default `AgentFactory.create`. */
  promptLoader?: AgentPromptLoader;
  /** Hook sets registered at construction (same as calling `withLifecycle` for each). */
  lifecycle?: AgentLifecycle | readonly AgentLifecycle[];
  /** Shared metrics; with `performanceTracking` and none given, the agent keeps its own. */
  metrics?: PerformanceMetrics;
  /** Audit sink; with `auditTrail` and none given, `config.auditPath` is used. */
  audit?: AuditTrail;
  /** Receives every execution's events. */
  onEvent?: AgentEventListener;
  /**
   * Opt-in tools: the agent builds a `ToolExecutor` over this registry, sharing the agent's `control` protocol,
   * so tool approvals and the agent use one approval channel. Needs `workspaceRoot` when one of its tools works
   * in a workspace (see `toolUsesWorkspace`: file, search, shell, git and test tools, and custom tools that do
   * not declare `usesWorkspace: false`); a registry of http, MCP or such custom tools needs none.
   */
  toolRegistry?: ToolRegistry;
  /**
   * Opt-in tools with an executor you built, used as given. `toolRegistry`, `workspaceRoot` and `toolPolicy` may
   * be given with it only when they are the executor's own (else CONFIG naming both).
   */
  toolExecutor?: ToolExecutor;
  /** Absolute real path of the workspace the tools of `toolRegistry` work in (needed when one of them works in one). */
  workspaceRoot?: string;
  /** Approval policy of the executor built from `toolRegistry` (default: SAFE runs, every other level is asked). */
  toolPolicy?: ApprovalPolicy;
  /** The agent's control protocol (approvals, questions); the executor built from `toolRegistry` uses it. */
  control?: ControlProtocol;
}

/** Every option {@link BaseAgent} itself reads; anything else must be declared by a subclass (`extraOptionKeys`). */
const BASE_OPTION_KEYS: ReadonlySet<string> = new Set([
  'llm',
  'config',
  'id',
  'signature',
  'agentConfig',
  'promptLoader',
  'lifecycle',
  'metrics',
  'audit',
  'onEvent',
  'toolRegistry',
  'toolExecutor',
  'workspaceRoot',
  'toolPolicy',
  'control',
]);

/**
 * Throws CONFIG for an option key neither the base nor the subclass (`extra`, from `extraOptionKeys()`) reads,
 * naming `agentClass` and every known option, and for a signature given together with an agent config.
 */
export function checkAgentOptions(options: BaseAgentOptions, extra: readonly string[], agentClass: string): void {
  const unknown = Object.keys(options).filter((key) => !BASE_OPTION_KEYS.has(key) && !extra.includes(key));
  if (unknown.length > 0) {
    const known = [...BASE_OPTION_KEYS, ...extra].sort().join(', ');
    throw new AgentSettingsError(
      unknown.map((key) => `${key}: not an option of ${agentClass} (options: ${known})`),
      { unknownOptions: unknown },
    );
  }
  if (options.signature && options.agentConfig) {
    throw new AgentSettingsError(['signature, agentConfig: give one prompt definition, not both']);
  }
}

/**
 * An agent's `provider` and `baseURL` settings name where its calls should go; the client it is given decides where
 * they do go. Given, they must agree with the client: a mismatch (an agent configured for Ollama handed an OpenAI
 * client) is refused here, not discovered in the bill.
 */
export function checkClientMatchesConfig(
  config: { provider?: string; baseURL?: string },
  llm: { provider: string; baseURL?: string },
): void {
  const problems: string[] = [];
  if (config.provider !== undefined && config.provider !== llm.provider)
    problems.push(
      `provider: the agent is configured for ${config.provider}, but its llm client talks to ${llm.provider}; create the client for ${config.provider} (createAgentRuntime({ provider: '${config.provider}' })) or drop the setting`,
    );
  const wanted = config.baseURL?.replace(/\/+$/, '');
  if (wanted !== undefined && llm.baseURL !== undefined && wanted !== llm.baseURL)
    problems.push(
      `baseURL: the agent is configured for ${wanted}, but its llm client calls ${llm.baseURL}; create the client with that baseURL or drop the setting`,
    );
  if (problems.length > 0) throw new AgentSettingsError(problems);
}

const counters = new Map<string, number>();

/**
 * The agent's id: the given one as a string (a number is converted), or for an empty, blank or omitted one
 * `<kind>-<n>` (`kind` from `agentKind()`, `agent` when blank), counted per kind. Throws CONFIG for anything else.
 */
export function agentId(kindGiven: unknown, given: unknown): string {
  // 000 EP-2: a non-string id (or agentKind()) is converted to a string; an empty or blank one gives the default.
  const kind = String(kindGiven ?? '').trim() || 'agent';
  const id = ['string', 'number', 'bigint', 'boolean'].includes(typeof given) ? String(given as string) : undefined;
  if (id === undefined || id.length > 200) {
    throw new AgentSettingsError([
      `id: must be a string (a number is converted) of at most 200 characters, or empty / omitted for the default`,
    ]);
  }
  if (id.trim() !== '') return id;
  const n = (counters.get(kind) ?? 0) + 1;
  counters.set(kind, n);
  return `${kind}-${n}`;
}
