import type { z } from 'zod';
import type { Logger } from '../logging/logger';
import type { ProcessSandbox } from '../osSandbox/types';
import type { ToolCallPreviewMessage } from '../control/messages';
import type { ApprovalOutcome, DangerLevel } from '../vocabulary';

// Danger levels and approval outcomes live in the leaf `vocabulary/` (the control protocol needs them too);
// re-exported here so tool authors find them next to `defineTool`.
export { APPROVAL_OUTCOMES, DANGER_LEVELS, dangerRank, type DangerLevel, type ApprovalOutcome } from '../vocabulary';

/** What a tool works on; used by `ToolRegistry.discoverTools({ category })`. */
export const TOOL_CATEGORIES = ['file', 'search', 'shell', 'git', 'test', 'http', 'mcp', 'custom'] as const;
/** One of {@link TOOL_CATEGORIES}. */
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** What a tool gets besides its parameters. */
export interface ToolContext {
  /**
   * Absolute real path of the workspace root; file tools never leave it. `''` under an agent built without a
   * workspace, which only runs tools that declare they need none (see `toolUsesWorkspace`).
   */
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

/** What a tool's `preview` gets besides the call's parameters. */
export interface ToolPreviewContext {
  /** Absolute real path of the workspace root. */
  workspaceRoot: string;
}

/**
 * What a call would do, shown on the approval card before a person answers: a diff, a command line, an
 * HTTP request, or plain text. Undefined: no preview (the card shows the parameters).
 */
export type ToolPreviewResult = ToolCallPreviewMessage | string | undefined;

/**
 * A tool is one small value: name, description, category, danger level, one zod schema for its
 * parameters (validates the call and is the JSON schema the model sees) and `execute`; optionally a
 * `preview` for approval cards and its own cap on the text it feeds back to the model.
 */
export interface ToolDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  category: ToolCategory;
  dangerLevel: DangerLevel;
  parameters: P;
  /** Runs the call with validated parameters; throw (ideally an AgentError) to report a failure to the model. */
  execute(params: z.infer<P>, context: ToolContext): Promise<ToolOutput | string>;
  /**
   * Says what a call would do before a person approves it, from the validated parameters. It must
   * change nothing; it may read files inside the workspace. Absent: approval cards show no preview.
   */
  preview?(params: z.infer<P>, context: ToolPreviewContext): Promise<ToolPreviewResult> | ToolPreviewResult;
  /** Longest result content this tool feeds back to the model (characters); default: the executor's `maxContentChars`. */
  maxContentChars?: number;
  /**
   * Whether the tool reads, writes or runs anything in the workspace (`context.workspaceRoot`). Default from its
   * category: `file`, `search`, `shell`, `git`, `test` and `custom` do, `http` and `mcp` do not. A custom tool
   * that never touches the workspace says `false`, so an agent given only such tools needs no `workspaceRoot`.
   */
  usesWorkspace?: boolean;
}

/** Categories whose tools work without a workspace unless they say otherwise (see `ToolDefinition.usesWorkspace`). */
const WORKSPACE_FREE_CATEGORIES: ReadonlySet<ToolCategory> = new Set(['http', 'mcp']);

/** Whether `tool` works in a workspace: its own `usesWorkspace`, else every category but `http` and `mcp`. */
export function toolUsesWorkspace(tool: Pick<ToolDefinition, 'category' | 'usesWorkspace'>): boolean {
  return tool.usesWorkspace ?? !WORKSPACE_FREE_CATEGORIES.has(tool.category);
}

/** Identity helper that keeps the parameter type inferred: `defineTool({ ..., parameters: z.object(...) })`. */
export function defineTool<P extends z.ZodType>(definition: ToolDefinition<P>): ToolDefinition<P> {
  return definition;
}

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
  executeCall(call: import('../llm/types').LlmToolCall, options?: ExecuteCallOptions): Promise<ToolCallResult>;
}

/** Options of {@link AgentToolbox.executeCall}. */
export interface ExecuteCallOptions {
  signal?: AbortSignal;
  wrap?: ToolCallWrapper;
  /** Which agent or role asked (audit trail). */
  requestedBy?: string;
  /**
   * The call's arguments when the caller already parsed `call.arguments` into an object (the tool loop does, for its
   * events): used as they are instead of parsing the JSON again. Anything but a plain object is ignored.
   */
  parsedArguments?: unknown;
}
