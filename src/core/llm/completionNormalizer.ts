import type OpenAI from 'openai';
import { MalformedResponseError } from './errorClassifier';
import type { FinishReason, LlmResult, LlmToolCall, TokenUsage } from './types';

type Completion = OpenAI.Chat.Completions.ChatCompletion;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/**
 * Maps a provider's finish reason onto ours. Servers that answer tool calls with
 * finish_reason "stop" (some Ollama versions) are reported as `tool_calls`.
 */
export function normalizeFinishReason(raw: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls && (raw === 'stop' || raw === 'tool_calls' || raw === 'function_call' || !raw)) return 'tool_calls';
  switch (raw) {
    case 'stop':
    case 'length':
    case 'tool_calls':
    case 'content_filter':
      return raw;
    case 'function_call':
      return 'tool_calls';
    default:
      return 'unknown';
  }
}

/** Usage in our shape; zeros when the server sent none. */
export function normalizeUsage(
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null | undefined,
): TokenUsage {
  const promptTokens = numberOr0(usage?.prompt_tokens);
  const completionTokens = numberOr0(usage?.completion_tokens);
  const total = numberOr0(usage?.total_tokens);
  return { promptTokens, completionTokens, totalTokens: total > 0 ? total : promptTokens + completionTokens };
}

/** Turns a non-streamed `chat.completion` into an LlmResult; throws MalformedResponseError on a wrong shape. */
export function normalizeCompletion(completion: unknown, requestModel: string, latencyMs: number): LlmResult {
  if (!completion || typeof completion !== 'object' || !Array.isArray((completion as Completion).choices)) {
    const preview = typeof completion === 'string' ? completion.slice(0, 80) : typeof completion;
    throw new MalformedResponseError(`expected a chat completion, got ${preview}`);
  }
  const body = completion as Completion;
  const choice = body.choices[0];
  if (!choice) throw new MalformedResponseError('the completion has no choices');
  const message = (choice.message ?? {}) as Partial<Completion['choices'][number]['message']>;
  const toolCalls: LlmToolCall[] = [];
  (message.tool_calls ?? []).forEach((call, i) => {
    if (call.type !== undefined && call.type !== 'function') return;
    const fn = (call as { function?: { name?: string; arguments?: unknown } }).function;
    toolCalls.push({ id: call.id || `call_${i}`, name: fn?.name ?? '', arguments: argumentString(fn?.arguments) });
  });
  return {
    text: contentText(message.content),
    toolCalls,
    finishReason: normalizeFinishReason(choice.finish_reason, toolCalls.length > 0),
    usage: normalizeUsage(body.usage),
    model: typeof body.model === 'string' && body.model ? body.model : requestModel,
    latencyMs,
  };
}

/**
 * Assembles a streamed answer from `chat.completion.chunk`s: text deltas, tool-call
 * argument fragments (keyed by index; id and name arrive on the first), the finish reason
 * and the trailing usage chunk.
 */
export class StreamAssembler {
  private text = '';
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();
  private finish: string | null = null;
  private usage: TokenUsage | undefined;
  private model: string | undefined;
  /** True once any text has been handed to the caller. */
  deliveredText = false;

  /** Takes one chunk; returns the text delta it carried ('' when none). */
  push(chunk: Chunk): string {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = normalizeUsage(chunk.usage);
    let delta = '';
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== undefined && choice.index !== 0) continue;
      const content = choice.delta?.content;
      if (typeof content === 'string' && content.length > 0) {
        this.text += content;
        delta += content;
      }
      (choice.delta?.tool_calls ?? []).forEach((fragment, position) => {
        const index = typeof fragment.index === 'number' ? fragment.index : position;
        let entry = this.calls.get(index);
        if (!entry) {
          entry = { id: '', name: '', arguments: '' };
          this.calls.set(index, entry);
        }
        if (fragment.id) entry.id = fragment.id;
        if (fragment.function?.name) entry.name += fragment.function.name;
        if (fragment.function?.arguments !== undefined) entry.arguments += argumentString(fragment.function.arguments);
      });
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
    return delta;
  }

  /** True once a chunk carried a finish reason (a stream cut off mid-way never gets one). */
  get finished(): boolean {
    return this.finish !== null;
  }

  /** The assembled result. */
  result(requestModel: string, latencyMs: number): LlmResult {
    const toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ id: call.id || `call_${index}`, name: call.name, arguments: call.arguments }));
    return {
      text: this.text,
      toolCalls,
      finishReason: normalizeFinishReason(this.finish, toolCalls.length > 0),
      usage: this.usage ?? normalizeUsage(undefined),
      model: this.model || requestModel,
      latencyMs,
    };
  }
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : '')).join('');
  }
  return '';
}

/** Some servers send arguments as an object instead of a JSON string. */
function argumentString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

function numberOr0(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
