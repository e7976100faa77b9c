/** MCP servers as tool sources: configuration, one connection per server, and the hub that registers their tools. */
export * from './config';
export * from './errors';
export * from './toolNames';
export * from './toolResult';
export * from './mcpServerConnection';
export * from './mcpTools';
export * from './mcpHub';
