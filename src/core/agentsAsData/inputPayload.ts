import { AgentConfigError } from './errors';
import { isPlainObject, jsonTypeOf } from './outputSchema';
import { INPUT_KEY_PATTERN, type AgentConfig } from './schema';

/** The values an agent is asked about, by key (e.g. `{ question, context }`). */
export type InputPayload = Record<string, unknown>;

/**
 * Checks a payload against the agent's `input_keys` and returns its `key = value` lines in prompt order.
 *
 * Rules: keys are identifiers; when `input_keys` is declared it is the complete contract (every key must be
 * present and not undefined, no other key is accepted) and fixes the order; otherwise keys keep their
 * insertion order and undefined values are skipped. A single-line value is written as JSON on one line:
 * `key = "value"` (`"`, `\` and control characters escaped), other values JSON-encoded as they are (`3`, `true`,
 * `null`, `["a","b"]`). A string with a line break is written raw, so code reaches the model exactly as it is in
 * its file: `<key>` on its own line, the text unchanged, then `</key>` on its own line (see {@link rawBlock}).
 * Throws an {@link AgentConfigError} listing every problem.
 */
export function payloadLines(config: AgentConfig, payload: unknown): string[] {
  const label = `${config.agent_name}/${config.version}`;
  if (!isPlainObject(payload)) {
    throw new AgentConfigError(
      `Input for agent ${label} is invalid.`,
      [`input: expected an object of input values, got ${jsonTypeOf(payload)}`],
      { agent: label },
    );
  }
  const declared = config.input_keys;
  const takes = declared ? ` (this agent takes: ${declared.join(', ') || 'no input'})` : '';
  const problems: string[] = [];
  for (const key of Object.keys(payload)) {
    if (!INPUT_KEY_PATTERN.test(key))
      problems.push(`input key ${JSON.stringify(key)}: must be an identifier (letters, digits, _)`);
    else if (declared && !declared.includes(key)) problems.push(`input.${key}: not an input of this agent${takes}`);
  }
  for (const key of declared ?? []) {
    if (payload[key] === undefined) problems.push(`input.${key}: missing${takes}`);
  }
  const keys = (declared ?? Object.keys(payload)).filter((key) => payload[key] !== undefined);
  const lines: string[] = [];
  for (const key of keys) {
    const value = payload[key];
    const block = typeof value === 'string' ? rawBlock(key, value) : undefined;
    if (block !== undefined) {
      lines.push(block);
      continue;
    }
    const encoded = encodeJson(value);
    if (typeof encoded === 'string') lines.push(`${key} = ${encoded}`);
    else problems.push(`input.${key}: cannot be written as JSON (${encoded.reason})`);
  }
  if (problems.length > 0) {
    throw new AgentConfigError(`Input for agent ${label} is incomplete or invalid.`, problems, {
      agent: label,
      keys: Object.keys(payload),
    });
  }
  return lines;
}

/**
 * A multi-line string as a raw block: `<key>\n` + the text exactly + `\n</key>`, so `value` is everything between
 * the first line and the last. Undefined for a single-line string, and for a text holding a `</key>` line of its
 * own (which would end the block early): those stay JSON string literals.
 */
export function rawBlock(key: string, value: string): string | undefined {
  if (!/[\r\n]/.test(value) || value.includes(`</${key}>`)) return undefined;
  return `<${key}>\n${value}\n</${key}>`;
}

/** The text of the raw block `<key>` in a composed message (the inverse of {@link rawBlock}), or undefined. */
export function readRawBlock(message: string, key: string): string | undefined {
  const open = `<${key}>\n`;
  const start = message.indexOf(open);
  if (start < 0 || (start > 0 && message[start - 1] !== '\n')) return undefined;
  const end = message.indexOf(`\n</${key}>`, start + open.length - 1);
  return end < 0 ? undefined : message.slice(start + open.length, end);
}

/** JSON text of a value, or why it has none (a function, a symbol, a BigInt, a cycle). */
function encodeJson(value: unknown): string | { reason: string } {
  try {
    return JSON.stringify(value) ?? { reason: `got ${typeof value}` };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}
