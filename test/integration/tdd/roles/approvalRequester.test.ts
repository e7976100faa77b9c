import { strict as assert } from 'node:assert';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlProtocol } from '../../../../src/core/control/controlProtocol';
import { InMemoryTransport } from '../../../../src/core/control/inMemoryTransport';
import type { ApprovalRequestMessage } from '../../../../src/core/control/messages';
import { createOpenAIClient } from '../../../../src/core/llm';
import { setLogSink } from '../../../../src/core/logging/logger';
import { createAgentRoleRunners } from '../../../../src/core/tdd/roles/agentRoleRunner';
import { createBuiltinTools } from '../../../../src/core/tools/builtin';
import { ToolExecutor } from '../../../../src/core/tools/executor';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { startOpenAIServer, type OpenAITestServer } from '../../../support/openaiServer';

/**
 * An approval request says who asks and for which call: a real tester turn (bundled config, ReActAgent, ToolExecutor,
 * write_file) against the loopback server, its write approved through the control protocol. Nobody has to remember
 * whose phase it is to label the card.
 */
describe('TDD roles: an approval request carries the asking role and the tool call id', function () {
  this.timeout(60_000);
  let server: OpenAITestServer;
  let workspace: string;
  let restoreSink: ReturnType<typeof setLogSink>;

  beforeEach(async () => {
    restoreSink = setLogSink(() => undefined);
    server = await startOpenAIServer();
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'approval-requester-')));
  });
  afterEach(async () => {
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
    setLogSink(restoreSink);
  });

  it('the tester’s write_file asks as `tester` with the model’s call id', async () => {
    const transport = new InMemoryTransport();
    const requests: ApprovalRequestMessage[] = [];
    transport.onAgentMessage((message) => {
      if (message.type !== 'approval_request') return;
      requests.push(message);
      transport.decide(message.id, 'approve', 'test');
    });
    const control = new ControlProtocol(transport);
    const runners = createAgentRoleRunners({
      llm: createOpenAIClient({ baseURL: server.baseURL, maxRetries: 0 }),
      model: 'm',
      toolbox: new ToolExecutor({
        registry: new ToolRegistry().register(...createBuiltinTools()),
        workspaceRoot: workspace,
        control,
      }),
      emit: () => undefined,
    });
    server.enqueue(
      { toolCalls: [{ id: 'call_write_1', name: 'write_file', arguments: { path: 'a.test.js', content: 'x\n' } }] },
      { text: 'wrote a test' },
    );
    await runners.tester.runTurn({
      role: 'tester',
      cycle: 1,
      attempt: 1,
      context: 'Write a test.',
      signal: new AbortController().signal,
    });
    control.close();
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.requestedBy, 'tester');
    assert.equal(requests[0]!.callId, 'call_write_1');
  });
});
