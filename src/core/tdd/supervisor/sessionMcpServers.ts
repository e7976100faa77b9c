import { getLogger, type Logger } from '../../logging/logger';
import type { McpServerConfig } from '../../mcp/config';
import { McpHub, type McpServerStatus } from '../../mcp/mcpHub';
import type { ToolRegistry } from '../../tools/registry';

const log = getLogger('tdd.session');

/** The MCP servers of one kata session, connected into its tool registry. */
export interface SessionMcpServers {
  hub: McpHub;
  /** One status per configured server, in configuration order, as it was after connecting. */
  statuses: McpServerStatus[];
}

/** The hub's own logger with its "unavailable" warning turned into info: the session warns once per server itself. */
function hubLogger(): Logger {
  const base = getLogger('mcp');
  return { ...base, warn: (...args: Parameters<Logger['info']>) => base.info(...args) };
}

/** One sentence for a server the session goes on without. */
function mcpWarning(status: McpServerStatus): string {
  const why = status.error?.message ?? 'it did not connect';
  return `MCP server "${status.name}" is not available; the session goes on without its tools. ${why}`;
}

/**
 * Starts the session's MCP servers and registers their tools (`<server>__<tool>`, category `mcp`) into
 * `registry`; stdio servers without a `cwd` start in the workspace. A server that is misconfigured, does
 * not start or does not answer is logged as a warning and left out. Never throws; call `hub.close()` at
 * the end of the session (it stops every child process and unregisters the tools).
 */
export async function connectSessionMcpServers(
  registry: ToolRegistry,
  servers: readonly McpServerConfig[],
  workspace: string,
  signal?: AbortSignal,
): Promise<SessionMcpServers> {
  const hub = new McpHub(registry, { logger: hubLogger() });
  const configs = servers.map((server) => (server.transport === 'stdio' && !server.cwd ? { ...server, cwd: workspace } : server));
  // Copies: the hub keeps updating its own status objects (e.g. to `closed` at the end).
  const statuses = (await hub.connectAll(configs, signal)).map((s) => ({ ...s, tools: [...s.tools] }));
  for (const status of statuses) {
    if (status.state === 'failed') log.warn(mcpWarning(status), { server: status.name, error_code: status.error?.error_code });
    else if (status.state === 'connected')
      log.info(`MCP server "${status.name}" connected`, { server: status.name, tools: status.tools });
  }
  return { hub, statuses };
}
