import type { z } from 'zod';
import { AgentConfigError } from './errors';
import { parseJsoncText } from '../json/jsonText';
import {
  checkEnumValues,
  checkOutputSchema,
  isPlainObject,
  jsonTypeOf,
  validateOutput,
  type OutputSchemaNode,
} from './outputSchema';
import { AGENT_MODES, AgentConfigSchema, type AgentConfig } from './schema';

/** A config that passed every check, with its output schema as the prompt and validator use it. */
export interface CheckedAgentConfig {
  config: AgentConfig;
  /** `output_schema` with the `enums` merged into its properties; null for free-text agents. */
  outputSchema: OutputSchemaNode | null;
}

/** Where a config came from, so messages name the file and the name/version the path promises. */
export interface ConfigOrigin {
  file: string;
  agentName: string;
  version: string;
}

/** Renders a zod issue path as `a.b[0]`. */
function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path)
    value = isPlainObject(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** One readable line per zod issue: missing keys, unknown keys and invalid modes get their own wording. */
function formatIssue(issue: z.core.$ZodIssue, raw: unknown): string[] {
  const where = formatPath(issue.path) || '(root)';
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${formatPath([...issue.path, key])}: unknown key (check its spelling)`);
  }
  const value = valueAt(raw, issue.path);
  if (value === undefined) return [`${where}: missing required key`];
  if (issue.path.length === 1 && issue.path[0] === 'mode') {
    return [`mode: must be one of ${AGENT_MODES.join(', ')}, got ${JSON.stringify(value)}`];
  }
  if (issue.code === 'invalid_type') return [`${where}: expected ${issue.expected}, got ${jsonTypeOf(value)}`];
  if (issue.code === 'invalid_union' && (where === 'system_text' || where === 'purpose_text')) {
    return [`${where}: expected a non-empty string or an array of lines, got ${JSON.stringify(value)}`];
  }
  return [`${where}: ${issue.message}`];
}

/** Checks `enums`, `defaults` and the mode against a usable output schema; returns the merged schema. */
function checkAgainstSchema(raw: Record<string, unknown>, schema: OutputSchemaNode, problems: string[]): OutputSchemaNode {
  const properties: Record<string, OutputSchemaNode> = { ...(schema.properties ?? {}) };
  const enums = isPlainObject(raw.enums) ? raw.enums : {};
  if (raw.enums !== undefined && !isPlainObject(raw.enums))
    problems.push(`enums: expected an object of field → allowed values, got ${jsonTypeOf(raw.enums)}`);
  for (const [field, values] of Object.entries(enums)) {
    const property = properties[field];
    if (!property) {
      problems.push(`enums.${field}: "${field}" is not a property of output_schema`);
      continue;
    }
    const enumProblems = checkEnumValues(property.type, values, `enums.${field}`);
    problems.push(...enumProblems);
    if (enumProblems.length > 0) continue;
    const list = values as NonNullable<OutputSchemaNode['enum']>;
    if (property.enum && JSON.stringify([...property.enum].sort()) !== JSON.stringify([...list].sort())) {
      problems.push(
        `enums.${field}: ${JSON.stringify(list)} differs from output_schema.properties.${field}.enum ${JSON.stringify(property.enum)}`,
      );
      continue;
    }
    properties[field] = { ...property, enum: property.enum ?? list };
  }
  const merged: OutputSchemaNode = { ...schema, properties };
  const defaults = isPlainObject(raw.defaults) ? raw.defaults : {};
  for (const [field, value] of Object.entries(defaults)) {
    const property = properties[field];
    if (!property) problems.push(`defaults.${field}: "${field}" is not a property of output_schema`);
    // A default on a required field stays required in the model's schema and fills in when the model omits it.
    else validateOutput(property, value, `defaults.${field}`, problems);
  }
  if (raw.mode === 'Chooser' && !Object.values(properties).some((p) => p.enum)) {
    problems.push('mode: Chooser needs at least one field with a list of allowed values (in enums or output_schema)');
  }
  return merged;
}

/**
 * Parses and checks the text of one agent config file (JSON, with comments and trailing commas allowed as in
 * VS Code's settings) and returns it ready to use, or throws an
 * {@link AgentConfigError} naming every problem at once: bad JSON (with line and column), missing or unknown
 * keys, wrong types, an invalid mode, `agent_name`/`version` that differ from the path, an output schema
 * outside the supported subset, `enums` inconsistent with `output_schema`, defaults of the wrong type.
 */
export function checkAgentConfig(text: string, origin: ConfigOrigin): CheckedAgentConfig {
  const label = `${origin.agentName}/${origin.version}`;
  const details = { file: origin.file, agent: label };
  const parsed = parseJsoncText(text);
  if (!parsed.ok) {
    const { line, column, reason } = parsed.problem;
    throw new AgentConfigError(`Agent config ${label} is not valid JSON.`, [`${origin.file}:${line}:${column}: ${reason}`], {
      ...details,
      line,
      column,
    });
  }
  const raw = parsed.value;
  if (!isPlainObject(raw)) {
    throw new AgentConfigError(
      `Agent config ${label} is not usable.`,
      [`(root): expected a JSON object, got ${jsonTypeOf(raw)}`],
      details,
    );
  }
  const result = AgentConfigSchema.safeParse(raw);
  const problems: string[] = [];
  if (typeof raw.agent_name === 'string' && raw.agent_name !== origin.agentName) {
    problems.push(
      `agent_name: ${JSON.stringify(raw.agent_name)} does not match the file path (expected ${JSON.stringify(origin.agentName)})`,
    );
  }
  if (typeof raw.version === 'string' && raw.version !== origin.version) {
    problems.push(
      `version: ${JSON.stringify(raw.version)} does not match the file path (expected ${JSON.stringify(origin.version)})`,
    );
  }
  let outputSchema: OutputSchemaNode | null = null;
  if (raw.output_schema !== undefined && raw.output_schema !== null) {
    const schemaProblems = checkOutputSchema(raw.output_schema);
    problems.push(...schemaProblems);
    if (schemaProblems.length === 0)
      outputSchema = checkAgainstSchema(raw, raw.output_schema as unknown as OutputSchemaNode, problems);
  } else {
    for (const key of ['enums', 'defaults'] as const) {
      if (isPlainObject(raw[key]) && Object.keys(raw[key]).length > 0)
        problems.push(`${key}: needs an output_schema (this agent has none)`);
    }
    if (raw.mode === 'Chooser') problems.push('mode: Chooser needs an output_schema with fields to choose');
  }
  // output_schema (and enums, when there is a usable schema) get more specific checks above.
  const covered = new Set<PropertyKey>(['output_schema', ...(outputSchema ? ['enums'] : [])]);
  const issues = result.success ? [] : result.error.issues.filter((issue) => !covered.has(issue.path[0]));
  problems.unshift(...issues.flatMap((issue) => formatIssue(issue, raw)));
  /* c8 ignore next */
  if (problems.length === 0 && !result.success) problems.push(...result.error.issues.flatMap((issue) => formatIssue(issue, raw)));
  if (problems.length > 0 || !result.success) {
    throw new AgentConfigError(
      `Agent config ${label} (${origin.file}) has ${problems.length} problem${problems.length === 1 ? '' : 's'}:`,
      problems,
      details,
    );
  }
  return { config: result.data, outputSchema };
}
