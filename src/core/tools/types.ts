import type { z } from 'zod';
import type { Logger } from '../logging/logger';
import type { ProcessSandbox } from '../osSandbox/types';

/** How much harm a tool call can do, lowest first: reads, scratch changes, file writes, commands, outside the workspace. */
export const DANGER_LEVELS = ['SAFE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
/** One of {@link DANGER_LEVELS}. */
export type DangerLevel = (typeof DANGER_LEVELS)[number];

/** Orders danger levels: `dangerRank('HIGH') > dangerRank('MEDIUM')`. */
export function dangerRank(level: DangerLevel): number {
  return DANGER_LEVELS.indexOf(level);
}

/** What a tool works on; used by `ToolRegistry.discoverTools({ category })`. */
export const TOOL_CATEGORIES = ['file', 'search', 'shell', 'git', 'test', 'http', 'mcp', 'custom'] as const;
/** One of {@link TOOL_CATEGORIES}. */
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** What a tool gets besides its parameters. */
export interface ToolContext {
  /** Absolute real path of the workspace root; file tools never leave it. */
  workspaceRoot: string;
  signal: AbortSignal;
  logger: Logger;
  /**
   * Asks for a one-off escalation (e.g. writing under `.vscode/` needs HIGH approval).
   * Resolves true when approved; absent means "no one to ask" and the tool must refuse.
   */
  requestEscalation?: (level: DangerLevel, reason: string) => Promise<boolean>;
  /** The OS sandbox that commands started by a tool (`run_command`) run in; absent: unconfined. */
  sandbox?: ProcessSandbox;
}

/** What a tool returns: text for the model, optional structured data for the host (panel, supervisor). */
export interface ToolOutput {
  content: string;
  data?: unknown;
}

/**
 * A tool is one small value: name, description, category, danger level, one zod schema for its
 * parameters (validates the call and is the JSON schema the model sees) and `execute`.
 */
export interface ToolDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  category: ToolCategory;
  dangerLevel: DangerLevel;
  parameters: P;
  /** Runs the call with validated parameters; throw (ideally an AgentError) to report a failure to the model. */
  execute(params: z.infer<P>, context: ToolContext): Promise<ToolOutput | string>;
}

/** Identity helper that keeps the parameter type inferred: `defineTool({ ..., parameters: z.object(...) })`. */
export function defineTool<P extends z.ZodType>(definition: ToolDefinition<P>): ToolDefinition<P> {
  return definition;
}

/**
 * How a call was approved or refused: `auto` by policy or `--yes`, `approved` / `always` by a person,
 * `denied` by a person (or no one to ask), `timeout` when nobody answered, `policy_denied` by a `deny` rule.
 */
export type ApprovalOutcome = 'auto' | 'approved' | 'always' | 'denied' | 'timeout' | 'policy_denied';

/** The outcome of one tool call as the agent, the hooks and the audit trail see it. */
export interface ToolCallResult {
  toolName: string;
  callId?: string;
  ok: boolean;
  /** Text fed back to the model as the tool message. Always present, also on errors and denials. */
  content: string;
  data?: unknown;
  error?: { error_code: string; message: string };
  approval: ApprovalOutcome;
  approvedBy?: string;
  durationMs: number;
}

/** A `wrapToolCall` chain already composed by the agent from its lifecycle hooks. */
export type ToolCallWrapper = (toolName: string, next: () => Promise<ToolCallResult>, params: unknown) => Promise<ToolCallResult>;

/**
 * The seam between an agent and tool execution: the specs the model sees and a way to run one
 * model-issued call. The ToolExecutor implements it; a ReAct agent only needs this.
 * `executeCall` never throws for a bad call (unknown tool, malformed JSON, schema failure, denial):
 * it returns a ToolCallResult with ok=false whose content tells the model what went wrong.
 */
export interface AgentToolbox {
  /** The OpenAI function tools the model is offered. */
  toolSpecs(): import('../llm/types').ToolSpec[];
  /** Runs one model-issued call; never throws for a bad call (see above). */
  executeCall(
    call: import('../llm/types').LlmToolCall,
    options?: { signal?: AbortSignal; wrap?: ToolCallWrapper; requestedBy?: string },
  ): Promise<ToolCallResult>;
}
