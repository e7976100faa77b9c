import { INPUT_KEY_PATTERN } from './schema';

/**
 * The JSON-schema subset an agent's `output_schema` may use. It is small on purpose: every keyword here is
 * accepted by OpenAI's strict structured outputs (and by Ollama, vLLM and LM Studio), and is enforced by
 * `validateOutput`. Any other keyword makes the config invalid, so a schema never promises a check
 * that nothing performs.
 *
 * - every node: `type` (one of string, number, integer, boolean, array, object; required), `description`, `title`
 * - string, number, integer, boolean: `enum` (non-empty list of values of that type)
 * - number, integer: `minimum`, `maximum` (inclusive)
 * - array: `items` (required, one schema), `minItems`, `maxItems`
 * - object: `properties` (required), `required` (names from `properties`), `additionalProperties` (only `false`)
 */
export interface OutputSchemaNode {
  type: OutputSchemaType;
  description?: string;
  title?: string;
  enum?: EnumValue[];
  minimum?: number;
  maximum?: number;
  items?: OutputSchemaNode;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, OutputSchemaNode>;
  required?: string[];
  additionalProperties?: false;
}

/** The value types of the supported subset. */
export const OUTPUT_SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
/** One of {@link OUTPUT_SCHEMA_TYPES}. */
export type OutputSchemaType = (typeof OUTPUT_SCHEMA_TYPES)[number];
/** A value an `enum` may list. */
export type EnumValue = string | number | boolean;

const COMMON_KEYWORDS = ['type', 'description', 'title'];
const KEYWORDS: Record<OutputSchemaType, string[]> = {
  string: [...COMMON_KEYWORDS, 'enum'],
  boolean: [...COMMON_KEYWORDS, 'enum'],
  number: [...COMMON_KEYWORDS, 'enum', 'minimum', 'maximum'],
  integer: [...COMMON_KEYWORDS, 'enum', 'minimum', 'maximum'],
  array: [...COMMON_KEYWORDS, 'items', 'minItems', 'maxItems'],
  object: [...COMMON_KEYWORDS, 'properties', 'required', 'additionalProperties'],
};

/** True for a plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type name of a value, as used in messages (`null`, `array`, `integer` is reported as `number`). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** True when `value` has the given subset type. */
function hasType(type: OutputSchemaType, value: unknown): boolean {
  switch (type) {
    case 'string':
    case 'boolean':
      return typeof value === type;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
  }
}

/**
 * Checks that `node` uses only the supported subset and is self-consistent. Returns one `path: problem` line
 * per problem; an empty list means the schema is usable. `path` names the node in messages.
 */
export function checkOutputSchema(node: unknown, path = 'output_schema'): string[] {
  const problems: string[] = [];
  checkNode(node, path, problems);
  if (problems.length === 0 && (node as OutputSchemaNode).type !== 'object') {
    problems.push(`${path}.type: must be "object" (the model replies with one JSON object)`);
  }
  return problems;
}

function checkNode(node: unknown, path: string, problems: string[]): void {
  if (!isPlainObject(node)) {
    problems.push(`${path}: must be a JSON schema object, got ${jsonTypeOf(node)}`);
    return;
  }
  const type = node.type;
  if (typeof type !== 'string' || !(OUTPUT_SCHEMA_TYPES as readonly string[]).includes(type)) {
    problems.push(`${path}.type: must be one of ${OUTPUT_SCHEMA_TYPES.join(', ')}, got ${JSON.stringify(type) ?? 'nothing'}`);
    return;
  }
  const t = type as OutputSchemaType;
  for (const key of Object.keys(node)) {
    if (!KEYWORDS[t].includes(key)) {
      problems.push(`${path}.${key}: unsupported keyword for type ${t} (supported: ${KEYWORDS[t].join(', ')})`);
    }
  }
  for (const key of ['description', 'title']) {
    if (key in node && typeof node[key] !== 'string') problems.push(`${path}.${key}: must be a string`);
  }
  if ('enum' in node) problems.push(...checkEnumValues(t, node.enum, `${path}.enum`));
  checkBounds(node, path, 'minimum', 'maximum', (v) => typeof v === 'number' && Number.isFinite(v), 'a number', problems);
  checkBounds(
    node,
    path,
    'minItems',
    'maxItems',
    (v) => Number.isInteger(v) && (v as number) >= 0,
    'a non-negative integer',
    problems,
  );
  if (t === 'array') {
    if ('items' in node) checkNode(node.items, `${path}.items`, problems);
    else problems.push(`${path}.items: missing (an array needs the schema of its items)`);
  }
  if (t === 'object') checkObjectNode(node, path, problems);
}

function checkBounds(
  node: Record<string, unknown>,
  path: string,
  lowKey: string,
  highKey: string,
  valid: (value: unknown) => boolean,
  what: string,
  problems: string[],
): void {
  for (const key of [lowKey, highKey]) {
    if (key in node && !valid(node[key])) problems.push(`${path}.${key}: must be ${what}`);
  }
  const low = node[lowKey];
  const high = node[highKey];
  if (valid(low) && valid(high) && (low as number) > (high as number)) {
    problems.push(`${path}: ${lowKey} (${String(low)}) is greater than ${highKey} (${String(high)})`);
  }
}

function checkObjectNode(node: Record<string, unknown>, path: string, problems: string[]): void {
  const properties = node.properties;
  if (!isPlainObject(properties)) {
    problems.push(`${path}.properties: ${properties === undefined ? 'missing' : 'must be an object of property schemas'}`);
  } else {
    for (const [key, child] of Object.entries(properties)) {
      if (!INPUT_KEY_PATTERN.test(key))
        problems.push(`${path}.properties.${key}: property names must be identifiers (letters, digits, _)`);
      checkNode(child, `${path}.properties.${key}`, problems);
    }
  }
  if ('required' in node) {
    const required = node.required;
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) {
      problems.push(`${path}.required: must be an array of property names`);
    } else {
      if (new Set(required).size !== required.length) problems.push(`${path}.required: lists a property twice`);
      for (const name of required as string[]) {
        if (isPlainObject(properties) && !(name in properties)) problems.push(`${path}.required: "${name}" is not in properties`);
      }
    }
  }
  if ('additionalProperties' in node && node.additionalProperties !== false) {
    problems.push(`${path}.additionalProperties: only false is supported (extra keys are dropped from the output)`);
  }
}

/** Checks an enum list against a property type; returns problems prefixed with `path`. */
export function checkEnumValues(type: OutputSchemaType, values: unknown, path: string): string[] {
  if (type === 'array' || type === 'object')
    return [`${path}: enums apply to string, number, integer or boolean fields, not ${type}`];
  if (!Array.isArray(values) || values.length === 0) return [`${path}: must be a non-empty array`];
  const problems: string[] = [];
  values.forEach((value, i) => {
    if (!hasType(type, value)) problems.push(`${path}[${i}]: ${JSON.stringify(value)} is not a ${type}`);
  });
  if (new Set(values.map((v) => JSON.stringify(v))).size !== values.length) problems.push(`${path}: lists a value twice`);
  return problems;
}

/**
 * Converts a checked schema to what OpenAI's strict mode accepts: every object lists all its properties in
 * `required` and has `additionalProperties: false`; a property that was optional becomes nullable
 * (`type: [t, "null"]`, and `null` joins its enum), so the model can still leave it out by sending null.
 * {@link validateOutput} treats null in an optional field as absent and fills the config's default.
 */
export function toStrictSchema(node: OutputSchemaNode): Record<string, unknown> {
  const out: Record<string, unknown> = { ...node };
  if (node.items) out.items = toStrictSchema(node.items);
  if (node.properties) {
    const required = new Set(node.required ?? []);
    const properties: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node.properties)) {
      const strict = toStrictSchema(child);
      if (!required.has(key)) {
        strict.type = [child.type, 'null'];
        if (child.enum) strict.enum = [...child.enum, null];
      }
      properties[key] = strict;
    }
    out.properties = properties;
    out.required = Object.keys(node.properties);
    out.additionalProperties = false;
  }
  return out;
}

/**
 * Validates `value` against a checked schema node and returns a clean copy: keys not in `properties` are
 * dropped, optional fields that are missing or null are left out. Each violation is appended to
 * `violations` as `path: what`; the returned value is only meaningful when none were added.
 */
export function validateOutput(node: OutputSchemaNode, value: unknown, path: string, violations: string[]): unknown {
  const where = path || '(root)';
  if (!hasType(node.type, value)) {
    let got = jsonTypeOf(value);
    // Only a number can fail a number or integer check by value rather than by type.
    if (got === 'number' && (node.type === 'number' || node.type === 'integer')) {
      got = Number.isFinite(value) ? 'a non-integer number' : 'a non-finite number';
    }
    violations.push(`${where}: expected ${node.type === 'object' ? 'a JSON object' : node.type}, got ${got}`);
    return undefined;
  }
  if (node.enum && !node.enum.includes(value as EnumValue)) {
    violations.push(
      `${where}: expected one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`,
    );
  }
  if (typeof value === 'number') {
    if (node.minimum !== undefined && value < node.minimum)
      violations.push(`${where}: must be at least ${node.minimum}, got ${value}`);
    if (node.maximum !== undefined && value > node.maximum)
      violations.push(`${where}: must be at most ${node.maximum}, got ${value}`);
  }
  if (Array.isArray(value)) {
    if (node.minItems !== undefined && value.length < node.minItems)
      violations.push(`${where}: must have at least ${node.minItems} items, got ${value.length}`);
    if (node.maxItems !== undefined && value.length > node.maxItems)
      violations.push(`${where}: must have at most ${node.maxItems} items, got ${value.length}`);
    return value.map((item, i) => validateOutput(node.items as OutputSchemaNode, item, `${path}[${i}]`, violations));
  }
  if (isPlainObject(value)) {
    const required = new Set(node.required ?? []);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const childPath = path ? `${path}.${key}` : key;
      const item = value[key];
      if (item === undefined || item === null) {
        if (required.has(key)) violations.push(`${childPath}: required${item === null ? ' (got null)' : ''}`);
        continue;
      }
      out[key] = validateOutput(child, item, childPath, violations);
    }
    return out;
  }
  return value;
}
