import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '../../../src/core/llm';
import type { LlmCallOptions } from '../../../src/core/llm/types';
import { ReplayLlmClient, RecordingLlmClient, readCassette } from '../../../src/core/replay';
import { isAgentError } from '../../../src/core/errors/agentError';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

const request = (extra: Partial<LlmCallOptions> = {}): LlmCallOptions => ({
  model: 'test-model',
  messages: [
    { role: 'system', content: 'agent: tester/v1\nYou write tests.' },
    { role: 'user', content: `context at ${Date.now()}` },
  ],
  tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: {} } } }],
  ...extra,
});

describe('record and replay', () => {
  let server: OpenAITestServer;
  let dir: string;
  beforeEach(async () => {
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'cassette-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('records real exchanges and replays them without a server', async () => {
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'a.js' } }] }, { text: 'done' });
    const path = join(dir, 'session.json');
    const recorder = new RecordingLlmClient(
      createOpenAIClient({ baseURL: server.baseURL, apiKey: 'sk-test-recording-key-123' }),
      path,
      'unit test',
    );
    const first = await recorder.call(request());
    const second = await recorder.call(
      request({
        messages: [
          ...request().messages,
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'file text' },
        ],
      }),
    );
    assert.equal(first.toolCalls[0]!.name, 'read_file');
    assert.equal(second.text, 'done');

    const raw = await readFile(path, 'utf8');
    assert.ok(!raw.includes('sk-test-recording-key-123'), 'the API key must never reach a cassette');
    const cassette = await readCassette(path);
    assert.equal(cassette.exchanges.length, 2);
    assert.equal(cassette.exchanges[0]!.request.agent, 'tester/v1');

    await server.close();
    const replay = await ReplayLlmClient.fromFile(path);
    const r1 = await replay.call(request());
    assert.deepEqual(r1.toolCalls, first.toolCalls);
    assert.equal(replay.remaining, 1);
  });

  it('fails clearly when the conversation diverges or runs past the end', async () => {
    server.enqueue({ text: 'one' });
    const path = join(dir, 'c.json');
    const recorder = new RecordingLlmClient(createOpenAIClient({ baseURL: server.baseURL, apiKey: 'x-key-123456' }), path);
    await recorder.call(request());

    const replay = await ReplayLlmClient.fromFile(path);
    await assert.rejects(
      replay.call(
        request({
          messages: [
            { role: 'system', content: 'agent: implementer/v1' },
            { role: 'user', content: 'x' },
          ],
        }),
      ),
      (err: unknown) =>
        isAgentError(err) && err.error_code === 'REPLAY_DIVERGED' && /exchange 1/.test(err.message) && /agent/.test(err.message),
    );
    await replay.call(request());
    await assert.rejects(
      replay.call(request()),
      (err: unknown) => isAgentError(err) && err.error_code === 'REPLAY_DIVERGED' && /past the end/.test(err.message),
    );
  });

  it('rejects a missing or malformed cassette with a CONFIG error', async () => {
    await assert.rejects(
      ReplayLlmClient.fromFile(join(dir, 'nope.json')),
      (err: unknown) => isAgentError(err) && err.error_code === 'CONFIG',
    );
    await writeFile(join(dir, 'bad.json'), '{"format":"something-else"}');
    await assert.rejects(
      ReplayLlmClient.fromFile(join(dir, 'bad.json')),
      (err: unknown) => isAgentError(err) && err.error_code === 'CONFIG' && /not a tdd-agent cassette/.test(err.message),
    );
    await writeFile(join(dir, 'broken.json'), '{not json');
    await assert.rejects(
      ReplayLlmClient.fromFile(join(dir, 'broken.json')),
      (err: unknown) => isAgentError(err) && /not valid JSON/.test(err.message),
    );
  });
});
