import { strict as assert } from 'node:assert';
import { FROM_TEXT_NOTE } from '../../../../src/core/agentRuntime/strategies/toolLoop';
import { SessionSummarySchema } from '../../../../src/core/tdd/sessionSummary';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import type { TextCallFormat } from '../../../support/scriptedKataModel';
import { assertThreeGreenCyclesThenComplete, savedSession, SessionHarness } from './sessionHarness';

type Message = { role: string; content?: string | null; tool_calls?: unknown[] };

// Issue 27, "local models that call tools in text": a model served without a tool parser (Ollama, LM Studio, vLLM)
// writes every tool call into its text. Over the real wire, in each format such models use, the FizzBuzz session
// completes green, every call is counted, and the model is told each time that its call was read from its text.
describe('TDD supervisor: a local model that writes its tool calls as text (loopback server)', function () {
  this.timeout(180_000);
  const h = new SessionHarness({ wire: true });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  const formats: Array<{ format: TextCallFormat; streamed: boolean }> = [
    { format: 'hermes', streamed: true },
    { format: 'json', streamed: false },
    { format: 'fenced', streamed: false },
    { format: 'list', streamed: true },
  ];
  for (const { format, streamed } of formats) {
    it(`completes FizzBuzz green with ${format} text calls (${streamed ? 'streamed' : 'not streamed'})`, async () => {
      const { summary, events } = await h.run({ cycles: fizzbuzzJs(3), textCalls: format }, { streamRoleText: streamed });

      assertThreeGreenCyclesThenComplete(summary);
      SessionSummarySchema.parse(summary);
      assert.equal(summary.totals.commits, 4, 'three green commits and one refactor commit');

      // The server never sent a tool call: every one the roles made was read from the text, and each was counted.
      const requests = h.server.chatRequests();
      assert.ok(
        requests.every((r) => Array.isArray(r.body.tools) && r.body.tools.length > 0),
        'every request offered tools',
      );
      const toolCalls = events.filter((e) => e.type === 'tool_called').length;
      const fromText = events.reduce((n, e) => n + (e.type === 'model_called' ? (e.toolCallsFromText ?? 0) : 0), 0);
      // Three Tester writes and three Implementer writes (each ends its turn), the Refactorer's write and run_tests.
      assert.equal(toolCalls, 8);
      assert.equal(fromText, toolCalls);
      assert.equal(summary.totals.toolCallsFromText, toolCalls);
      assert.equal((await savedSession(h.workspace, summary)).metrics.toolCallsFromText, toolCalls);

      // Each call went back as a real tool call, its tool message opening with the one-line note; the role's words
      // (its report) reached the supervisor without the call text.
      const tools = requests.flatMap((r) => (r.body.messages as Message[]).filter((m) => m.role === 'tool'));
      assert.ok(tools.length > 0);
      for (const tool of tools) assert.equal(String(tool.content).split('\n')[0], FROM_TEXT_NOTE);
      const assistants = requests.flatMap((r) => (r.body.messages as Message[]).filter((m) => m.role === 'assistant'));
      assert.ok(assistants.every((m) => Array.isArray(m.tool_calls) && m.tool_calls.length > 0));
      for (const e of events) {
        if (e.type === 'role_message') assert.doesNotMatch(e.text, /tool_call|"arguments"|"parameters"|```/, e.text);
      }
    });
  }

  it('the in-process scripted client reads text calls as the OpenAI client does', async () => {
    const inProcess = new SessionHarness();
    await inProcess.setUp();
    try {
      const { summary } = await inProcess.run({ cycles: fizzbuzzJs(1), textCalls: 'hermes' });
      assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
      assert.equal(summary.totals.toolCallsFromText, 2);
    } finally {
      await inProcess.cleanup();
    }
  });
});
