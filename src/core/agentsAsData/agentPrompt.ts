import type { ChatMessage, JsonSchemaResponseFormat } from '../llm/types';
import type { CheckedAgentConfig } from './configValidation';
import { AgentPromptValidationError } from './errors';
import { payloadLines, type InputPayload } from './inputPayload';
import { extractJson } from '../json/jsonText';
import { isPlainObject, jsonTypeOf, type OutputSchemaNode } from './outputSchema';
import { jsonSchemaOutputValidator, type OutputValidator } from './outputValidator';
import { composeSystemMessage, composeUserMessage } from './promptComposer';
import type { AgentConfig, AgentMode } from './schema';

/** What {@link AgentPrompt.compose} returns: the messages to send and, for JSON agents, the strict response format. */
export interface ComposedPrompt {
  messages: ChatMessage[];
  /** OpenAI's strict `json_schema` wrapper; undefined for agents that end with a free-text report. */
  responseFormat?: JsonSchemaResponseFormat;
}

const EXCERPT_LENGTH = 500;

/**
 * One agent, ready to talk to a model: built by `AgentFactory.create` from a checked config and an input
 * payload. It composes byte-identical messages for the same input, and turns the model's reply into a
 * clean object that satisfies the agent's output schema. It holds no mutable state.
 */
export class AgentPrompt {
  /** The parsed config (frozen). */
  readonly config: Readonly<AgentConfig>;
  /** The config's `agent_name`. */
  readonly agentName: string;
  /** The config's `version`. */
  readonly version: string;
  /** The config's `mode`. */
  readonly mode: AgentMode;
  /** The config's `model_name` (callers may still override it, e.g. for a local provider). */
  readonly model: string;
  /** The config's `temperature`. */
  readonly temperature: number;
  /** The config's `max_output_tokens`. */
  readonly maxOutputTokens: number;
  /** Names of the tools the agent may call (the config's `tools`, empty when none). */
  readonly tools: readonly string[];
  /** The output schema with `enums` merged in; null for free-text agents. */
  readonly outputSchema: OutputSchemaNode | null;
  /** The output schema as an {@link OutputValidator} (the same interface a code signature's zod output has); null for free-text agents. */
  readonly output: OutputValidator | null;
  private readonly inputPayload: InputPayload | undefined;

  /**
   * Checks `inputPayload`, when given, against the config's `input_keys` (throws `AgentConfigError` listing
   * what is wrong); without one, the payload is checked when `compose` gets it.
   */
  constructor(checked: CheckedAgentConfig, inputPayload?: InputPayload) {
    this.config = checked.config;
    this.outputSchema = checked.outputSchema;
    this.output = checked.outputSchema ? jsonSchemaOutputValidator(checked.outputSchema) : null;
    this.agentName = checked.config.agent_name;
    this.version = checked.config.version;
    this.mode = checked.config.mode;
    this.model = checked.config.model_name;
    this.temperature = checked.config.temperature;
    this.maxOutputTokens = checked.config.max_output_tokens;
    this.tools = checked.config.tools ?? [];
    if (inputPayload !== undefined) payloadLines(this.config, inputPayload);
    this.inputPayload = inputPayload;
  }

  /** `name/version`, as the system message's first line and every error name the agent. */
  get label(): string {
    return `${this.agentName}/${this.version}`;
  }

  /**
   * The system and user messages for `inputPayload` (default: the payload given at creation, else none), and
   * the strict response format. The same input always gives byte-identical output.
   */
  compose(inputPayload: InputPayload = this.inputPayload ?? {}): ComposedPrompt {
    const lines = payloadLines(this.config, inputPayload);
    const messages: ChatMessage[] = [
      { role: 'system', content: composeSystemMessage(this.config, this.outputSchema !== null) },
      { role: 'user', content: composeUserMessage(this.config, this.outputSchema, lines) },
    ];
    if (!this.output) return { messages };
    return {
      messages,
      responseFormat: {
        type: 'json_schema',
        json_schema: {
          // OpenAI allows ^[a-zA-Z0-9_-]{1,64}$ here.
          name: `${this.agentName}_${this.version}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64),
          schema: structuredClone(this.output.jsonSchema),
          strict: true,
        },
      },
    };
  }

  /**
   * Turns a model reply into a clean output object. `raw` may be an OpenAI completion
   * (`choices[0].message.content`), an `LlmResult`-like object with `text`, a JSON string (also inside a
   * ```json fence, or with prose around one object) or the object itself. Required fields, types, ranges
   * and enums are enforced; optional fields that are missing or null get the config's default (or are left
   * out); keys not in the schema are dropped. Throws {@link AgentPromptValidationError} listing every
   * violation by path. A free-text agent (no output schema) returns `{ text }` with its trimmed report.
   */
  parseAndValidate<T extends Record<string, unknown> = Record<string, unknown>>(raw: unknown): T {
    const unwrapped = this.unwrap(raw);
    if (!this.output) {
      const text = typeof unwrapped === 'string' ? unwrapped.trim() : '';
      if (!text)
        this.fail('gave no report.', [
          `(root): expected a non-empty text report, got ${typeof unwrapped === 'string' ? 'empty text' : jsonTypeOf(unwrapped)}`,
        ]);
      return { text } as unknown as T;
    }
    let value: unknown = unwrapped;
    if (typeof unwrapped === 'string') {
      const parsed = extractJson(unwrapped);
      if (!parsed.ok) {
        const { line, column, reason } = parsed.problem;
        const violations = [`(root): not valid JSON at line ${line} column ${column}: ${reason}`];
        if (this.finishReason(raw) === 'length') {
          violations.push(`(root): the reply was cut off at ${this.maxOutputTokens} tokens (max_output_tokens)`);
        }
        this.fail('is not JSON.', violations, unwrapped);
      }
      value = parsed.value;
    }
    if (isPlainObject(value)) value = this.withDefaults(value);
    const checked = this.output.check(value);
    if (!checked.ok)
      this.fail('does not match its output schema.', checked.violations, typeof unwrapped === 'string' ? unwrapped : value);
    return checked.value as T;
  }

  /** Fills the config's defaults into the fields the model left out or set to null. */
  private withDefaults(value: Record<string, unknown>): Record<string, unknown> {
    const out = { ...value };
    for (const [key, fallback] of Object.entries(this.config.defaults)) {
      if (out[key] === undefined || out[key] === null) out[key] = structuredClone(fallback);
    }
    return out;
  }

  /** The model's text (or the object itself) from a completion, an LlmResult, a string or an object. */
  private unwrap(raw: unknown): unknown {
    if (typeof raw === 'string') return raw;
    if (!isPlainObject(raw)) {
      this.fail('could not be read.', [
        `(root): expected a completion, a result with text, a JSON string or an object, got ${jsonTypeOf(raw)}`,
      ]);
    }
    return this.wrapperText(raw) ?? raw;
  }

  /** The text inside a completion or an LlmResult-like object; undefined when `raw` is the output itself. */
  private wrapperText(raw: Record<string, unknown>): string | undefined {
    if (Array.isArray(raw.choices)) {
      const choice: unknown = raw.choices[0];
      const message = isPlainObject(choice) ? choice.message : undefined;
      if (isPlainObject(message) && typeof message.refusal === 'string' && message.refusal) {
        this.fail('was refused by the model.', [`(root): the model refused: ${message.refusal}`]);
      }
      if (!isPlainObject(message) || typeof message.content !== 'string') {
        this.fail('could not be read.', ['(root): the completion has no message content']);
      }
      return message.content as string;
    }
    // An LlmResult has text plus finishReason/toolCalls. An output object may have a `text` field of its
    // own, so a bare `{ text }` counts as a wrapper only when the schema has no `text` field.
    if (typeof raw.text !== 'string') return undefined;
    const bare = Object.keys(raw).length === 1 && !(this.outputSchema?.properties && 'text' in this.outputSchema.properties);
    return 'finishReason' in raw || 'toolCalls' in raw || bare ? raw.text : undefined;
  }

  /** The finish reason of a completion or an LlmResult (`length` means the reply was cut off). */
  private finishReason(raw: unknown): unknown {
    if (!isPlainObject(raw)) return undefined;
    if (Array.isArray(raw.choices) && isPlainObject(raw.choices[0])) return raw.choices[0].finish_reason;
    return raw.finishReason;
  }

  /** Throws the validation error; `output` goes into `details.output_excerpt`, shortened (and redacted by AgentError). */
  private fail(what: string, violations: string[], output?: unknown): never {
    const excerpt =
      output === undefined ? undefined : (typeof output === 'string' ? output : JSON.stringify(output)).slice(0, EXCERPT_LENGTH);
    throw new AgentPromptValidationError(`The output of agent ${this.label} ${what}`, violations, {
      agent: this.label,
      output_excerpt: excerpt,
    });
  }
}
