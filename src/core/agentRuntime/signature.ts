import { z } from 'zod';
import { formatProblemList } from '../errors/agentError';
import { zodOutputValidator, type OutputCheck, type OutputValidator } from '../agentsAsData/outputValidator';
import type { JsonSchemaResponseFormat } from '../llm/types';
import { AgentInputError, SignatureError, describeValue } from './errors';
import { parseJsonOutput } from './outputParsing';

/**
 * One input or output field: a zod type and what it means (shown to the model). The type must have a JSON form
 * (inputs reach the model as JSON text, outputs come back as JSON): `z.date()`, `z.function()`, `z.bigint()`,
 * `z.map()`, `z.set()`, `z.undefined()`, `z.symbol()` are refused when the signature compiles (use e.g.
 * `z.iso.datetime()` for a date); an output type may not transform what the model sends into something JSON
 * cannot hold.
 */
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
 * creating agents that share a signature costs nothing. `createSignature` checks the definition's shape and
 * `compile()` that every field has a JSON form; both throw {@link SignatureError} (CONFIG) naming each field.
 */
export interface Signature {
  readonly definition: SignatureDefinition;
  /** The compiled prompt, JSON schema and validators (compiled on first use, then cached). */
  compile(): CompiledSignature;
}

/**
 * Declares a signature: `createSignature({ name, instructions, inputs: { q: { type: z.string(), description } }, outputs })`.
 * Throws {@link SignatureError} (CONFIG) at once when the definition is malformed: no name, instructions that
 * are not text, inputs/outputs that are not objects of fields, a field whose `type` is not a zod type or whose
 * `description` is not text. Whether each type has a JSON form is checked by `compile()` (the first execution).
 */
export function createSignature(definition: SignatureDefinition): Signature {
  checkDefinition(definition);
  let compiled: CompiledSignature | undefined;
  return {
    definition,
    compile: () => (compiled ??= compileSignature(definition)),
  };
}

function compileSignature(def: SignatureDefinition): CompiledSignature {
  checkJsonForms(def);
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isZodType(value: unknown): value is z.ZodType {
  return (
    isPlainObject(value) &&
    '_zod' in value &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function' &&
    typeof (value as { describe?: unknown }).describe === 'function'
  );
}

/** The shape of a definition: name, instructions, and fields of a zod type with a description each. */
function checkDefinition(def: SignatureDefinition): void {
  if (!isPlainObject(def)) throw new SignatureError('(signature)', ['(signature): createSignature takes an object']);
  const problems: string[] = [];
  const name = typeof def.name === 'string' ? def.name : '(signature)';
  if (typeof def.name !== 'string' || def.name.trim() === '')
    problems.push(`name: must be a non-empty string, got ${describeValue(def.name)}`);
  if (def.version !== undefined && (typeof def.version !== 'string' || def.version.trim() === ''))
    problems.push(`version: must be a non-empty string when given, got ${describeValue(def.version)}`);
  if (typeof def.instructions !== 'string') problems.push(`instructions: must be text, got ${describeValue(def.instructions)}`);
  for (const side of ['inputs', 'outputs'] as const) {
    const fields: unknown = def[side];
    if (side === 'outputs' && fields === undefined) continue;
    if (!isPlainObject(fields)) {
      problems.push(`${side}: must be an object of fields ({ name: { type, description } }), got ${describeValue(fields)}`);
      continue;
    }
    for (const [field, spec] of Object.entries(fields)) {
      if (!isPlainObject(spec)) {
        problems.push(`${side}.${field}: must be { type, description }, got ${describeValue(spec)}`);
        continue;
      }
      if (!isZodType(spec.type))
        problems.push(`${side}.${field}: the type must be a zod type (zod 4, e.g. z.string()), got ${describeValue(spec.type)}`);
      if (typeof spec.description !== 'string')
        problems.push(`${side}.${field}: the description must be text, got ${describeValue(spec.description)}`);
    }
  }
  if (problems.length > 0) throw new SignatureError(name, problems);
}

/**
 * Every field's type has a JSON form: inputs as the caller gives them, outputs as the model writes them (the
 * response format) and as the agent returns them. Throws SignatureError naming each field that has none.
 */
function checkJsonForms(def: SignatureDefinition): void {
  const problems: string[] = [];
  const check = (where: string, type: z.ZodType, ios: ReadonlyArray<'input' | 'output'>) => {
    for (const io of ios) {
      try {
        z.toJSONSchema(type, { io, unrepresentable: 'throw' });
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        problems.push(
          `${where}: ${why}; use a type with a JSON form (e.g. z.iso.datetime() for a date, z.string() for a big number)`,
        );
        return;
      }
    }
  };
  for (const [field, spec] of Object.entries(def.inputs)) check(`inputs.${field}`, spec.type, ['input']);
  for (const [field, spec] of Object.entries(def.outputs ?? {})) check(`outputs.${field}`, spec.type, ['input', 'output']);
  if (problems.length > 0) throw new SignatureError(def.name, problems);
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
}
