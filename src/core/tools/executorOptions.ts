/** The options of a ToolExecutor and of one call, and what a tool chain returns. */
import type { ControlProtocol } from '../control/controlProtocol';
import type { ToolCallPreviewMessage } from '../control/messages';
import type { Logger } from '../logging/logger';
import type { ProcessSandbox } from '../osSandbox/types';
import type { ApprovalPolicy } from './approvalPolicy';
import type { ToolRegistry } from './registry';
import type { ToolAuditSink } from './toolAudit';
import type { ToolCallResult, ToolCallWrapper } from './types';

/** Default time a tool may run: 30 s. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** Says what a call would change (a diff, a command line, or text), shown in the approval request. */
export type ToolPreview = (
  toolName: string,
  params: unknown,
  workspaceRoot: string,
) => Promise<ToolCallPreviewMessage | string | undefined> | ToolCallPreviewMessage | string | undefined;

/** Options of a ToolExecutor. */
export interface ToolExecutorOptions {
  registry: ToolRegistry;
  /** Absolute real path of the workspace root, handed to every tool. */
  workspaceRoot: string;
  /** Default: `new ApprovalPolicy()` (SAFE/LOW allowed, the rest asked). */
  policy?: ApprovalPolicy;
  /** Who to ask. Without one, every `ask` verdict is denied ("no one to ask"). */
  control?: ControlProtocol;
  /** Time a person has to answer one approval request (default: the protocol's, 5 min). */
  approvalTimeoutMs?: number;
  /** Previews for approval requests; default: each tool's own `preview` (see `ToolDefinition`); `false`: none. */
  preview?: ToolPreview | false;
  /** The audit trail: one record per call when given. */
  audit?: ToolAuditSink;
  /** Default per-call timeout (30 s). */
  defaultTimeoutMs?: number;
  /** How many recent calls `recentCalls()` keeps (50). */
  memorySize?: number;
  /** Longest result content fed back to the model (100 000 characters; the rest is cut with a marker); a tool's own `maxContentChars` wins. */
  maxContentChars?: number;
  /** A wrapper applied inside the per-call `wrap` of every execution. */
  wrap?: ToolCallWrapper;
  logger?: Logger;
  /** The OS sandbox handed to every tool in its ToolContext (`run_command` runs its command in it). */
  sandbox?: ProcessSandbox;
}

/** Options of one `executeTool` call. */
export interface ExecuteToolOptions {
  /** Milliseconds the tool may run (default: the executor's, 30 s). */
  timeout?: number;
  /** Keep the call in the recent-calls memory (default true). */
  storeInMemory?: boolean;
  signal?: AbortSignal;
  /** Which agent or role asked (audit trail). */
  requestedBy?: string;
  /** The `wrapToolCall` chain composed from the agent's lifecycle hooks. */
  wrap?: ToolCallWrapper;
  /** The model's tool-call id, echoed in the result. */
  callId?: string;
  /** A second audit sink for this call (an agent's own trail), besides the executor's `audit`. */
  audit?: ToolAuditSink;
}

/** One step of a tool chain. */
export interface ToolChainStep {
  name: string;
  params: unknown;
  options?: ExecuteToolOptions;
}

/** What a chain did: every result in order, and where it stopped when it stopped early. */
export interface ToolChainResult {
  results: ToolCallResult[];
  /** True when every executed step succeeded and none was skipped. */
  ok: boolean;
  /** Index of the failing step that stopped the chain (stopOnError only). */
  stoppedAt?: number;
  /** Steps never run because the chain stopped. */
  skipped: string[];
}
