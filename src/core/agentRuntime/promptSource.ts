import type { OutputCheck } from '../agentsAsData/outputValidator';
import type { ChatMessage, ResponseFormat } from '../llm/types';
import { AgentInputError } from './errors';
import type { Signature } from './signature';

// Outcome of validating model text against an agent's output schema (zod or JSON schema, one type).
export type { OutputCheck };

/** Everything one execution needs from the agent's definition: messages, output format, validator, model settings. */
export interface PreparedPrompt {
  /** `name/version` of the definition, or `fallback`. */
  label: string;
  messages: ChatMessage[];
  responseFormat?: ResponseFormat;
  /** Absent when the agent answers in free text. */
  validate?: (raw: string) => OutputCheck;
  model?: string;
  temperature?: number;
  maxTokens?: number;
  /** Names of the tools this agent may call (from its config); undefined = whatever the toolbox offers. */
  tools?: readonly string[];
}

/** Where an agent's prompt comes from: a code signature, a JSON agent config, or plain fallback. */
export interface PromptSource {
  readonly kind: 'signature' | 'config' | 'fallback';
  /** Builds one execution's messages, response format and validator from its inputs. */
  prepare(inputs: Record<string, unknown>): PreparedPrompt | Promise<PreparedPrompt>;
}

/** Prompt from a code {@link Signature} (compiled once, cached). */
export function signaturePromptSource(signature: Signature): PromptSource {
  return {
    kind: 'signature',
    prepare(inputs) {
      const compiled = signature.compile();
      const parsed = compiled.parseInputs(inputs);
      return {
        label: `${signature.definition.name}/${signature.definition.version ?? 'v1'}`,
        messages: [
          { role: 'system', content: compiled.systemPrompt },
          { role: 'user', content: compiled.renderInputs(parsed) },
        ],
        responseFormat: compiled.responseFormat,
        validate: compiled.validateOutput,
      };
    },
  };
}

/**
 * No signature and no config: inputs become a plain prompt and the result is `{ response }`. Empty inputs
 * (no keys, or only empty / blank / null values) are refused with {@link AgentInputError} before any model call.
 */
export const fallbackPromptSource: PromptSource = {
  kind: 'fallback',
  prepare(inputs) {
    const keys = Object.keys(inputs).filter((k) => inputs[k] !== undefined);
    if (keys.length === 0 || keys.every((k) => isBlank(inputs[k]))) {
      throw new AgentInputError('inputs: nothing to ask the model. Give at least one non-empty input, e.g. { prompt: "..." }.', {
        keys,
      });
    }
    const only = keys.length === 1 ? inputs[keys[0]!] : undefined;
    const content =
      typeof only === 'string'
        ? only
        : keys.map((k) => `${k}: ${typeof inputs[k] === 'string' ? inputs[k] : JSON.stringify(inputs[k])}`).join('\n');
    return { label: 'fallback', messages: [{ role: 'user', content }] };
  },
};

function isBlank(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}
