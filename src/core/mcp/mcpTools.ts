import { z } from 'zod';
import type { RegisteredTool } from '../tools/registry';
import type { DangerLevel } from '../vocabulary';
import type { McpServerConnection, McpToolInfo } from './mcpServerConnection';
import { mcpToolName } from './toolNames';

/** MCP arguments are a JSON object; the server validates them against its own schema. */
const mcpArguments = z.record(z.string(), z.unknown());

/**
 * Registry entries for a server's tools: category `mcp`, the configured danger level (default
 * MEDIUM; the server's own annotations are not trusted), names `<server>__<tool>`, and the
 * server's JSON schema passed to the model as-is. Calls go to `connection.callTool` with the
 * executor's AbortSignal.
 */
export function mcpToolDefinitions(
  connection: McpServerConnection,
  tools: readonly McpToolInfo[],
  taken: (name: string) => boolean,
): RegisteredTool[] {
  const config = connection.config;
  const used = new Set<string>();
  return tools.map((info) => {
    const name = mcpToolName(config.name, info.name, (n) => taken(n) || used.has(n));
    used.add(name);
    const dangerLevel: DangerLevel = config.toolDangerLevels?.[info.name] ?? config.dangerLevel ?? 'MEDIUM';
    const { $schema: _ignored, ...inputJsonSchema } = info.inputSchema;
    const tool: RegisteredTool = {
      name,
      description: `${(info.description ?? '').trim() || `Tool ${info.name}`} (MCP server "${config.name}", tool "${info.name}")`,
      category: 'mcp',
      dangerLevel,
      parameters: mcpArguments,
      inputJsonSchema: { type: 'object', ...inputJsonSchema },
      execute: (params: Record<string, unknown>, context) => connection.callTool(info.name, params, { signal: context.signal }),
    };
    return tool;
  });
}
