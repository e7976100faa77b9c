/**
 * ReAct with the built-in tools in a temporary workspace. The model acts through tool calls (read_file,
 * write_file, run_command, ...); every call goes through the ToolExecutor and its ApprovalPolicy.
 * `autoApproveUpTo: 'MEDIUM'` is the CLI's `--yes`: reads and file writes run without asking; HIGH calls
 * (run_command, delete_file) still need a person, and with no one to ask (no ControlProtocol) they are refused.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/react-tools.ts
 */
import { ApprovalPolicy, createAgentRuntime, createBuiltinTools, ReActAgent, ToolExecutor, ToolRegistry } from 'tdd-agent/core';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function main(): Promise<void> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), 'react-example-')));
  try {
    await writeFile(join(workspace, 'notes.txt'), 'Meeting moved to Thursday 10:00, room B.\nBring the Q3 numbers.\n');
    const registry = new ToolRegistry().register(...createBuiltinTools());
    const toolbox = new ToolExecutor({
      registry,
      workspaceRoot: workspace,
      policy: new ApprovalPolicy({ autoApproveUpTo: 'MEDIUM' }),
    });

    const runtime = await createAgentRuntime({ model: process.env.MODEL });
    const agent = runtime.create(ReActAgent, { toolbox, config: { maxCycles: 8 } });
    const result = await agent.execute({ task: 'Read notes.txt and write a one-line summary of it to summary.txt.' });

    for (const step of result.action_history ?? []) {
      console.log(`tool ${step.action}: ${step.observation.split('\n')[0]}`);
    }
    console.log(`final_answer: ${result.final_answer}`);
    console.log(`terminationReason: ${result.metadata.terminationReason} after ${result.metadata.cycles ?? 0} cycles`);
    const summary = await readFile(join(workspace, 'summary.txt'), 'utf8').catch(() => '(not written)');
    console.log(`summary.txt: ${summary.trim()}`);
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

main().catch((error: { error_code?: string; message?: string }) => {
  console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
  process.exitCode = 1;
});
