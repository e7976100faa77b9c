import OpenAI from 'openai';
import { AgentError } from '../errors/agentError';
import { getLogger, logLevelEnabled } from '../logging/logger';
import { registerSecret } from '../security/redact';
import { normalizeCompletion, StreamAssembler } from './completionNormalizer';
import { classifyFailure, IncompleteStreamError, type AbortCause } from './errorClassifier';
import { buildLlmError, modelNotServed, type LlmCallContext } from './llmError';
import { DEFAULT_MAX_RESPONSE_BYTES, limitResponseBytes } from './responseSizeLimit';
import { computeRetryDelay, DEFAULT_RETRY_POLICY, sleep, type RetryPolicy } from './retryPolicy';
import { withToolCallsFromText } from './textToolCalls';
import type { LlmCallOptions, LlmClient, LlmResult } from './types';

/** Options of {@link createOpenAIClient}. */
export interface OpenAIClientOptions {
  /** OpenAI-compatible base URL, e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  /** API key; optional for servers that need none (Ollama, local vLLM / LM Studio). */
  apiKey?: string;
  /** How the server is reported in results, logs and errors (default 'openai'). */
  provider?: 'openai' | 'ollama';
  /**
   * Per-attempt timeout in ms, covering the whole answer including a stream (default 60000). Given, it is also
   * a ceiling: a call's own `timeoutMs` (an agent's setting) may shorten it, never lengthen it.
   */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff delay in ms (default 500; tests use a few ms). */
  retryBaseDelayMs?: number;
  /** Backoff cap in ms (default 8000). */
  retryMaxDelayMs?: number;
  /** Largest server retry-after honoured, in ms (default 60000). */
  maxRetryAfterMs?: number;
  /** Extra headers on every request. */
  defaultHeaders?: Record<string, string>;
  /**
   * Most bytes read from the server for one response, streamed or not (default 8 MB). Past it the call
   * fails with RESPONSE_TOO_LARGE (not retried) and the connection is closed.
   */
  maxResponseBytes?: number;
}

/** Sent as the bearer token when no key is configured; servers that need none ignore it. */
const PLACEHOLDER_KEYS = { openai: 'no-key', ollama: 'ollama' } as const;
const DEFAULT_TIMEOUT_MS = 60_000;
const log = getLogger('llm');

/** Longest wait for the preflight's models listing. */
const CHECK_TIMEOUT_MS = 15_000;

/**
 * An LlmClient on the official `openai` SDK that works with any OpenAI-compatible server:
 * OpenAI, Ollama's `/v1`, vLLM, LM Studio, fine-tuned ids (`ft:...`).
 *
 * - Streams when `onDelta` is given (text deltas go to the callback; tool-call fragments
 *   are assembled; usage is requested with `stream_options.include_usage`).
 * - Retries 408/409/429/5xx, connection errors and timeouts with its own loop (see
 *   retryPolicy.ts): retry-after(-ms) honoured, otherwise capped exponential backoff with
 *   jitter. A stream that already delivered text is not retried.
 * - `timeoutMs` applies per attempt and covers the whole answer; a call's own `timeoutMs`
 *   replaces the default, but a `timeoutMs` given here is a ceiling (the tighter applies).
 *   Aborting `signal` ends the call (and any backoff wait) with CANCELLED, never TIMEOUT.
 * - Every failure is an LlmError; the API key is registered as a secret and never kept
 *   in errors or logs.
 * - At most `maxResponseBytes` (default 8 MB) are read per response; a larger answer fails with
 *   RESPONSE_TOO_LARGE and its connection is closed (see responseSizeLimit.ts).
 * - When the request offered tools and the model wrote its calls into its text instead (local models served
 *   without a tool parser: bare JSON, a fenced block, Hermes `<tool_call>` tags), they are read from the text,
 *   streamed or not, made real calls and counted in `toolCallsFromText` (see textToolCalls.ts). Nothing is read
 *   from the text of a request that offered no tools.
 * - `latencyMs` spans the whole call, retries included. `maxTokens` is sent as
 *   `max_completion_tokens` to api.openai.com and as `max_tokens` elsewhere.
 */
export function createOpenAIClient(options: OpenAIClientOptions): LlmClient {
  const connection = openConnection(options);
  const { provider, baseURL, ceilingMs } = connection;
  return {
    provider,
    baseURL,
    call: (callOptions) => callModel(connection, callOptions),
    checkModel: (model, signal) => checkServedModel(connection, model, signal),
    ...(ceilingMs !== undefined ? { timeoutMs: ceilingMs } : {}),
  };
}

/** The client's settings, checked, and the SDK it calls through. */
interface Connection {
  provider: 'openai' | 'ollama';
  baseURL: string;
  sdk: OpenAI;
  defaultTimeoutMs: number;
  /** The timeout given to the client, which a call's own may only shorten. */
  ceilingMs: number | undefined;
  policy: RetryPolicy;
  maxResponseBytes: number;
  useMaxCompletionTokens: boolean;
}

/** Checks the options, registers the key as a secret, and sets up the SDK (its own retries off: ours apply). */
function openConnection(options: OpenAIClientOptions): Connection {
  const provider = options.provider ?? 'openai';
  const baseURL = safeBaseURL(options.baseURL);
  const defaultTimeoutMs = positiveInt(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const policy: RetryPolicy = {
    maxRetries: nonNegativeInt(options.maxRetries, DEFAULT_RETRY_POLICY.maxRetries, 'maxRetries'),
    baseDelayMs: nonNegativeInt(options.retryBaseDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs, 'retryBaseDelayMs'),
    maxDelayMs: nonNegativeInt(options.retryMaxDelayMs, DEFAULT_RETRY_POLICY.maxDelayMs, 'retryMaxDelayMs'),
    maxRetryAfterMs: nonNegativeInt(options.maxRetryAfterMs, DEFAULT_RETRY_POLICY.maxRetryAfterMs, 'maxRetryAfterMs'),
  };
  const maxResponseBytes = positiveByteCount(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 'maxResponseBytes');
  const apiKey = options.apiKey && options.apiKey.trim() ? options.apiKey.trim() : undefined;
  if (apiKey) registerSecret(apiKey);

  const sdk = new OpenAI({
    baseURL: options.baseURL.replace(/\/+$/, ''),
    apiKey: apiKey ?? PLACEHOLDER_KEYS[provider],
    maxRetries: 0,
    timeout: defaultTimeoutMs,
    defaultHeaders: options.defaultHeaders,
    logLevel: 'off',
    fetch: limitResponseBytes((input, init) => fetch(input, init), maxResponseBytes),
    // Never pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment behind the caller's back.
    organization: null,
    project: null,
  });
  return {
    provider,
    baseURL,
    sdk,
    defaultTimeoutMs,
    ceilingMs: options.timeoutMs === undefined ? undefined : defaultTimeoutMs,
    policy,
    maxResponseBytes,
    useMaxCompletionTokens: isOfficialOpenAI(baseURL),
  };
}

/** One call: attempts until one answers, a failure is not worth retrying, or the retries are spent. */
async function callModel(connection: Connection, callOptions: LlmCallOptions): Promise<LlmResult> {
  const { provider, baseURL, defaultTimeoutMs, ceilingMs, maxResponseBytes } = connection;
  const started = Date.now();
  const requested = positiveInt(callOptions.timeoutMs, defaultTimeoutMs, 'timeoutMs');
  const timeoutMs = ceilingMs === undefined ? requested : Math.min(requested, ceilingMs);
  const stream = typeof callOptions.onDelta === 'function';
  const body = buildRequestBody(callOptions, stream, connection.useMaxCompletionTokens);
  const ctx: LlmCallContext = { provider, baseURL, model: callOptions.model, timeoutMs, retries: 0, maxResponseBytes };
  if (logLevelEnabled('debug'))
    log.debug('model call', {
      provider,
      baseURL,
      model: callOptions.model,
      stream,
      messages: callOptions.messages.length,
      tools: callOptions.tools?.length ?? 0,
    });

  for (let attempt = 0; ; attempt++) {
    ctx.retries = attempt;
    if (callOptions.signal?.aborted) throw buildLlmError({ code: 'CANCELLED', retryable: false }, ctx);
    const attemptControl = new AttemptControl(callOptions.signal, timeoutMs);
    const assembler = stream ? new StreamAssembler() : undefined;
    try {
      return await attemptOnce(connection, {
        body,
        callOptions,
        started,
        timeoutMs,
        attempt: attemptControl,
        retries: attempt,
        assembler,
      });
    } catch (error) {
      attemptControl.dispose(); // before any backoff wait
      await waitToRetry(connection.policy, error, { ctx, attempt, attemptControl, assembler, signal: callOptions.signal });
    } finally {
      attemptControl.dispose();
    }
  }
}

/** What one attempt of a call needs. */
interface Attempt {
  body: Record<string, unknown>;
  callOptions: LlmCallOptions;
  started: number;
  timeoutMs: number;
  attempt: AttemptControl;
  /** How many attempts came before this one. */
  retries: number;
  /** Given when the call streams. */
  assembler: StreamAssembler | undefined;
}

/** One request to the server, streamed or not; tool calls a local model wrote as text are read into real ones. */
async function attemptOnce(connection: Connection, a: Attempt): Promise<LlmResult> {
  const { callOptions, started } = a;
  const answer = a.assembler
    ? await streamOnce(connection.sdk, a, a.assembler)
    : normalizeCompletion(
        await connection.sdk.chat.completions.create(a.body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, {
          signal: a.attempt.signal,
          timeout: a.timeoutMs,
        }),
        callOptions.model,
        Date.now() - started,
      );
  // A local model without a tool parser writes its calls as text: read them (a stream once it has ended).
  const result = withToolCallsFromText(answer, callOptions);
  if (logLevelEnabled('debug'))
    log.debug('model answered', {
      model: result.model,
      finishReason: result.finishReason,
      latencyMs: result.latencyMs,
      usage: result.usage,
      retries: a.retries,
      ...(result.toolCallsFromText ? { toolCallsFromText: result.toolCallsFromText } : {}),
    });
  return result;
}

/**
 * After a failed attempt: throws the call's LlmError when the failure is not worth retrying (or text was already
 * delivered, or the retries are spent); otherwise waits the backoff (an abort meanwhile is CANCELLED).
 */
async function waitToRetry(
  policy: RetryPolicy,
  error: unknown,
  state: {
    ctx: LlmCallContext;
    attempt: number;
    attemptControl: AttemptControl;
    assembler: StreamAssembler | undefined;
    signal: AbortSignal | undefined;
  },
): Promise<void> {
  const { ctx, attempt } = state;
  if (error instanceof DeltaCallbackError) throw error.original;
  const failure = classifyFailure(error, state.attemptControl.cause);
  ctx.partial = state.assembler?.deliveredText === true;
  const canRetry = failure.retryable && !ctx.partial && attempt < policy.maxRetries;
  if (!canRetry) {
    const llmError = buildLlmError(failure, ctx);
    log.debug('model call failed', { error: llmError.toJSON() });
    throw llmError;
  }
  const delayMs = computeRetryDelay(attempt, failure.retryAfterMs, policy);
  log.warn('model call failed, retrying', {
    code: failure.code,
    status: failure.status,
    retry: attempt + 1,
    maxRetries: policy.maxRetries,
    delayMs,
    retryAfterMs: failure.retryAfterMs,
    baseURL: ctx.baseURL,
  });
  try {
    await sleep(delayMs, state.signal);
  } catch {
    throw buildLlmError({ code: 'CANCELLED', retryable: false }, ctx);
  }
}

/**
 * The preflight: lists the server's models (one short GET, no chat request) and checks `model` is among
 * them. A server without a models endpoint (404) is taken on trust; no answer, a rejected key or an
 * unknown model is an LlmError before a session changes anything.
 */
async function checkServedModel(connection: Connection, model: string, signal?: AbortSignal): Promise<void> {
  const { provider, baseURL, maxResponseBytes } = connection;
  const timeoutMs = Math.min(connection.defaultTimeoutMs, CHECK_TIMEOUT_MS);
  const ctx: LlmCallContext = { provider, baseURL, model, timeoutMs, retries: 0, maxResponseBytes };
  const attemptControl = new AttemptControl(signal, timeoutMs);
  let served: string[];
  try {
    const page = await connection.sdk.models.list({ signal: attemptControl.signal, timeout: timeoutMs });
    served = page.data.map((m) => m.id);
  } catch (error) {
    const failure = classifyFailure(error, attemptControl.cause);
    if (failure.status === 404) return;
    throw buildLlmError(failure, ctx);
  } finally {
    attemptControl.dispose();
  }
  if (served.length > 0 && !served.includes(model)) throw buildLlmError(modelNotServed(model, served), ctx);
}

/** One streamed attempt: text deltas go to the caller's `onDelta` as they come, the rest is assembled. */
async function streamOnce(sdk: OpenAI, a: Attempt, assembler: StreamAssembler): Promise<LlmResult> {
  const chunks = await sdk.chat.completions.create(a.body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming, {
    signal: a.attempt.signal,
    timeout: a.timeoutMs,
  });
  for await (const chunk of chunks) {
    const delta = assembler.push(chunk);
    if (delta) {
      assembler.deliveredText = true;
      try {
        a.callOptions.onDelta!(delta);
      } catch (callbackError) {
        throw new DeltaCallbackError(callbackError);
      }
    }
  }
  // The SDK ends the iteration quietly when the signal aborts: say why it ended.
  if (a.attempt.cause !== undefined) throw new Error('aborted');
  if (!assembler.finished) throw new IncompleteStreamError();
  return assembler.result(a.callOptions.model, Date.now() - a.started);
}

/** A throw from the caller's onDelta: passed through untouched, never retried. */
class DeltaCallbackError extends Error {
  constructor(readonly original: unknown) {
    super('onDelta callback failed');
  }
}

function buildRequestBody(options: LlmCallOptions, stream: boolean, useMaxCompletionTokens: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { ...options.extraBody, model: options.model, messages: options.messages };
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.maxTokens !== undefined) body[useMaxCompletionTokens ? 'max_completion_tokens' : 'max_tokens'] = options.maxTokens;
  if (options.responseFormat) body.response_format = options.responseFormat;
  if (options.tools && options.tools.length > 0) {
    body.tools = options.tools;
    if (options.toolChoice) body.tool_choice = options.toolChoice;
  }
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

/**
 * One attempt's abort signal: fires on the caller's abort (cancelled) or on the timer (timeout). A class whose
 * instance is the abort listener (`handleEvent`) and the timer's argument, so an attempt makes no closures.
 */
class AttemptControl {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  /** Why this attempt was aborted, if it was. */
  cause: AbortCause;

  constructor(
    private readonly outer: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    outer?.addEventListener('abort', this, { once: true });
    this.timer = setTimeout(abortOnTimeout, timeoutMs, this);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.abort('cancelled');
  }

  abort(cause: NonNullable<AbortCause>): void {
    this.cause ??= cause;
    this.controller.abort();
  }

  /** Idempotent. */
  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this);
  }
}

function abortOnTimeout(attempt: AttemptControl): void {
  attempt.abort('timeout');
}

/** The base URL as it may appear in errors and logs: no user info, no query, no trailing slash. */
export function safeBaseURL(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AgentError(
      'CONFIG',
      `The base URL '${String(raw).slice(0, 200)}' is not a valid URL. Use a full URL such as http://127.0.0.1:11434/v1 or https://api.openai.com/v1.`,
      {},
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AgentError(
      'CONFIG',
      `The base URL must use http or https, not '${url.protocol}'. Use a full URL such as https://api.openai.com/v1.`,
      {
        protocol: url.protocol,
      },
    );
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/**
 * True when `baseURL` (a valid URL) is OpenAI's own API: it needs a key, and wants `max_completion_tokens`
 * (reasoning models refuse `max_tokens`) where other servers want `max_tokens`.
 */
export function isOfficialOpenAI(baseURL: string): boolean {
  return new URL(baseURL).hostname === 'api.openai.com';
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new AgentError('CONFIG', `${name} must be a positive number of milliseconds, got ${String(value)}.`, {
      [name]: String(value),
    });
  }
  return Math.max(1, Math.round(value));
}

function positiveByteCount(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 1) {
    throw new AgentError(
      'CONFIG',
      `${name} must be a positive number of bytes (e.g. ${DEFAULT_MAX_RESPONSE_BYTES} for 8 MB), got ${String(value)}.`,
      { [name]: String(value) },
    );
  }
  return Math.round(value);
}

function nonNegativeInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new AgentError('CONFIG', `${name} must be zero or a positive number, got ${String(value)}.`, { [name]: String(value) });
  }
  return Math.round(value);
}
