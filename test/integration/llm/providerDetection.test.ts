import assert from 'node:assert/strict';
import { AgentError } from '../../../src/core/errors/agentError';
import {
  clearProviderDetectionCache,
  createLlmClient,
  LlmError,
  normalizeOllamaHost,
  probeOllama,
  resolveProvider,
} from '../../../src/core/llm';
import { closedPort, startSilentServer } from '../../support/deadEndpoints';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AgentError, `expected AgentError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

const tagsRequests = (s: OpenAITestServer) => s.requests.filter((r) => r.path === '/api/tags').length;

describe('llm: provider detection (the loopback server plays each role)', () => {
  let server: OpenAITestServer;
  /** An environment where Ollama is absent: OLLAMA_HOST points at a closed port. */
  let noOllama: NodeJS.ProcessEnv;

  beforeEach(async () => {
    clearProviderDetectionCache();
    server = await startOpenAIServer({ models: ['llama3.2:latest', 'qwen2.5-coder'] });
    noOllama = { OLLAMA_HOST: `127.0.0.1:${await closedPort()}` };
  });
  afterEach(async () => {
    await server.close();
  });

  describe('explicit settings win', () => {
    it('provider openai with a base URL and model: no probing at all', async () => {
      const r = await resolveProvider(
        { provider: 'openai', baseURL: server.baseURL + '/', model: 'ft:gpt-4o-mini:acme::1' },
        { OLLAMA_HOST: server.url },
      );
      assert.deepEqual(
        { provider: r.provider, baseURL: r.baseURL, model: r.model, apiKey: r.apiKey },
        { provider: 'openai', baseURL: server.baseURL, model: 'ft:gpt-4o-mini:acme::1', apiKey: undefined },
      );
      assert.match(r.source, /provider openai chosen explicitly/);
      assert.equal(server.requests.length, 0);
    });

    it('a base URL without a model: the first model the server lists', async () => {
      const r = await resolveProvider({ baseURL: server.baseURL, apiKey: 'explicit-key-123' }, noOllama);
      assert.equal(r.provider, 'openai');
      assert.equal(r.model, 'llama3.2:latest');
      assert.equal(r.apiKey, 'explicit-key-123');
      assert.match(r.source, /base URL given explicitly.*first model the server lists/);
      const [list] = server.requests;
      assert.equal(list!.path, '/v1/models');
      assert.equal(list!.headers.authorization, 'Bearer explicit-key-123');
      assert.ok(!r.source.includes('explicit-key-123'));
    });

    it('a base URL whose server lists nothing: the default model', async () => {
      server.models = [];
      const r = await resolveProvider({ baseURL: server.baseURL }, noOllama);
      assert.equal(r.model, 'gpt-4o-mini');
      assert.match(r.source, /default model/);
    });

    it('an explicit API key alone: OpenAI at its default URL, even with Ollama running', async () => {
      const r = await resolveProvider({ apiKey: 'explicit-key-456' }, { OLLAMA_HOST: server.url });
      assert.equal(r.provider, 'openai');
      assert.equal(r.baseURL, 'https://api.openai.com/v1');
      assert.equal(r.model, 'gpt-4o-mini');
      assert.equal(tagsRequests(server), 0);
    });

    it('provider openai at api.openai.com without any key: PROVIDER_NOT_CONFIGURED', async () => {
      const e = await rejection(resolveProvider({ provider: 'openai' }, noOllama));
      assert.equal(e.error_code, 'PROVIDER_NOT_CONFIGURED');
      assert.match(e.message, /OpenAI needs an API key/);
    });

    it('provider ollama with a model: no probe; without one: the first listed', async () => {
      const withModel = await resolveProvider({ provider: 'ollama', model: 'phi3', ollamaHost: server.url }, {});
      assert.deepEqual([withModel.provider, withModel.baseURL, withModel.model], ['ollama', `${server.url}/v1`, 'phi3']);
      assert.equal(server.requests.length, 0);
      const listed = await resolveProvider({ provider: 'ollama' }, { OLLAMA_HOST: server.url, OPENAI_API_KEY: 'env-key-789' });
      assert.equal(listed.provider, 'ollama');
      assert.equal(listed.model, 'llama3.2:latest');
      assert.equal(listed.apiKey, undefined);
      const custom = await resolveProvider({ provider: 'ollama', ollamaHost: server.url, baseURL: `${server.url}/v1/` }, {});
      assert.equal(custom.baseURL, `${server.url}/v1`);
    });

    it('provider ollama that does not answer: says to start it', async () => {
      const e = await rejection(resolveProvider({ provider: 'ollama' }, noOllama));
      assert.equal(e.error_code, 'PROVIDER_NOT_CONFIGURED');
      assert.match(e.message, /Ollama is not answering at .*ollama serve/);
    });

    it('provider replay resolves, but createLlmClient asks for a cassette', async () => {
      const r = await resolveProvider({ provider: 'replay' }, noOllama);
      assert.equal(r.provider, 'replay');
      assert.throws(
        () => createLlmClient(r),
        (e: unknown) => e instanceof AgentError && e.error_code === 'CONFIG' && /cassette/.test(e.message),
      );
    });

    it('an unknown provider name is a CONFIG error', async () => {
      const e = await rejection(resolveProvider({ provider: 'anthropic' as never }, noOllama));
      assert.equal(e.error_code, 'CONFIG');
      assert.match(e.message, /auto, openai, ollama, replay/);
    });
  });

  describe('from the environment', () => {
    it('OPENAI_API_KEY wins over a running Ollama', async () => {
      const r = await resolveProvider({}, { OPENAI_API_KEY: 'env-key-abcdef', OLLAMA_HOST: server.url });
      assert.equal(r.provider, 'openai');
      assert.equal(r.baseURL, 'https://api.openai.com/v1');
      assert.equal(r.apiKey, 'env-key-abcdef');
      assert.match(r.source, /OPENAI_API_KEY is set/);
      assert.equal(tagsRequests(server), 0);
    });

    it('OPENAI_API_KEY with OPENAI_BASE_URL: that server, with the key, answers a call', async () => {
      const env = { OPENAI_API_KEY: 'env-key-ghijkl', OPENAI_BASE_URL: server.baseURL, ...noOllama };
      const r = await resolveProvider({}, env);
      assert.equal(r.baseURL, server.baseURL);
      assert.equal(r.model, 'llama3.2:latest');
      assert.match(r.source, /OPENAI_BASE_URL/);
      server.enqueue({ text: 'pong' });
      const result = await createLlmClient(r, { maxRetries: 0 }).call({
        model: r.model,
        messages: [{ role: 'user', content: 'ping' }],
      });
      assert.equal(result.text, 'pong');
      assert.equal(server.chatRequests()[0]!.headers.authorization, 'Bearer env-key-ghijkl');
    });

    it('OPENAI_BASE_URL alone: an OpenAI-compatible server without a key', async () => {
      const r = await resolveProvider({ model: 'my-model' }, { OPENAI_BASE_URL: server.baseURL, OLLAMA_HOST: server.url });
      assert.equal(r.provider, 'openai');
      assert.equal(r.model, 'my-model');
      assert.equal(r.apiKey, undefined);
      assert.equal(tagsRequests(server), 0);
    });

    it('only Ollama: Ollama at OLLAMA_HOST with its first model, and a call goes through /v1', async () => {
      const r = await resolveProvider({}, { OLLAMA_HOST: server.url });
      assert.equal(r.provider, 'ollama');
      assert.equal(r.baseURL, `${server.url}/v1`);
      assert.equal(r.model, 'llama3.2:latest');
      assert.equal(
        r.source,
        `no OpenAI key or base URL configured; Ollama answered → Ollama at ${server.url}, first listed model llama3.2:latest`,
      );
      server.enqueue({ text: 'from ollama' });
      const client = createLlmClient(r, { maxRetries: 0 });
      assert.equal(client.provider, 'ollama');
      assert.equal((await client.call({ model: r.model, messages: [{ role: 'user', content: 'x' }] })).text, 'from ollama');
      assert.equal(server.chatRequests()[0]!.headers.authorization, 'Bearer ollama');
    });

    it('only Ollama, host without scheme, configured model', async () => {
      const r = await resolveProvider({ model: 'qwen2.5-coder' }, { OLLAMA_HOST: server.url.replace('http://', '') });
      assert.equal(r.provider, 'ollama');
      assert.equal(r.model, 'qwen2.5-coder');
      assert.match(r.source, /configured model qwen2.5-coder/);
    });

    it('an Ollama with no models: a clear error saying to pull one', async () => {
      server.models = [];
      const e = await rejection(resolveProvider({}, { OLLAMA_HOST: server.url }));
      assert.equal(e.error_code, 'PROVIDER_NOT_CONFIGURED');
      assert.match(e.message, /has no models yet.*ollama pull/);
    });

    it('nothing at all: one error naming every way to configure a provider', async () => {
      for (const env of [noOllama, { OLLAMA_HOST: server.url }]) {
        server.ollama = false; // an OpenAI-compatible server is not an Ollama
        const e = await rejection(resolveProvider({ provider: 'auto' }, env));
        assert.equal(e.error_code, 'PROVIDER_NOT_CONFIGURED');
        for (const way of [
          'OPENAI_API_KEY',
          'OPENAI_BASE_URL',
          '--base-url',
          'OLLAMA_HOST',
          'ollama serve',
          "'Set API key'",
          '--provider replay',
          'cassette',
        ]) {
          assert.ok(e.message.includes(way), `the error does not mention ${way}`);
        }
      }
    });

    it('an address that accepts connections but never answers: the probe gives up', async () => {
      const silent = await startSilentServer();
      try {
        const e = await rejection(resolveProvider({}, { OLLAMA_HOST: `127.0.0.1:${silent.port}` }, { probeTimeoutMs: 100 }));
        assert.equal(e.error_code, 'PROVIDER_NOT_CONFIGURED');
      } finally {
        silent.close();
      }
    });
  });

  describe('the Ollama probe', () => {
    it('is cached per host until the cache is cleared', async () => {
      await resolveProvider({}, { OLLAMA_HOST: server.url });
      await resolveProvider({}, { OLLAMA_HOST: server.url });
      assert.equal(tagsRequests(server), 1);
      const other = await startOpenAIServer({ models: ['other-model'] });
      try {
        assert.equal((await resolveProvider({}, { OLLAMA_HOST: other.url })).model, 'other-model');
      } finally {
        await other.close();
      }
      clearProviderDetectionCache();
      await resolveProvider({}, { OLLAMA_HOST: server.url });
      assert.equal(tagsRequests(server), 2);
    });

    it('shares one probe between concurrent callers', async () => {
      const results = await Promise.all([probeOllama(server.url), probeOllama(server.url), probeOllama(server.url)]);
      assert.deepEqual(
        results.map((r) => r.reachable),
        [true, true, true],
      );
      assert.equal(tagsRequests(server), 1);
    });

    it('stops waiting when the caller aborts, with CANCELLED', async () => {
      const controller = new AbortController();
      controller.abort();
      const e = await rejection(resolveProvider({}, { OLLAMA_HOST: server.url }, { signal: controller.signal }));
      assert.equal(e.error_code, 'CANCELLED');
      const silent = await startSilentServer();
      try {
        const late = new AbortController();
        const pending = rejection(resolveProvider({}, { OLLAMA_HOST: `127.0.0.1:${silent.port}` }, { signal: late.signal }));
        late.abort();
        assert.equal((await pending).error_code, 'CANCELLED');
      } finally {
        silent.close();
      }
    });
  });

  describe('OLLAMA_HOST forms', () => {
    it('normalises host, host:port, scheme and 0.0.0.0', () => {
      assert.equal(normalizeOllamaHost(undefined), 'http://127.0.0.1:11434');
      assert.equal(normalizeOllamaHost('  '), 'http://127.0.0.1:11434');
      assert.equal(normalizeOllamaHost('gpu-box'), 'http://gpu-box:11434');
      assert.equal(normalizeOllamaHost('gpu-box:8080'), 'http://gpu-box:8080');
      assert.equal(normalizeOllamaHost('0.0.0.0'), 'http://127.0.0.1:11434');
      assert.equal(normalizeOllamaHost('http://gpu-box:80/'), 'http://gpu-box');
      assert.equal(normalizeOllamaHost('https://ollama.example.com'), 'https://ollama.example.com');
      assert.equal(normalizeOllamaHost('http://[::1]'), 'http://[::1]:11434');
    });

    it('rejects nonsense with a CONFIG error', async () => {
      assert.throws(
        () => normalizeOllamaHost('http://bad host:x'),
        (e: unknown) => e instanceof AgentError && e.error_code === 'CONFIG',
      );
      assert.throws(
        () => normalizeOllamaHost('ftp://box'),
        (e: unknown) => e instanceof AgentError && e.error_code === 'CONFIG',
      );
      const e = await rejection(resolveProvider({ ollamaHost: 'ftp://box' }, {}));
      assert.equal(e.error_code, 'CONFIG');
    });

    it('an unknown model on a detected Ollama ends in a typed error on the first call', async () => {
      server.enqueue({ error: { status: 404, message: "model 'missing' not found, try pulling it first" } });
      const r = await resolveProvider({ provider: 'ollama', model: 'missing', ollamaHost: server.url }, {});
      await assert.rejects(createLlmClient(r, { maxRetries: 0 }).call({ model: r.model, messages: [] }), (e: unknown) => {
        assert.ok(e instanceof LlmError);
        assert.equal(e.error_code, 'INVALID_REQUEST');
        assert.match(e.message, /ollama pull missing/);
        return true;
      });
    });
  });
});
