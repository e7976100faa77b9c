import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getLogger } from '../../../../../src/core/logging/logger';
import type { DangerLevel, ToolContext, ToolDefinition, ToolOutput } from '../../../../../src/core/tools/types';

/** A real temp folder used as a workspace root, removed by `cleanup`. */
export interface TempWorkspace {
  /** Real path of the workspace root. */
  root: string;
  /** A temp folder next to (outside) the workspace, for escape targets. */
  outside: string;
  context(overrides?: Partial<ToolContext>): ToolContext;
  cleanup(): Promise<void>;
}

/** Creates a workspace and an outside folder under one temp parent. */
export async function createTempWorkspace(prefix = 'c1-ws-'): Promise<TempWorkspace> {
  const parent = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  const root = path.join(parent, 'workspace');
  const outside = path.join(parent, 'outside');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(root);
  await mkdir(outside);
  return {
    root,
    outside,
    context: (overrides = {}) => ({
      workspaceRoot: root,
      signal: new AbortController().signal,
      logger: getLogger('test.tools'),
      ...overrides,
    }),
    cleanup: () => rm(parent, { recursive: true, force: true }),
  };
}

/** Runs a tool the way the executor does: the schema parses the raw params first. */
export async function callTool(tool: ToolDefinition, params: unknown, context: ToolContext): Promise<ToolOutput> {
  const parsed = tool.parameters.parse(params);
  const out = await tool.execute(parsed, context);
  return typeof out === 'string' ? { content: out } : out;
}

/** Records escalation requests and answers them with `answer`. */
export function escalation(answer: boolean | Error): {
  asked: Array<{ level: DangerLevel; reason: string }>;
  requestEscalation: (level: DangerLevel, reason: string) => Promise<boolean>;
} {
  const asked: Array<{ level: DangerLevel; reason: string }> = [];
  return {
    asked,
    requestEscalation: async (level, reason) => {
      asked.push({ level, reason });
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}
