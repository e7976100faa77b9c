/**
 * An MCP server as a tool source for ReAct: @modelcontextprotocol/server-filesystem runs over stdio, rooted
 * at a temporary folder. McpHub connects it and registers its tools as `files__<tool>` (category `mcp`, danger
 * level from the config); the agent calls them through the same ToolExecutor and approval policy as built-in tools.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/mcp-tools.ts
 */
import { ApprovalPolicy, createAgentRuntime, McpHub, ReActAgent, ToolExecutor, ToolRegistry } from 'tdd-agent/core';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function main(): Promise<void> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-example-')));
  const registry = new ToolRegistry();
  const hub = new McpHub(registry);
  try {
    await writeFile(join(dir, 'todo.md'), '- fix the login bug\n- write release notes\n');
    const server = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
    // In settings this is { "name": "files", "transport": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", DIR] }.
    const [status] = await hub.connectAll([
      { name: 'files', transport: 'stdio', command: process.execPath, args: [server, dir], dangerLevel: 'SAFE' },
    ]);
    if (status!.state !== 'connected') throw new Error(status!.error?.message ?? 'the MCP server did not connect');
    console.log(
      `mcp server ${status!.serverInfo?.name ?? 'files'}: ${status!.tools.length} tools (${status!.tools.slice(0, 3).join(', ')}, ...)`,
    );

    const toolbox = new ToolExecutor({ registry, workspaceRoot: dir, policy: new ApprovalPolicy() });
    const runtime = await createAgentRuntime({ model: process.env.MODEL });
    const agent = runtime.create(ReActAgent, { toolbox, config: { maxCycles: 6 } });
    const result = await agent.execute({ task: 'List the open items in todo.md.', context: `The files are in ${dir}.` });

    for (const step of result.action_history ?? []) {
      console.log(`tool ${step.action}: ${step.observation.replace(/\n/g, ' | ')}`);
    }
    console.log(`final_answer: ${result.final_answer}`);
  } finally {
    await hub.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: { error_code?: string; message?: string }) => {
  console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
  process.exitCode = 1;
});
