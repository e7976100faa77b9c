import type OpenAI from 'openai';

/** A chat message exactly as the OpenAI wire format has it (system, user, assistant with tool_calls, tool). */
export type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** A function tool as the model sees it (name, description, JSON schema of its parameters). */
export type ToolSpec = OpenAI.Chat.Completions.ChatCompletionFunctionTool;

/** OpenAI's structured-output wrapper: `{ type: 'json_schema', json_schema: { name, schema, strict } }`. */
export interface JsonSchemaResponseFormat {
  type: 'json_schema';
  json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean; description?: string };
}
/** Structured output: a JSON schema, any JSON object, or plain text. */
export type ResponseFormat = JsonSchemaResponseFormat | { type: 'json_object' } | { type: 'text' };

/**
 * One model call, in the spirit of `llm_client.call(model, messages, response_format, temperature, max_tokens)`,
 * plus tools, cancellation and an optional streaming callback.
 */
export interface LlmCallOptions {
  model: string;
  messages: ChatMessage[];
  responseFormat?: ResponseFormat;
  temperature?: number;
  maxTokens?: number;
  tools?: ToolSpec[];
  toolChoice?: 'auto' | 'none' | 'required';
  signal?: AbortSignal;
  /**
   * Per-request timeout in ms: overrides the client's default; when the client was created with a `timeoutMs`
   * of its own, the tighter of the two applies.
   */
  timeoutMs?: number;
  /** When given, the call streams and this receives each text delta as it arrives. */
  onDelta?: (delta: string) => void;
  /**
   * Provider-specific fields added to the request body as given (an agent's config extensions, e.g.
   * `generation_config`); the fields the client sets itself (model, messages, ...) are never replaced.
   */
  extraBody?: Readonly<Record<string, unknown>>;
}

/** One tool call the model asked for (OpenAI function calling). */
export interface LlmToolCall {
  id: string;
  name: string;
  /** The raw JSON argument string the model produced (may be malformed: callers validate). */
  arguments: string;
}

/** Tokens one call (or a whole run, summed) used. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** Why the model stopped: done, out of tokens, asking for tools, filtered, or not reported. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'unknown';

/** The normalised result of one model call, whatever the provider. */
export interface LlmResult {
  text: string;
  toolCalls: LlmToolCall[];
  finishReason: FinishReason;
  usage: TokenUsage;
  model: string;
  latencyMs: number;
  /**
   * Set when the model wrote its tool calls into its text instead of making them (local models served without a
   * tool parser) and the client read them from there (see `readToolCallsFromText`): how many. Every call in
   * `toolCalls` then came from the text, which no longer holds them.
   */
  toolCallsFromText?: number;
}

/** Which kind of provider answers: an OpenAI-compatible server, Ollama, or a replayed cassette. */
export type ProviderName = 'openai' | 'ollama' | 'replay';

/** Anything that answers model calls: the OpenAI-SDK client, a replay cassette, a recorder around either. */
export interface LlmClient {
  readonly provider: ProviderName;
  /** The server the calls go to (credentials, query and trailing slash removed), when the client has one. */
  readonly baseURL?: string;
  /**
   * The per-attempt timeout (ms) the client was created with, when one was given (absent when it uses its
   * default). A per-call `timeoutMs` never loosens it; agents take it as their limit when they set none.
   */
  readonly timeoutMs?: number;
  /** One model call; rejects with a typed LlmError (AUTH, RATE_LIMIT, TIMEOUT, ...) after retries. */
  call(options: LlmCallOptions): Promise<LlmResult>;
  /**
   * Checks, without a chat request, that the provider answers and serves `model` (a session's preflight).
   * Rejects with a typed LlmError; absent when the client has nothing to check (a replayed cassette).
   */
  checkModel?(model: string, signal?: AbortSignal): Promise<void>;
}
