import { z } from 'zod';
import { DANGER_LEVELS } from '../vocabulary';

/** MCP server names: short, so prefixed tool names stay within OpenAI's 64 characters. */
export const MCP_SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,32}$/;

const common = {
  /** Unique name; prefixes the server's tools (`<name>__<tool>`). */
  name: z.string().regex(MCP_SERVER_NAME_PATTERN, 'use 1-32 letters, digits, "_" or "-"'),
  /** Danger level of every tool of this server (default MEDIUM: the server's own hints are not trusted). */
  dangerLevel: z.enum(DANGER_LEVELS).optional(),
  /** Per-tool danger levels, by the server's tool name. */
  toolDangerLevels: z.record(z.string(), z.enum(DANGER_LEVELS)).optional(),
  /** Time to connect and list tools before the server counts as not answering (default 10 s). */
  connectTimeoutMs: z.number().int().positive().optional(),
  /** Longest a single tool call may take on the MCP side (default 5 min; the executor's timeout also applies). */
  callTimeoutMs: z.number().int().positive().optional(),
  /** Set false to keep the entry but not start it. */
  enabled: z.boolean().optional(),
};

/** A local server started as a child process speaking MCP over stdio. */
export const mcpStdioServerConfigSchema = z
  .object({
    ...common,
    transport: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    /** Extra environment; the child otherwise gets only the SDK's safe default variables (no API keys). */
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  })
  .strict();

/** A remote server speaking MCP over streamable HTTP. */
export const mcpHttpServerConfigSchema = z
  .object({
    ...common,
    transport: z.literal('http'),
    url: z.url({ protocol: /^https?$/ }),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();

/** One MCP server as configuration declares it. */
export const mcpServerConfigSchema = z.discriminatedUnion('transport', [mcpStdioServerConfigSchema, mcpHttpServerConfigSchema]);
/** One MCP server as configuration declares it. */
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;
/** Configuration of a stdio server. */
export type McpStdioServerConfig = z.infer<typeof mcpStdioServerConfigSchema>;
/** Configuration of a streamable HTTP server. */
export type McpHttpServerConfig = z.infer<typeof mcpHttpServerConfigSchema>;
