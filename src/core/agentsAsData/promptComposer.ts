import type { OutputSchemaNode } from './outputSchema';
import { promptText, type AgentConfig, type AgentMode } from './schema';

/** The fixed last paragraph of the system message of an agent that replies with JSON. */
export const JSON_ONLY_INSTRUCTION =
  'Reply with exactly one JSON object that matches the response schema. Write nothing before or after it: no explanation, no Markdown code fence.';

/** The fixed last paragraph of the system message of an agent that ends with a free-text report. */
export const REPORT_INSTRUCTION = 'When done, end your turn with a short plain-text report (no tool call).';

/** The fixed closing sentence of the user message, per kind of reply. */
export const CLOSING_SENTENCE = {
  json: 'Return only the JSON object, with exactly the fields listed above.',
  report: 'Begin now.',
} as const;

/** What each mode asks of the fields (JSON agents) or of the task (free-text agents). */
export const MODE_INSTRUCTIONS: Record<AgentMode, { json: string; report: string }> = {
  Chooser: {
    json: 'Choose the value of each field from its list of allowed values; never use a value that is not listed:',
    report: 'Make the choice the task asks for.',
  },
  Writer: {
    json: 'Write the value of each field:',
    report: 'Carry out the task described above.',
  },
  Extractor: {
    json: 'Extract the value of each field from the input above, using only what the input states (null for an optional field the input does not give):',
    report: 'Extract what the task asks for from the input above, using only what the input states.',
  },
};

/** The system message: `agent: <name>/<version>` first (for traceability), then system, purpose, fixed instruction. */
export function composeSystemMessage(config: AgentConfig, hasSchema: boolean): string {
  return [
    `agent: ${config.agent_name}/${config.version}`,
    promptText(config.system_text),
    '',
    promptText(config.purpose_text),
    '',
    hasSchema ? JSON_ONLY_INSTRUCTION : REPORT_INSTRUCTION,
  ].join('\n');
}

/** Describes a field's type and constraints in words, e.g. `number from 0 to 1` or `one of "a", "b"`. */
function describeType(node: OutputSchemaNode): string {
  if (node.enum) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (node.type === 'array') {
    const items = `array of ${describeType(node.items as OutputSchemaNode)}`;
    const { minItems: min, maxItems: max } = node;
    const unit = (n: number) => (n === 1 ? 'item' : 'items');
    if (min !== undefined && max !== undefined) return `${items}, ${min} to ${max} ${unit(max)}`;
    if (min !== undefined) return `${items}, at least ${min} ${unit(min)}`;
    return max !== undefined ? `${items}, at most ${max} ${unit(max)}` : items;
  }
  if (node.type === 'object') return `object with fields ${Object.keys(node.properties ?? {}).join(', ')}`;
  const { minimum: min, maximum: max } = node;
  if (min !== undefined && max !== undefined) return `${node.type} from ${min} to ${max}`;
  if (min !== undefined) return `${node.type}, at least ${min}`;
  return max !== undefined ? `${node.type}, at most ${max}` : node.type;
}

/** One `- name (type[, optional]): description` line per top-level field, in schema order. */
function fieldLines(schema: OutputSchemaNode): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, node]) => {
    const optional = required.has(name) ? '' : ', optional';
    const description = node.description ? `: ${node.description}` : '';
    return `- ${name} (${describeType(node)}${optional})${description}`;
  });
}

/**
 * The user message: the input as `key = value` lines and raw `<key>` blocks (see `payloadLines`), the mode's instruction (with the
 * field list for JSON agents, each field's allowed values printed), and the fixed closing sentence.
 */
export function composeUserMessage(config: AgentConfig, schema: OutputSchemaNode | null, lines: readonly string[]): string {
  const kind = schema ? 'json' : 'report';
  const parts = ['Input:', ...(lines.length > 0 ? lines : ['(none)']), '', MODE_INSTRUCTIONS[config.mode][kind]];
  if (schema) parts.push(...fieldLines(schema));
  parts.push('', CLOSING_SENTENCE[kind]);
  return parts.join('\n');
}
