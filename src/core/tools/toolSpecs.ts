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

/** Each registered tool's spec, built once: `z.toJSONSchema` on every model call was most of a tool loop's own cost. */
const specs = new WeakMap<RegisteredTool, ToolSpec>();

/**
 * Turns tools into OpenAI function tools (`{ type: 'function', function: { name, description, parameters } }`).
 * A tool's spec is built once and then reused (a tool registered again is a new object and gets a new one); treat
 * the returned specs as read-only.
 */
export function toToolSpecs(tools: readonly RegisteredTool[]): ToolSpec[] {
  return tools.map((tool) => {
    let spec = specs.get(tool);
    if (!spec) {
      spec = {
        type: 'function',
        function: {
          name: tool.name,
          description: `${tool.description} [danger: ${tool.dangerLevel}]`,
          parameters: toolParametersJsonSchema(tool),
        },
      };
      specs.set(tool, spec);
    }
    return spec;
  });
}
