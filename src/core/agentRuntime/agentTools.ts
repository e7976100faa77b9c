/** An agent's opt-in tools: the executor it is given or builds from its options, and what its tool calls run with. */
import { toolCallAuditSink, type AuditTrail } from '../audit/auditTrail';
import { AgentError } from '../errors/agentError';
import { ToolExecutor, type ExecuteToolOptions, type ToolChainStep } from '../tools/executor';
import type { ToolDiscoveryQuery, ToolRegistry } from '../tools/registry';
import { toolUsesWorkspace, type ToolCallWrapper } from '../tools/types';
import type { BaseAgentOptions } from './agentOptions';
import { AgentSettingsError } from './errors';
import type { HookRunner } from './hookRunner';

/** Options of {@link BaseAgent.discoverTools}: every given filter must match. */
export type ToolDiscoveryOptions = Pick<ToolDiscoveryQuery, 'category' | 'safeOnly' | 'keyword'>;

/**
 * Options of {@link BaseAgent.executeTool}. `storeInMemory` defaults to false here (003: `store_in_memory: bool
 * = False`): a call lands in the executor's recent-calls memory only when asked.
 */
export type AgentToolCallOptions = Pick<ExecuteToolOptions, 'timeout' | 'storeInMemory' | 'signal'>;

/**
 * The executor-level wrapper of an agent built without a workspace: a call of a tool that works in one (a tool
 * registered after the agent was built) fails with CONFIG before the tool runs.
 */
function refuseWorkspaceTools(registry: ToolRegistry): ToolCallWrapper {
  return (toolName, next) => {
    const tool = registry.get(toolName);
    if (tool && toolUsesWorkspace(tool)) {
      throw new AgentError(
        'CONFIG',
        `${toolName} works in a workspace and this agent was built without workspaceRoot; nothing was executed or changed.`,
        { tool: toolName },
      );
    }
    return next();
  };
}

/**
 * The agent's executor: `toolExecutor` as given (what else is given must agree with it), one built over
 * `toolRegistry` (sharing the agent's `control`), or none. Throws CONFIG for options that do not fit together.
 */
export function createAgentToolExecutor(options: BaseAgentOptions): ToolExecutor | undefined {
  const { toolRegistry, toolExecutor, workspaceRoot, toolPolicy } = options;
  if (toolExecutor !== undefined) {
    if (!(toolExecutor instanceof ToolExecutor)) throw new AgentSettingsError(['toolExecutor: must be a ToolExecutor']);
    // 003 D2: the executor is used as given; what else is given must agree with it (its registry, workspace, policy).
    const problems: string[] = [];
    if (toolRegistry !== undefined && toolRegistry !== toolExecutor.registry)
      problems.push('toolRegistry, toolExecutor: the executor works on another registry; give one, not both');
    if (workspaceRoot !== undefined && workspaceRoot !== toolExecutor.workspaceRoot)
      problems.push(`workspaceRoot, toolExecutor: the executor works in ${toolExecutor.workspaceRoot}, not in ${workspaceRoot}`);
    if (toolPolicy !== undefined && toolPolicy !== toolExecutor.policy)
      problems.push('toolPolicy: only applies with toolRegistry (a given toolExecutor has its own)');
    if (problems.length > 0) throw new AgentSettingsError(problems);
    return toolExecutor;
  }
  if (toolRegistry === undefined) {
    const unused = (['workspaceRoot', 'toolPolicy'] as const).filter((key) => options[key] !== undefined);
    if (unused.length > 0) throw new AgentSettingsError(unused.map((key) => `${key}: only applies with toolRegistry`));
    return undefined;
  }
  if (typeof toolRegistry?.discoverTools !== 'function') throw new AgentSettingsError(['toolRegistry: must be a ToolRegistry']);
  if (workspaceRoot !== undefined && (typeof workspaceRoot !== 'string' || workspaceRoot === '')) {
    throw new AgentSettingsError(['workspaceRoot: must be the absolute path of the workspace the tools work in']);
  }
  if (workspaceRoot === undefined) {
    // 003: the executor comes from the registry alone, unless a tool works in a workspace.
    const needing = toolRegistry
      .list()
      .filter(toolUsesWorkspace)
      .map((tool) => tool.name);
    if (needing.length > 0) {
      const shown = needing.length > 5 ? `${needing.slice(0, 5).join(', ')} and ${needing.length - 5} more` : needing.join(', ');
      throw new AgentSettingsError(
        [
          `workspaceRoot: toolRegistry needs the absolute path of the workspace the tools work in (${shown} work in one; a custom tool that does not declares usesWorkspace: false)`,
        ],
        { toolsNeedingWorkspace: needing },
      );
    }
  }
  return new ToolExecutor({
    registry: toolRegistry,
    // No workspace: tools that declare they need none get '' (a path that resolves to nothing), and a tool that
    // needs one (registered after the agent was built) is refused before it runs.
    workspaceRoot: workspaceRoot ?? '',
    policy: toolPolicy,
    control: options.control,
    ...(workspaceRoot === undefined ? { wrap: refuseWorkspaceTools(toolRegistry) } : {}),
  });
}

/** `executor`, or CONFIG saying agent `agentId` has no tools for `method`. */
export function requireAgentTools(executor: ToolExecutor | undefined, agentId: string, method: string): ToolExecutor {
  if (executor) return executor;
  throw new AgentError(
    'CONFIG',
    `${method}: agent ${agentId} has no tools. Construct it with { toolRegistry, workspaceRoot } or { toolExecutor }.`,
    { agentId, method },
  );
}

/** The executor options of one tool call of agent `agentId`: its hooks' wrapper, its audit trail, no memory unless asked. */
export function agentToolCallOptions(
  agentId: string,
  options: AgentToolCallOptions,
  hooks: HookRunner | undefined,
  audit: AuditTrail | undefined,
): ExecuteToolOptions {
  const { timeout, storeInMemory, signal } = options;
  return {
    timeout,
    storeInMemory: storeInMemory ?? false,
    signal,
    requestedBy: agentId,
    wrap: hooks?.toolCallWrapper(),
    ...(audit ? { audit: toolCallAuditSink(audit, agentId) } : {}),
  };
}

/** The steps of a tool chain of agent `agentId`, each with the options of {@link agentToolCallOptions}; VALIDATION for a non-array. */
export function agentChainSteps(
  agentId: string,
  steps: readonly ToolChainStep[],
  hooks: HookRunner | undefined,
  audit: AuditTrail | undefined,
): ToolChainStep[] {
  if (!Array.isArray(steps))
    throw new AgentError('VALIDATION', 'steps: executeToolChain takes an array of { name, params } steps.', {});
  const wrap = hooks?.toolCallWrapper();
  const sink = audit ? toolCallAuditSink(audit, agentId) : undefined;
  return steps.map((step) => ({
    ...step,
    options: {
      storeInMemory: false,
      ...step?.options,
      requestedBy: agentId,
      ...(wrap ? { wrap } : {}),
      ...(sink ? { audit: sink } : {}),
    },
  }));
}
