import { buildLlmError, modelNotServed, type LlmCallContext } from '../../src/core/llm/llmError';
import { withToolCallsFromText } from '../../src/core/llm/textToolCalls';
import type { LlmCallOptions, LlmClient, LlmResult } from '../../src/core/llm/types';
import type { RecordedRequest, ScriptedReply } from './openaiServer';

/**
 * An in-process `LlmClient` that answers from the same scripts as the loopback server
 * (`scriptedKataModel(...).reply`, `{ text }`, `{ toolCalls }`, `{ json }`, `{ fencedJson }`, `{ hang }`),
 * without HTTP. For tests of the supervisor's logic (what a role is told, what is committed, reverted or
 * retried), where the wire format is not the subject: it saves a socket, a JSON round trip and the SDK per
 * model turn. Wire faults (HTTP errors, resets, cut streams, huge bodies) stay with `startOpenAIServer()`,
 * as do the `llm/` layer, the CLI, the examples and the end-to-end tests.
 *
 * Every call is recorded as the request body `createOpenAIClient` would send (`model`, `messages`,
 * `tools`, `tool_choice`, `response_format`, `temperature`, `max_tokens`), so assertions written against
 * `server.chatRequests()` read the same fields. Cancellation behaves as the OpenAI client's: an aborted
 * signal is an `LlmError` `CANCELLED`.
 */
export interface ScriptedLlmClient extends LlmClient {
  /** Every call in order, shaped as the loopback server records a `POST /v1/chat/completions`. */
  requests: RecordedRequest[];
  /** Only the chat calls (all of `requests` but the `checkModel` look-ups). */
  chatRequests(): RecordedRequest[];
  /** Queues replies (FIFO, each used once). */
  enqueue(...replies: ScriptedReply[]): void;
  /** Reply used when the queue is empty; `undefined` restores the default (a thrown "no scripted reply"). */
  setFallback(reply: ScriptedReply | undefined): void;
  /** Model ids `checkModel` accepts (mutable; empty: any). */
  models: string[];
}

const BASE_URL = 'in-process://scripted';

/** Creates the client; `models` are what the preflight (`checkModel`) accepts (default `test-model`). */
export function createScriptedLlmClient(options: { models?: string[] } = {}): ScriptedLlmClient {
  const queue: ScriptedReply[] = [];
  let fallback: ScriptedReply | undefined;
  let counter = 0;

  const client: ScriptedLlmClient = {
    provider: 'openai',
    requests: [],
    models: [...(options.models ?? ['test-model'])],
    chatRequests: () => client.requests.filter((r) => r.method === 'POST'),
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    setFallback: (reply) => {
      fallback = reply;
    },

    async checkModel(model: string, signal?: AbortSignal): Promise<void> {
      const ctx = contextOf(model);
      client.requests.push({ method: 'GET', path: '/v1/models', headers: {}, body: undefined });
      if (signal?.aborted) throw buildLlmError({ code: 'CANCELLED', retryable: false }, ctx);
      if (client.models.length > 0 && !client.models.includes(model))
        throw buildLlmError(modelNotServed(model, client.models), ctx);
    },

    async call(call: LlmCallOptions): Promise<LlmResult> {
      const started = Date.now();
      const ctx = contextOf(call.model);
      if (call.signal?.aborted) throw buildLlmError({ code: 'CANCELLED', retryable: false }, ctx);
      const rec: RecordedRequest = { method: 'POST', path: '/v1/chat/completions', headers: {}, body: requestBody(call) };
      client.requests.push(rec);
      let reply: ScriptedReply | undefined = queue.shift() ?? fallback;
      for (let depth = 0; typeof reply === 'function'; depth++) {
        if (depth > 10) throw new Error('scripted reply functions nested too deeply');
        reply = await reply(rec);
      }
      if (reply === undefined) throw new Error('scriptedLlmClient: no scripted reply');
      if ('hang' in reply) {
        await new Promise<void>((resolve) => {
          if (call.signal?.aborted) resolve();
          call.signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        throw buildLlmError({ code: 'CANCELLED', retryable: false }, ctx);
      }
      if (call.signal?.aborted) throw buildLlmError({ code: 'CANCELLED', retryable: false }, ctx);
      const result = resultOf(reply, call, () => `call_${++counter}`);
      if (call.onDelta && result.text) call.onDelta(result.text);
      // As the OpenAI client: tool calls written into the text of a request that offered tools are read from it.
      return withToolCallsFromText({ ...result, latencyMs: Date.now() - started }, call);
    },
  };
  return client;

  function contextOf(model: string): LlmCallContext {
    return { provider: 'openai', baseURL: BASE_URL, model, timeoutMs: 60_000, retries: 0 };
  }
}

/** The JSON body `createOpenAIClient` sends for these options (not api.openai.com: `max_tokens`). */
function requestBody(call: LlmCallOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { model: call.model, messages: structuredClone(call.messages) };
  if (call.temperature !== undefined) body.temperature = call.temperature;
  if (call.maxTokens !== undefined) body.max_tokens = call.maxTokens;
  if (call.responseFormat) body.response_format = call.responseFormat;
  if (call.tools && call.tools.length > 0) {
    body.tools = call.tools;
    if (call.toolChoice) body.tool_choice = call.toolChoice;
  }
  if (call.onDelta) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

type StaticReply = Exclude<ScriptedReply, (req: RecordedRequest) => unknown>;

/** What the OpenAI client would return for this reply from the loopback server. */
function resultOf(reply: StaticReply, call: LlmCallOptions, nextId: () => string): Omit<LlmResult, 'latencyMs'> {
  const model = ('model' in reply && reply.model) || call.model;
  const usageOf = (output: string) => {
    if ('usage' in reply && reply.usage) {
      const { prompt_tokens, completion_tokens } = reply.usage;
      return { promptTokens: prompt_tokens, completionTokens: completion_tokens, totalTokens: prompt_tokens + completion_tokens };
    }
    // The loopback server's estimate: characters / 4.
    const promptTokens = Math.max(1, Math.ceil(JSON.stringify(call.messages ?? '').length / 4));
    const completionTokens = Math.ceil(output.length / 4);
    return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  };
  if ('toolCalls' in reply) {
    const toolCalls = reply.toolCalls.map((t) => ({
      id: t.id ?? nextId(),
      name: t.name,
      arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments),
    }));
    const text = reply.text ?? '';
    return {
      text,
      toolCalls,
      finishReason: 'tool_calls',
      usage: usageOf(text + toolCalls.map((t) => t.name + t.arguments).join('')),
      model,
    };
  }
  if ('json' in reply) {
    const text = JSON.stringify(reply.json);
    return { text, toolCalls: [], finishReason: 'stop', usage: usageOf(text), model };
  }
  if ('fencedJson' in reply) {
    const text = '```json\n' + JSON.stringify(reply.fencedJson, null, 2) + '\n```';
    return { text, toolCalls: [], finishReason: 'stop', usage: usageOf(text), model };
  }
  if ('text' in reply && !('cutStreamAfter' in reply)) {
    return { text: reply.text, toolCalls: [], finishReason: reply.finishReason ?? 'stop', usage: usageOf(reply.text), model };
  }
  throw new Error(`scriptedLlmClient: '${Object.keys(reply)[0]}' is a wire-level reply; use startOpenAIServer() for it`);
}
