import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '../../../../src/core/llm';
import { setLogSink } from '../../../../src/core/logging/logger';
import type { SupervisorEvent } from '../../../../src/core/tdd/events';
import { createAgentRoleRunners } from '../../../../src/core/tdd/roles/agentRoleRunner';
import { ApprovalPolicy } from '../../../../src/core/tools/approvalPolicy';
import { createBuiltinTools } from '../../../../src/core/tools/builtin';
import { ToolExecutor } from '../../../../src/core/tools/executor';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { startOpenAIServer, type OpenAITestServer } from '../../../support/openaiServer';

/** write_file calls for files `from` .. `to - 1` (t000.txt, t001.txt, ...), ids unique per `tag`. */
function writes(tag: string, from: number, to: number, content = 'x\n') {
  return Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return { id: `${tag}_${i}`, name: 'write_file', arguments: { path: `t${String(i).padStart(3, '0')}.txt`, content } };
  });
}

/**
 * The files-per-turn budget of the TDD roles: a real tester turn (bundled config, real ReActAgent, real
 * ToolExecutor and write_file on a temp workspace) against the loopback server.
 */
describe('TDD roles: at most N distinct files written per turn', function () {
  this.timeout(60_000);
  let server: OpenAITestServer;
  let workspace: string;
  let restoreSink: ReturnType<typeof setLogSink>;
  let events: SupervisorEvent[];

  beforeEach(async () => {
    restoreSink = setLogSink(() => undefined);
    server = await startOpenAIServer();
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'files-per-turn-')));
    events = [];
  });
  afterEach(async () => {
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
    setLogSink(restoreSink);
  });

  const runners = (maxFilesPerTurn?: number) =>
    createAgentRoleRunners({
      llm: createOpenAIClient({ baseURL: server.baseURL, maxRetries: 0 }),
      model: 'm',
      toolbox: new ToolExecutor({
        registry: new ToolRegistry().register(...createBuiltinTools()),
        workspaceRoot: workspace,
        policy: new ApprovalPolicy({ levels: { MEDIUM: 'allow' } }),
      }),
      emit: (e) => void events.push(e),
      ...(maxFilesPerTurn !== undefined ? { maxFilesPerTurn } : {}),
    });
  const turn = (cycle: number) => ({
    role: 'tester' as const,
    cycle,
    attempt: 1,
    context: 'Write the tests.',
    signal: new AbortController().signal,
  });

  it('writes the first 50 distinct files of a turn, refuses the rest with a message, still allows rewriting those 50', async () => {
    server.enqueue(
      { toolCalls: writes('a', 0, 30) },
      { toolCalls: writes('b', 30, 60) },
      // t000.txt again (allowed, already written this turn), as ./t001.txt (the same file), and one more new file.
      {
        toolCalls: [
          ...writes('c', 0, 1, 'rewritten\n'),
          { id: 'c_dot', name: 'write_file', arguments: { path: './t001.txt', content: 'dot\n' } },
          ...writes('c', 70, 71),
        ],
      },
      { text: 'wrote tests' },
    );
    const result = await runners().tester.runTurn(turn(1));
    assert.equal(result.report, 'wrote tests');

    const files = readdirSync(workspace).sort();
    assert.equal(files.length, 50);
    assert.deepEqual(
      files,
      writes('x', 0, 50).map((c) => c.arguments.path),
    );
    assert.equal(readFileSync(join(workspace, 't000.txt'), 'utf8'), 'rewritten\n');
    assert.equal(readFileSync(join(workspace, 't001.txt'), 'utf8'), 'dot\n');

    const toolMessages = server
      .chatRequests()
      .flatMap((r) => r.body.messages)
      .filter((m: { role: string }) => m.role === 'tool');
    const byId = new Map<string, string>(
      toolMessages.map((m: { tool_call_id: string; content: string }) => [m.tool_call_id, m.content]),
    );
    for (const id of ['b_50', 'b_59', 'c_70']) {
      assert.match(byId.get(id)!, /Not executed: one turn may write at most 50 different files/);
      assert.match(byId.get(id)!, /Nothing was written/);
    }
    const refusedEvents = events.filter((e) => e.type === 'tool_called' && !e.ok);
    assert.equal(refusedEvents.length, 11);
  });

  it('counts afresh in each turn and takes its limit from maxFilesPerTurn', async () => {
    const { tester } = runners(2);
    server.enqueue(
      { toolCalls: writes('a', 0, 3) },
      { text: 'first turn' },
      { toolCalls: writes('b', 3, 5) },
      { text: 'second turn' },
    );
    await tester.runTurn(turn(1));
    assert.deepEqual(readdirSync(workspace).sort(), ['t000.txt', 't001.txt']);
    await tester.runTurn(turn(2));
    assert.deepEqual(readdirSync(workspace).sort(), ['t000.txt', 't001.txt', 't003.txt', 't004.txt']);
  });

  it('refuses a maxFilesPerTurn below 1 as CONFIG', () => {
    assert.throws(
      () => runners(0),
      (e: any) => e.error_code === 'CONFIG' && /maxFilesPerTurn/.test(e.message),
    );
  });
});
