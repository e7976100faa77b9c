import { z } from 'zod';
import { formatProblemList } from '../errors/agentError';
import { zodOutputValidator, type OutputCheck, type OutputValidator } from '../agentsAsData/outputValidator';
import type { JsonSchemaResponseFormat } from '../llm/types';
import { AgentInputError } from './errors';
import { parseJsonOutput } from './outputParsing';

/** One input or output field: a zod type and what it means (shown to the model). */
export interface SignatureField {
  type: z.ZodType;
  description: string;
}

/** What `createSignature` takes: the agent's name/version, instructions, and its input and output fields. */
export interface SignatureDefinition {
  /** Used in the `agent: <name>/<version>` first line of the system prompt and in the schema name. */
  name: string;
  version?: string;
  instructions: string;
  inputs: Record<string, SignatureField>;
  /** Output fields of the JSON reply; omit for an agent that ends with a free-text answer. */
  outputs?: Record<string, SignatureField>;
}

/** A signature compiled into prompt text, JSON schema and validators. */
export interface CompiledSignature {
  systemPrompt: string;
  /** Undefined for free-text signatures (no outputs). */
  responseFormat?: JsonSchemaResponseFormat;
  jsonSchema?: Record<string, unknown>;
  /** The outputs as an {@link OutputValidator} (the same interface an agent config's `output_schema` has); undefined for free text. */
  output?: OutputValidator;
  /** Validates and normalises inputs; throws AgentInputError naming the fields. */
  parseInputs(inputs: Record<string, unknown>): Record<string, unknown>;
  /** Renders the inputs as the user message. */
  renderInputs(inputs: Record<string, unknown>): string;
  /** Parses model text as JSON and validates it: `{ ok, value }` or `{ ok: false, violations }`; undefined for free text. */
  validateOutput?: (raw: string) => OutputCheck;
}

/**
 * A declared agent contract. Compiling is lazy and happens once per signature object (cached), so
 * creating agents that share a signature costs nothing.
 */
export interface Signature {
  readonly definition: SignatureDefinition;
  /** The compiled prompt, JSON schema and validators (compiled on first use, then cached). */
  compile(): CompiledSignature;
}

/** Declares a signature: `createSignature({ name, instructions, inputs: { q: { type: z.string(), description } }, outputs })`. */
export function createSignature(definition: SignatureDefinition): Signature {
  let compiled: CompiledSignature | undefined;
  return {
    definition,
    compile: () => (compiled ??= compileSignature(definition)),
  };
}

function compileSignature(def: SignatureDefinition): CompiledSignature {
  const inputSchema = z.object(mapValues(def.inputs, (f) => f.type.describe(f.description)));
  const outputs = def.outputs;
  const outputSchema = outputs ? z.strictObject(mapValues(outputs, (f) => f.type.describe(f.description))) : undefined;
  const output = outputSchema ? zodOutputValidator(outputSchema as z.ZodType<Record<string, unknown>>) : undefined;
  const jsonSchema = output?.jsonSchema;
  const version = def.version ?? 'v1';
  const describe = (fields: Record<string, SignatureField>) =>
    Object.entries(fields)
      .map(([name, f]) => `- ${name}: ${f.description}`)
      .join('\n');
  const systemPrompt = [
    `agent: ${def.name}/${version}`,
    def.instructions,
    '',
    'Inputs:',
    describe(def.inputs),
    '',
    ...(outputs
      ? ['Reply with one JSON object with exactly these fields:', describe(outputs)]
      : ['When you are done, reply with your final answer as plain text.']),
  ].join('\n');
  return {
    systemPrompt,
    jsonSchema,
    output,
    responseFormat: jsonSchema
      ? {
          type: 'json_schema',
          json_schema: { name: `${def.name.replace(/[^A-Za-z0-9_-]/g, '_')}_output`.slice(0, 64), schema: jsonSchema },
        }
      : undefined,
    parseInputs(inputs) {
      const parsed = inputSchema.safeParse(inputs);
      if (parsed.success) return parsed.data as Record<string, unknown>;
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(inputs)'}: ${i.message}`);
      throw new AgentInputError(formatProblemList(`Invalid inputs for agent ${def.name}:`, problems), { problems });
    },
    renderInputs(inputs) {
      return Object.keys(def.inputs)
        .filter((k) => inputs[k] !== undefined)
        .map((k) => `${k}: ${typeof inputs[k] === 'string' ? inputs[k] : JSON.stringify(inputs[k])}`)
        .join('\n');
    },
    validateOutput:
      output &&
      ((raw: string) => {
        const json = parseJsonOutput(raw);
        return json.ok ? output.check(json.value) : { ok: false, violations: [json.problem] };
      }),
  };
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
}
