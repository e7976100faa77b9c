import { z } from 'zod';
import { toolEntryProblem } from './toolPatterns';

/**
 * The three ways an agent fills its output: choose each field from a list (Chooser), write each field
 * (Writer), or extract each field from the input (Extractor).
 */
export const AGENT_MODES = ['Chooser', 'Writer', 'Extractor'] as const;
/** One of {@link AGENT_MODES}. */
export type AgentMode = (typeof AGENT_MODES)[number];

/**
 * Allowed agent names: letters (case preserved: `A2`, `PreProcessing`), digits, `_` and `-`, starting with a
 * letter or digit, at most 64 characters. Nothing that could name another folder (`..`, `/`, `\`, an absolute
 * path) passes.
 */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Allowed versions: an optional `v`, a digit, then lower-case letters, digits, `_`, `-`, with single dots
 * between parts (`v1`, `v2.1`, `1.0.0-beta`); at most 64 characters. No `..`, no separators.
 */
export const AGENT_VERSION_PATTERN = /^(?=.{1,64}$)v?[0-9][0-9a-z_-]*(\.[0-9a-z_-]+)*$/;

/** Payload keys (and `input_keys`): identifier-like, so every `key = "value"` line stays one unambiguous line. */
export const INPUT_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Prompt text: one string, or an array of lines joined with `\n` (long prompts stay readable in JSON). */
const PromptText = z.union([z.string().min(1), z.array(z.string()).min(1)]);

/** A value an enum may hold. */
const EnumValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * The shape of `config/agents/{agent_name}/{version}.json` (the seed's fields plus two documented extensions).
 *
 * Seed fields: `agent_name`, `version`, `mode`, `system_text`, `purpose_text`, `output_schema` (a JSON schema
 * object: `type: "object"`, `properties`, `required`), `enums` (field → allowed values), `defaults`
 * (field → value filled in when the model leaves the field out or sends null; a field may be both `required`
 * and defaulted: it stays required in the schema sent to the model), `model_name`, `temperature`, `max_output_tokens`,
 * optional `input_keys` (the payload keys the agent takes, in prompt order).
 *
 * Extensions: `description` (for people), `tools` (names of the tools the agent may call, used by the TDD
 * roles; an entry ending in `*` matches by prefix, e.g. `docs__*`, see `toolPatterns.ts`), `output_schema`
 * may be `null` or omitted for agents that end their turn with a free-text report, `context_tokens` (the token
 * budget of the file contents and repository map the TDD supervisor puts in a role's context, at least 500), and
 * `system_text` / `purpose_text` may be arrays of lines. Unknown keys are rejected so typos surface.
 * The output schema's own subset rules are checked separately (see `outputSchema.ts`).
 */
export const AgentConfigSchema = z.strictObject({
  agent_name: z.string().regex(AGENT_NAME_PATTERN, 'must match ^[A-Za-z0-9][A-Za-z0-9_-]*$'),
  version: z.string().regex(AGENT_VERSION_PATTERN, 'must look like v1, v2.1 or 1.0.0'),
  description: z.string().optional(),
  mode: z.enum(AGENT_MODES),
  system_text: PromptText,
  purpose_text: PromptText,
  output_schema: z.record(z.string(), z.unknown()).nullable().default(null),
  enums: z.record(z.string(), z.array(EnumValue).min(1)).default({}),
  defaults: z.record(z.string(), z.unknown()).default({}),
  model_name: z.string().min(1),
  temperature: z.number().min(0).max(2),
  max_output_tokens: z.int().positive(),
  input_keys: z
    .array(z.string().regex(INPUT_KEY_PATTERN, 'must be an identifier (letters, digits, _)'))
    .refine((keys) => new Set(keys).size === keys.length, 'must not repeat a key')
    .optional(),
  tools: z
    .array(
      z.string().superRefine((entry, ctx) => {
        const problem = toolEntryProblem(entry);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    )
    .refine((names) => new Set(names).size === names.length, 'must not repeat a tool')
    .optional(),
  context_tokens: z.int().min(500).optional(),
});

/** A parsed, validated agent config (defaults applied: `output_schema` null, `enums` and `defaults` empty). */
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

/** Joins a prompt text given as an array of lines. */
export function promptText(text: string | string[]): string {
  return Array.isArray(text) ? text.join('\n') : text;
}
