import { z } from 'zod';
import type { ToolSpec } from '../llm/types';
import type { RegisteredTool } from './registry';

/**
 * The JSON schema the model sees for one tool: the MCP server's schema as-is when the tool
 * carries one, otherwise `z.toJSONSchema` of its zod parameters (input side, so defaults make
 * fields optional). The `$schema` key is dropped: OpenAI does not need it.
 */
export function toolParametersJsonSchema(tool: RegisteredTool): Record<string, unknown> {
  if (tool.inputJsonSchema) return tool.inputJsonSchema;
  const schema = z.toJSONSchema(tool.parameters, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/** Turns tools into OpenAI function tools (`{ type: 'function', function: { name, description, parameters } }`). */
export function toToolSpecs(tools: readonly RegisteredTool[]): ToolSpec[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: `${tool.description} [danger: ${tool.dangerLevel}]`,
      parameters: toolParametersJsonSchema(tool),
    },
  }));
}
