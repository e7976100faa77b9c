import { strict as assert } from 'node:assert';
import type { AgentRun } from '../../../src/core/agentRuntime/agentRun';
import type { PreparedPrompt } from '../../../src/core/agentRuntime/promptSource';
import { AgentConfigError, checkAgentConfig, toolEntryProblem, toolNameMatcher } from '../../../src/core/agentsAsData';
import { createToolLoopCycles } from '../../../src/core/agentRuntime/strategies/toolLoop';
import type { LlmResult, LlmToolCall, ToolSpec } from '../../../src/core/llm/types';
import type { AgentToolbox, ToolCallResult } from '../../../src/core/tools/types';
import { validConfig } from './agentFixtures';

const ORIGIN = { file: '/agents/demo/v1.json', agentName: 'demo', version: 'v1' };

function problemsOf(tools: unknown): string[] {
  try {
    checkAgentConfig(JSON.stringify(validConfig({ tools })), ORIGIN);
  } catch (error) {
    assert.ok(error instanceof AgentConfigError, String(error));
    assert.equal(error.error_code, 'CONFIG');
    return error.problems;
  }
  assert.fail('expected the tools list to be rejected');
}

/** A toolbox with these tool names that records what it executed. */
function toolbox(names: string[]): AgentToolbox & { executed: string[] } {
  const executed: string[] = [];
  return {
    executed,
    toolSpecs: (): ToolSpec[] =>
      names.map((name) => ({
        type: 'function',
        function: { name, description: name, parameters: { type: 'object', properties: {} } },
      })),
    async executeCall(call: LlmToolCall): Promise<ToolCallResult> {
      executed.push(call.name);
      return { toolName: call.name, callId: call.id, ok: true, content: 'done', approval: 'auto', durationMs: 0 };
    },
  };
}

const TOOLS = [
  'list_files',
  'read_file',
  'write_file',
  'run_tests',
  'docs__search',
  'docs__fetch',
  'files__read_text_file',
  'docsearch',
];

function prompt(tools?: string[]): PreparedPrompt {
  return { label: 'demo/v1', messages: [{ role: 'system', content: 'x' }], tools } as PreparedPrompt;
}

const run = {
  config: { maxRepairAttempts: 1 },
  observed: false,
  toolCallWrapper: () => undefined,
  emit: () => undefined,
  repairAttempts: 0,
} as unknown as AgentRun;

describe("tool-name patterns in an agent config's tools list", () => {
  it('matches exact names and "prefix*" patterns, nothing else', () => {
    const allows = toolNameMatcher(['read_file', 'docs__*']);
    assert.deepEqual(TOOLS.filter(allows), ['read_file', 'docs__search', 'docs__fetch']);
    assert.equal(toolNameMatcher([])('read_file'), false);
  });

  it('accepts names and prefix patterns in a config', () => {
    const { config } = checkAgentConfig(
      JSON.stringify(validConfig({ tools: ['read_file', 'docs__*', 'files__read_*'] })),
      ORIGIN,
    );
    assert.deepEqual(config.tools, ['read_file', 'docs__*', 'files__read_*']);
  });

  it('rejects a bare "*", a "*" not at the end, and characters no tool name has — each named by its index', () => {
    const problems = problemsOf(['read_file', '*', 'do*cs', 'docs__**', 'my docs*', 'a/b']);
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(problems[0]!, /^tools\[1\]: a bare "\*" is not allowed: give a prefix, e\.g\. "docs__\*"/);
    assert.match(problems[1]!, /^tools\[2\]: "do\*cs": "\*" may appear only at the end/);
    assert.match(problems[2]!, /^tools\[3\]: "docs__\*\*": "\*" may appear only once, at the end/);
    assert.match(problems[3]!, /^tools\[4\]: "my docs\*": the prefix may hold only letters, digits/);
    assert.match(problems[4]!, /^tools\[5\]: "a\/b": a tool name has 1-64 letters/);
  });

  it('still rejects a repeated entry', () => {
    assert.ok(problemsOf(['docs__*', 'docs__*']).includes('tools: must not repeat a tool'));
  });

  it('toolEntryProblem accepts what a matcher can use', () => {
    for (const ok of ['read_file', 'docs__*', 'a*', 'x-y_z']) assert.equal(toolEntryProblem(ok), undefined, ok);
  });
});

describe('the ReAct toolbox filter uses the patterns', () => {
  it('offers the model the tools a pattern matches, and only those', () => {
    const cycles = createToolLoopCycles(
      run,
      prompt(['list_files', 'read_file', 'write_file', 'run_tests', 'docs__*']),
      toolbox(TOOLS),
    );
    const offered = (cycles.modelOptions!(1) as { tools: ToolSpec[] }).tools.map((s) => s.function.name);
    assert.deepEqual(offered, ['list_files', 'read_file', 'write_file', 'run_tests', 'docs__search', 'docs__fetch']);
  });

  it('an exact list offers exactly those tools even when the toolbox holds MCP tools', () => {
    const cycles = createToolLoopCycles(run, prompt(['list_files', 'read_file', 'write_file', 'run_tests']), toolbox(TOOLS));
    const offered = (cycles.modelOptions!(1) as { tools: ToolSpec[] }).tools.map((s) => s.function.name);
    assert.deepEqual(offered, ['list_files', 'read_file', 'write_file', 'run_tests']);
  });

  it('refuses a call to a tool outside the list without executing it, naming the offered tools', async () => {
    const box = toolbox(TOOLS);
    const cycles = createToolLoopCycles(run, prompt(['read_file', 'docs__*']), box);
    const result: LlmResult = {
      text: '',
      toolCalls: [
        { id: 'c1', name: 'files__read_text_file', arguments: '{}' },
        { id: 'c2', name: 'docs__search', arguments: '{}' },
      ],
    } as unknown as LlmResult;
    const steps = await cycles.extractObservation(result, 1);
    assert.deepEqual(box.executed, ['docs__search']);
    assert.match(
      String(steps[0]!.observation),
      /Tool files__read_text_file is not available to this agent; nothing was executed\. Use one of: read_file, docs__search, docs__fetch\./,
    );
  });
});
