import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { createAgentRuntime } from '../../../src/core/agentRuntime/runtime';
import { QAAgent } from '../../../src/core/builtinAgents/qaAgent';
import { ReActAgent } from '../../../src/core/builtinAgents/reactAgent';
import { clearProviderDetectionCache } from '../../../src/core/llm';
import { useLoopback } from './loopback';

/** A loopback port with nothing listening (a stopped Ollama). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe('createAgentRuntime (framework initialisation)', () => {
  const lb = useLoopback();
  beforeEach(() => clearProviderDetectionCache());

  it('resolves the provider, builds the client and creates agents on it with the resolved model', async () => {
    const runtime = await createAgentRuntime(
      { baseURL: lb.server.baseURL, model: 'served-model' },
      { env: {}, client: { maxRetries: 0 } },
    );
    assert.equal(runtime.provider.model, 'served-model');
    assert.ok(runtime.metrics.snapshot().frameworkInitMs! >= 0);
    const qa = runtime.create(QAAgent, { config: { performanceTracking: true } });
    lb.server.enqueue({ json: { answer: 'a', confidence: 0.5 } });
    const result = await qa.execute({ question: 'q', context: 'c' });
    assert.equal(result.answer, 'a');
    assert.equal(lb.server.chatRequests().at(-1)!.body.model, 'served-model');
    assert.equal(runtime.metrics.snapshot().execution.count, 1);
    assert.equal(runtime.metrics.snapshot().agentCreation.count, 1);
    const react = runtime.create(ReActAgent, { config: { model: 'explicit' } });
    lb.server.enqueue({ text: 'done' });
    await react.execute({ task: 't' });
    assert.equal(lb.server.chatRequests().at(-1)!.body.model, 'explicit');
  });

  it('nothing configured and no Ollama: the clear provider error, not a stack trace', async () => {
    const port = await closedPort();
    await assert.rejects(createAgentRuntime({ ollamaHost: `http://127.0.0.1:${port}` }, { env: {} }), (e: any) => {
      assert.equal(e.error_code, 'PROVIDER_NOT_CONFIGURED');
      assert.match(e.message, /OPENAI_API_KEY/);
      return true;
    });
  });

  it('an explicitly chosen but stopped Ollama gives a typed, actionable error', async () => {
    const port = await closedPort();
    await assert.rejects(
      createAgentRuntime({ provider: 'ollama', ollamaHost: `http://127.0.0.1:${port}` }, { env: {} }),
      (e: any) => {
        assert.ok(typeof e.error_code === 'string');
        assert.match(e.message, /ollama/i);
        assert.ok(!/\n\s+at /.test(e.message), 'no stack trace in the message');
        return true;
      },
    );
  });
});
