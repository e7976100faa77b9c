import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReActAgent } from '../../../src/core/builtinAgents/reactAgent';
import { createOpenAIClient } from '../../../src/core/llm';
import type { LlmClient } from '../../../src/core/llm/types';
import { setLogSink } from '../../../src/core/logging/logger';
import { ApprovalPolicy } from '../../../src/core/tools/approvalPolicy';
import { createWorkspaceTools } from '../../../src/core/tools/builtin';
import { ToolExecutor } from '../../../src/core/tools/executor';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { RegisteredTool } from '../../../src/core/tools/registry';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

/** A chat message as the loopback server records it. */
export type RecordedMessage = {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
};

/** What {@link useWorkspaceLoopback} gives each test: set up before it, removed after it. */
export interface WorkspaceLoopback {
  server: OpenAITestServer;
  /** A temp folder (its real path) the tools work in. */
  workspace: string;
  /** An OpenAI client on the loopback server, no retries. */
  llm(): LlmClient;
  /** An executor over `tools` (default: the workspace tools) in the workspace, writes (MEDIUM) allowed. */
  executor(tools?: readonly RegisteredTool[]): ToolExecutor;
  /** A ReAct agent with that executor, model `m`. */
  agent(): ReActAgent;
}

/**
 * For the describe block it is called in: a fresh loopback OpenAI server and a temp workspace per test (the log
 * silenced), and the agent the ReAct tests build on them. Real tools, real files, the wire format over HTTP.
 */
export function useWorkspaceLoopback(prefix: string): WorkspaceLoopback {
  let restoreSink: ReturnType<typeof setLogSink>;
  const context = {
    llm: () => createOpenAIClient({ baseURL: context.server.baseURL, maxRetries: 0 }),
    executor: (tools: readonly RegisteredTool[] = createWorkspaceTools()) =>
      new ToolExecutor({
        registry: new ToolRegistry().register(...tools),
        workspaceRoot: context.workspace,
        policy: new ApprovalPolicy({ levels: { MEDIUM: 'allow' } }),
      }),
    agent: () => new ReActAgent({ llm: context.llm(), toolbox: context.executor(), config: { model: 'm' } }),
  } as WorkspaceLoopback;
  beforeEach(async () => {
    restoreSink = setLogSink(() => undefined);
    context.server = await startOpenAIServer();
    context.workspace = realpathSync(mkdtempSync(join(tmpdir(), `${prefix}-`)));
  });
  afterEach(async () => {
    await context.server.close();
    rmSync(context.workspace, { recursive: true, force: true });
    setLogSink(restoreSink);
  });
  return context;
}
