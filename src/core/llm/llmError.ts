import { AgentError } from '../errors/agentError';
import { withoutInternalPaths } from '../errors/internalPaths';
import { DEFAULT_MAX_RESPONSE_BYTES, formatByteSize } from './responseSizeLimit';
import type { ProviderName } from './types';

/** The error codes a model call can end in (a subset of ERROR_CODES). */
export type LlmErrorCode =
  | 'AUTH'
  | 'RATE_LIMIT'
  | 'TIMEOUT'
  | 'CONNECTION'
  | 'INVALID_REQUEST'
  | 'CONTEXT_LENGTH'
  | 'RESPONSE_TOO_LARGE'
  | 'CANCELLED'
  | 'UNKNOWN';

/** What went wrong, as far as the client could tell (no secrets, no raw SDK objects). */
export interface LlmFailure {
  code: LlmErrorCode;
  /** Worth another attempt (transient): 408/409/429/5xx, connection problems, timeouts. */
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  /** The server's own error message, shortened. */
  serverMessage?: string;
  serverType?: string;
  serverCode?: string;
  /** A finer reason: 'model_not_found', 'malformed_response', 'stream_incomplete', 'insufficient_quota', ... */
  reason?: string;
  /** RESPONSE_TOO_LARGE: bytes received (or announced by content-length) when the client stopped reading. */
  receivedBytes?: number;
}

/** Where the failing call went; becomes part of the error details. */
export interface LlmCallContext {
  provider: ProviderName;
  /** Base URL without credentials or query string. */
  baseURL: string;
  model: string;
  timeoutMs: number;
  /** Retries made before giving up. */
  retries: number;
  /** True when a stream had already delivered text before it failed. */
  partial?: boolean;
  /** The client's per-response byte limit. */
  maxResponseBytes?: number;
}

/** Details carried by every LlmError (JSON-safe, secret-free). */
export interface LlmErrorDetails extends Record<string, unknown> {
  provider: ProviderName;
  baseURL: string;
  model: string;
  retries: number;
  status?: number;
  reason?: string;
  serverMessage?: string;
  serverType?: string;
  serverCode?: string;
  timeoutMs?: number;
  partial?: boolean;
  /** RESPONSE_TOO_LARGE: the limit that was hit, in bytes. */
  maxResponseBytes?: number;
  /** RESPONSE_TOO_LARGE: bytes received (or announced) when the client stopped reading. */
  receivedBytes?: number;
}

/**
 * A failed model call. `error_code` says what kind of failure it was, the message says
 * what a person can do about it, `details` says where the call went (never the key).
 * No `cause` is kept: raw SDK errors hold response headers and bodies.
 */
export class LlmError extends AgentError {
  declare readonly error_code: LlmErrorCode;
  declare readonly details: LlmErrorDetails;

  constructor(code: LlmErrorCode, message: string, details: LlmErrorDetails) {
    super(code, message, details);
    this.name = 'LlmError';
  }
}

/** True when `value` is an LlmError. */
export function isLlmError(value: unknown): value is LlmError {
  return value instanceof LlmError;
}

const KEY_HINT = "Check the API key: set OPENAI_API_KEY or run 'Set API key'";

/** The failure of a model the server does not serve: names up to eight of the models it does. */
export function modelNotServed(model: string, served: readonly string[]): LlmFailure {
  const shown = served.slice(0, 8).join(', ') + (served.length > 8 ? ', …' : '');
  return {
    code: 'INVALID_REQUEST',
    retryable: false,
    reason: 'model_not_found',
    status: 404,
    serverMessage: `model '${model}' is not among the models it serves (${shown})`,
  };
}

/** Builds the LlmError for a classified failure, with a message that says what to do next. */
export function buildLlmError(failure: LlmFailure, ctx: LlmCallContext): LlmError {
  const where = `the model server at ${ctx.baseURL}`;
  // The server's own words, without its stack traces and file paths (NFR-015).
  const serverMessage = failure.serverMessage ? withoutInternalPaths(failure.serverMessage) : undefined;
  // Each message goes on with ". " after the server's words: their own closing full stop would double it
  // ("Connection error.. Check …").
  const said = serverMessage ? `: ${withoutClosingStop(serverMessage)}` : '';
  const afterRetries = ctx.retries > 0 ? ` after ${ctx.retries} ${ctx.retries === 1 ? 'retry' : 'retries'}` : '';
  const http = failure.status !== undefined ? ` (HTTP ${failure.status})` : '';
  let message: string;
  switch (failure.code) {
    case 'AUTH':
      message =
        failure.status === 403
          ? `Access was refused by ${where}${http}${said}. ${KEY_HINT}, and make sure the key may use model '${ctx.model}'.`
          : `The API key was rejected by ${where}${http}${said}. ${KEY_HINT}.`;
      break;
    case 'RATE_LIMIT':
      message =
        failure.reason === 'insufficient_quota'
          ? `The quota of this API key is used up at ${where}${http}${said}. Check the plan and billing of the account, or use another key or provider.`
          : `The model server at ${ctx.baseURL} is rate limiting requests${http}${afterRetries}${said}. Wait a minute and try again, or lower the request rate.`;
      break;
    case 'TIMEOUT':
      message = `The model '${ctx.model}' did not answer within ${ctx.timeoutMs} ms${afterRetries} (${ctx.baseURL}). Try again, raise the timeout, or choose a smaller or faster model.`;
      break;
    case 'CONNECTION':
      message =
        failure.reason === 'stream_incomplete'
          ? `The model server at ${ctx.baseURL} ended the answer before it was complete${afterRetries}. Try again; if it keeps happening, check the server's logs.`
          : `Could not reach ${where}${afterRetries}${said}. Check that the server is running and that the base URL is right (OPENAI_BASE_URL or --base-url; for Ollama: 'ollama serve' and OLLAMA_HOST).`;
      break;
    case 'CONTEXT_LENGTH':
      message = `The conversation is too long for model '${ctx.model}'${said}. Shorten the input or the history, or choose a model with a larger context window.`;
      break;
    case 'INVALID_REQUEST':
      message =
        failure.reason === 'model_not_found'
          ? `The model '${ctx.model}' is not available at ${ctx.baseURL}${http}${said}. Check the model name${ctx.provider === 'ollama' ? ` or pull it with 'ollama pull ${ctx.model}'` : ''}.`
          : failure.reason === 'not_found'
            ? `Nothing answers chat completions at ${ctx.baseURL}${http}${said}. Check the base URL: OpenAI-compatible servers usually expect it to end in /v1.`
            : `The request was rejected by ${where}${http}${said}. Check the model name and the call options (tools, response format, max tokens).`;
      break;
    case 'RESPONSE_TOO_LARGE': {
      const limit = formatByteSize(ctx.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
      message = `The model server at ${ctx.baseURL} sent an answer larger than ${limit}, the client's limit per response; it stopped reading and closed the connection. Check the server (a model stuck repeating itself? lower max tokens), or, if answers this large are expected, raise the limit with the client option maxResponseBytes (createOpenAIClient / createAgentRuntime({ client: { maxResponseBytes } })).`;
      break;
    }
    case 'CANCELLED':
      message = 'The model call was cancelled.';
      break;
    default:
      message =
        failure.reason === 'malformed_response'
          ? `The model server at ${ctx.baseURL} sent an answer that is not a valid chat completion${said}. Check that the base URL points to an OpenAI-compatible API (usually ending in /v1).`
          : failure.status !== undefined
            ? `The model server at ${ctx.baseURL} failed${http}${afterRetries}${said}. Try again later or check the server's logs.`
            : `The model call to ${ctx.baseURL} failed unexpectedly${said}. Try again; if it persists, check the server and the logs.`;
  }
  const details: LlmErrorDetails = {
    provider: ctx.provider,
    baseURL: ctx.baseURL,
    model: ctx.model,
    retries: ctx.retries,
  };
  if (failure.status !== undefined) details.status = failure.status;
  if (failure.reason) details.reason = failure.reason;
  if (serverMessage) details.serverMessage = serverMessage;
  if (failure.serverType) details.serverType = failure.serverType;
  if (failure.serverCode) details.serverCode = failure.serverCode;
  if (failure.code === 'TIMEOUT') details.timeoutMs = ctx.timeoutMs;
  if (ctx.partial) details.partial = true;
  if (failure.code === 'RESPONSE_TOO_LARGE') {
    details.maxResponseBytes = ctx.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (failure.receivedBytes !== undefined) details.receivedBytes = failure.receivedBytes;
  }
  return new LlmError(failure.code, message, details);
}

/** The server's words without the full stop that ends them, so the sentence they go into ends once (an ellipsis stays). */
export function withoutClosingStop(text: string): string {
  return text.replace(/(?<!\.)\.\s*$/, '');
}
