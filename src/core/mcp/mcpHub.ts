import type { ErrorInfo } from '../errors/agentError';
import { getLogger, type Logger } from '../logging/logger';
import type { ToolRegistry } from '../tools/registry';
import { mcpServerConfigSchema, type McpServerConfig } from './config';
import { McpServerError } from './errors';
import { McpServerConnection, type McpConnectionState } from './mcpServerConnection';
import { mcpToolDefinitions } from './mcpTools';

/** What the agent, the CLI and the panel see about one configured server. */
export interface McpServerStatus {
  name: string;
  transport?: 'stdio' | 'http';
  state: McpConnectionState | 'disabled';
  /** Registry names of its tools (empty when it failed). */
  tools: string[];
  error?: ErrorInfo;
  serverInfo?: { name: string; version: string };
}

/** Options of an McpHub. */
export interface McpHubOptions {
  logger?: Logger;
  /** Passed to every connection (e.g. a short close grace in tests). */
  closeGraceMs?: number;
  clientInfo?: { name: string; version: string };
}

/**
 * The MCP servers of one session: connects every configured server in parallel, registers their
 * tools into the registry, and keeps going without any server that is misconfigured, crashes,
 * exits or never answers (its status carries a clear error). A server that dies later has its
 * tools unregistered. `close()` closes every server and removes their tools.
 */
export class McpHub {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly statuses = new Map<string, McpServerStatus>();
  private readonly logger: Logger;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: McpHubOptions = {},
  ) {
    this.logger = options.logger ?? getLogger('mcp');
  }

  /**
   * Validates and connects every configured server; never throws for a bad server. Resolves with
   * the status of each, in configuration order.
   */
  async connectAll(configs: readonly unknown[], signal?: AbortSignal): Promise<McpServerStatus[]> {
    const names: string[] = [];
    const starts: Array<Promise<void>> = [];
    configs.forEach((raw, index) => {
      const parsed = mcpServerConfigSchema.safeParse(raw);
      const rawName = typeof (raw as { name?: unknown })?.name === 'string' ? (raw as { name: string }).name : `#${index + 1}`;
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(server)'}: ${i.message}`);
        const error = new McpServerError(
          'CONFIG',
          rawName,
          `MCP server "${rawName}" is misconfigured:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
          {
            problems,
          },
        );
        names.push(
          this.record(uniqueKey(rawName, this.statuses), { name: rawName, state: 'failed', tools: [], error: error.toJSON() }),
        );
        return;
      }
      const config = parsed.data;
      if (this.statuses.has(config.name)) {
        const error = new McpServerError(
          'CONFIG',
          config.name,
          `Two MCP servers are named "${config.name}"; names must be unique. The second one was skipped.`,
        );
        names.push(
          this.record(uniqueKey(config.name, this.statuses), {
            name: config.name,
            transport: config.transport,
            state: 'failed',
            tools: [],
            error: error.toJSON(),
          }),
        );
        return;
      }
      names.push(config.name);
      if (config.enabled === false) {
        this.record(config.name, { name: config.name, transport: config.transport, state: 'disabled', tools: [] });
        return;
      }
      starts.push(this.start(config, signal));
    });
    await Promise.all(starts);
    return names.map((name) => this.statuses.get(name)!);
  }

  /** The status of every configured server. */
  status(): McpServerStatus[] {
    return [...this.statuses.values()].map((s) => ({ ...s, tools: [...s.tools] }));
  }

  /** The live connection of a server (for diagnostics and tests). */
  connection(name: string): McpServerConnection | undefined {
    return this.connections.get(name);
  }

  /** Closes every server and unregisters their tools. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.connections.values()].map(async (connection) => {
        this.dropTools(connection.name);
        await connection.close();
        const status = this.statuses.get(connection.name);
        if (status && status.state === 'connected') status.state = 'closed';
      }),
    );
    this.connections.clear();
  }

  private async start(config: McpServerConfig, signal?: AbortSignal): Promise<void> {
    const connection = new McpServerConnection(config, {
      logger: this.logger.child(config.name),
      ...(this.options.closeGraceMs !== undefined ? { closeGraceMs: this.options.closeGraceMs } : {}),
      ...(this.options.clientInfo ? { clientInfo: this.options.clientInfo } : {}),
    });
    this.connections.set(config.name, connection);
    const current: McpServerStatus = { name: config.name, transport: config.transport, state: 'connecting', tools: [] };
    this.record(config.name, current);
    try {
      await connection.connect(signal);
      const tools = await connection.listTools(signal);
      const definitions = mcpToolDefinitions(connection, tools, (name) => this.registry.has(name));
      this.registry.register(...definitions);
      current.tools = definitions.map((d) => d.name);
      current.state = 'connected';
      const info = connection.serverInfo;
      if (info) current.serverInfo = { name: info.name, version: info.version };
      connection.onFailure((error) => {
        this.dropTools(config.name);
        current.state = 'failed';
        current.error = error.toJSON();
      });
      this.logger.info('MCP server connected', { server: config.name, tools: current.tools.length });
    } catch (error) {
      const failure =
        error instanceof McpServerError
          ? error
          : new McpServerError(
              'CONFIG',
              config.name,
              `MCP server "${config.name}" could not be registered: ${error instanceof Error ? error.message : String(error)}`,
            );
      await connection.close();
      this.connections.delete(config.name);
      current.state = 'failed';
      current.error = failure.toJSON();
      this.logger.warn('MCP server unavailable; continuing without it', { server: config.name, error: failure.message });
    }
  }

  private dropTools(name: string): void {
    const status = this.statuses.get(name);
    for (const tool of status?.tools ?? []) this.registry.unregister(tool);
    if (status) status.tools = [];
  }

  private record(key: string, status: McpServerStatus): string {
    this.statuses.set(key, status);
    return key;
  }
}

function uniqueKey(name: string, taken: Map<string, unknown>): string {
  let key = name;
  for (let i = 2; taken.has(key); i++) key = `${name}#${i}`;
  return key;
}
