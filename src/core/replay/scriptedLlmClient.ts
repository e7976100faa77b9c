import { buildLlmError, modelNotServed, type LlmCallContext } from '../llm/llmError';
import { withToolCallsFromText } from '../llm/textToolCalls';
import type { LlmCallOptions, LlmClient, LlmResult } from '../llm/types';

/** One call the scripted client received, shaped as an OpenAI-compatible server would see the HTTP request. */
export interface ScriptedRequest {
  /** `POST` for a chat call, `GET` for a `checkModel` look-up. */
  method: string;
  /** `/v1/chat/completions` or `/v1/models`. */
  path: string;
  /** Always empty: there is no HTTP. Kept so the request reads like a loopback server's record of one. */
  headers: Record<string, string | string[] | undefined>;
  /**
   * The JSON body `createOpenAIClient` would send (`model`, `messages`, `tools`, `tool_choice`, `response_format`,
   * `temperature`, `max_tokens`, `stream`); `undefined` for a `checkModel` look-up.
   */
  body: any;
}

/** Token counts a scripted reply may force (otherwise they are estimated from the text, four characters a token). */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** A scripted tool call; `arguments` objects are JSON-encoded. */
export interface ScriptedToolCall {
  /** Default: `call_1`, `call_2`, … */
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/**
 * What the scripted model answers to one call: plain text, tool calls (with optional text), a JSON object (as
 * the text, or fenced in a Markdown code block), a call that never answers until it is cancelled (`hang`), or a
 * function of the request that returns one of these.
 */
export type ScriptedReply =
  | { text: string; finishReason?: 'stop' | 'length'; usage?: ScriptedUsage; model?: string }
  | { toolCalls: ScriptedToolCall[]; text?: string; usage?: ScriptedUsage; model?: string }
  | { json: unknown; usage?: ScriptedUsage; model?: string }
  | { fencedJson: unknown; usage?: ScriptedUsage; model?: string }
  | { hang: true }
  | ((request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>);

/**
 * An in-process `LlmClient` whose answers a test scripts reply by reply, for testing an agent, a tool or a whole
 * session without a model or a network. Every call is recorded as the request body `createOpenAIClient` would send,
 * so a test can assert what the model was told. Cancellation behaves as the OpenAI client's: an aborted signal is an
 * `LlmError` `CANCELLED`; as there, tool calls a model writes into the text of a request that offered tools are
 * read from it.
 */
export interface ScriptedLlmClient extends LlmClient {
  /** Every call in order. */
  requests: ScriptedRequest[];
  /** Only the chat calls (all of `requests` but the `checkModel` look-ups). */
  chatRequests(): ScriptedRequest[];
  /** Queues replies (first in, first out; each used once). */
  enqueue(...replies: ScriptedReply[]): void;
  /** Reply used when the queue is empty; `undefined` restores the default (a thrown "no scripted reply"). */
  setFallback(reply: ScriptedReply | undefined): void;
  /** Model ids `checkModel` accepts (mutable; empty: any). */
  models: string[];
}

/** Options of {@link createScriptedLlmClient}. */
export interface ScriptedLlmClientOptions {
  /** The model ids `checkModel` accepts. Default `['test-model']`. */
  models?: string[];
}

const BASE_URL = 'in-process://scripted';

/**
 * Creates a scripted model client: `enqueue` its replies, hand it to an agent as `llm` (or to `runKataSession`),
 * and read `chatRequests()` afterwards.
 *
 * ```ts
 * const llm = createScriptedLlmClient();
 * llm.enqueue({ json: { answer: '3', confidence: 0.9, reasoning: 'adds' } });
 * const result = await new QAAgent({ llm, config: { model: 'test-model' } }).execute({ question: '1 + 2?', context: '' });
 * ```
 */
export function createScriptedLlmClient(options: ScriptedLlmClientOptions = {}): ScriptedLlmClient {
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
      const rec: ScriptedRequest = { method: 'POST', path: '/v1/chat/completions', headers: {}, body: requestBody(call) };
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

type StaticReply = Exclude<ScriptedReply, (request: ScriptedRequest) => unknown>;

/** What the OpenAI client would return for this reply from an OpenAI-compatible server. */
function resultOf(reply: StaticReply, call: LlmCallOptions, nextId: () => string): Omit<LlmResult, 'latencyMs'> {
  const model = ('model' in reply && reply.model) || call.model;
  const usageOf = (output: string) => {
    if ('usage' in reply && reply.usage) {
      const { prompt_tokens, completion_tokens } = reply.usage;
      return { promptTokens: prompt_tokens, completionTokens: completion_tokens, totalTokens: prompt_tokens + completion_tokens };
    }
    // An OpenAI-compatible server's estimate: characters / 4.
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
  throw new Error(
    `scriptedLlmClient: '${Object.keys(reply)[0]}' is a wire-level reply; an in-process client cannot play it (use an HTTP server)`,
  );
}
