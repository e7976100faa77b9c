import type { ChatMessage, ResponseFormat } from '../llm/types';
import type { OutputCheck, PromptSource } from './promptSource';

/** What an agent needs from a prompt loaded from `config/agents/<name>/<version>.json` (the AgentFactory's AgentPrompt). */
export interface AgentPromptLike {
  readonly agentName: string;
  readonly version: string;
  readonly model?: string;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  /** Tools the agent may call (config `tools`). */
  readonly tools?: readonly string[];
  /** The loaded config; `output_schema: null` marks a free-text (report) agent. */
  readonly config?: { output_schema?: unknown };
  /** The messages and response format for a payload (see AgentPrompt.compose). */
  compose(payload?: Record<string, unknown>): { messages: ChatMessage[]; responseFormat?: ResponseFormat | null };
  /** Throws an AgentError with code OUTPUT_VALIDATION_FAILED and `details.violations` when `raw` does not fit. */
  parseAndValidate(raw: string): Record<string, unknown>;
}

/** Which agent config to use. `configRoot` defaults to the project's `config/agents`. */
export interface AgentConfigRef {
  agent: string;
  version: string;
  configRoot?: string;
}

/** Loads the AgentPrompt for one execution; its `compose(inputs)` then checks the inputs against the config's input keys. */
export type AgentPromptLoader = (
  agentName: string,
  version: string,
  inputs: Record<string, unknown>,
  options: { configRoot?: string },
) => AgentPromptLike | Promise<AgentPromptLike>;

/**
 * Prompt from a JSON agent config (agents as data): system prompt, output schema and model settings all
 * come from the config; the agent code adds behaviour only.
 */
export function configPromptSource(ref: AgentConfigRef, loader: AgentPromptLoader): PromptSource {
  return {
    kind: 'config',
    async prepare(inputs) {
      const prompt = await loader(ref.agent, ref.version, inputs, { configRoot: ref.configRoot });
      const { messages, responseFormat } = prompt.compose(inputs);
      const freeText = prompt.config?.output_schema === null || !responseFormat || responseFormat.type === 'text';
      return {
        label: `${prompt.agentName}/${prompt.version}`,
        messages,
        responseFormat: responseFormat ?? undefined,
        validate: freeText ? undefined : (raw: string) => checkWith(prompt, raw),
        model: prompt.model,
        temperature: prompt.temperature,
        maxTokens: prompt.maxOutputTokens,
        tools: prompt.tools && prompt.tools.length > 0 ? prompt.tools : undefined,
      };
    },
  };
}

function checkWith(prompt: AgentPromptLike, raw: string): OutputCheck {
  try {
    return { ok: true, value: prompt.parseAndValidate(raw) };
  } catch (e) {
    const err = e as { error_code?: string; details?: { violations?: unknown }; message?: string };
    if (err?.error_code !== 'OUTPUT_VALIDATION_FAILED') throw e;
    const violations = Array.isArray(err.details?.violations) ? err.details.violations.map(String) : [String(err.message)];
    return { ok: false, violations };
  }
}
