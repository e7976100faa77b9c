import { z } from 'zod';
import { type McpServerConfig, mcpServerConfigSchema } from '../core';
import { UsageError } from './cliIo';
import { readFlagFile } from './flagFile';

const fileSchema = z.array(mcpServerConfigSchema);

/**
 * Reads `--mcp-config FILE`: a JSON array of MCP server configs (the core's `mcpServerConfigSchema`, the
 * same shape as the `tddAgent.mcpServers` setting). A missing file, one that is no regular file (a FIFO, a device,
 * a folder) or is over 1 MiB, bad JSON or an invalid entry is a {@link UsageError} (exit 2) listing every problem as
 * `[index].field: what`.
 */
export async function readMcpConfigFile(file: string): Promise<McpServerConfig[]> {
  const text = await readFlagFile('--mcp-config', file);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--mcp-config ${file} is not valid JSON: ${(err as Error).message}.`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('') || '(file)';
      return `  - ${where}: ${issue.message}`;
    });
    throw new UsageError(
      `--mcp-config ${file} must be a JSON array of MCP servers ({ "name", "transport": "stdio", "command", "args" } or { "name", "transport": "http", "url" }):\n${problems.join('\n')}`,
    );
  }
  const seen = new Set<string>();
  for (const server of parsed.data) {
    if (seen.has(server.name))
      throw new UsageError(`--mcp-config ${file}: two MCP servers are named "${server.name}"; names must be unique.`);
    seen.add(server.name);
  }
  return parsed.data;
}
