/**
 * `tddAgent.mcpServers` from a workspace's settings: its servers' declared danger levels are never below MEDIUM (the
 * level of a server that declares none), so a repository cannot make its MCP tools run unasked by declaring them SAFE
 * (or LOW). Only the person's user settings can lower a server's level. Pure.
 */
import { DANGER_LEVELS, type DangerLevel, dangerRank } from '../../core';
import type { SettingLayers } from './approvalPolicySetting';

/** The lowest level a workspace's MCP server may have: the level of a server that declares none. */
export const WORKSPACE_MCP_FLOOR: DangerLevel = 'MEDIUM';

function isLevel(value: unknown): value is DangerLevel {
  return typeof value === 'string' && (DANGER_LEVELS as readonly string[]).includes(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function belowFloor(level: unknown): level is DangerLevel {
  return isLevel(level) && dangerRank(level) < dangerRank(WORKSPACE_MCP_FLOOR);
}

/** The workspace's list in effect, when it has one (VS Code does not merge lists: the folder's, else the workspace's). */
function workspaceList(layers: SettingLayers | undefined): unknown {
  return layers?.workspaceFolderValue ?? layers?.workspaceValue ?? undefined;
}

function raised(server: unknown): unknown {
  if (!isPlainObject(server)) return server; // invalid: the CONFIG error names it
  const result = { ...server };
  if (belowFloor(result.dangerLevel)) result.dangerLevel = WORKSPACE_MCP_FLOOR;
  if (isPlainObject(result.toolDangerLevels))
    result.toolDangerLevels = Object.fromEntries(
      Object.entries(result.toolDangerLevels).map(([tool, level]) => [tool, belowFloor(level) ? WORKSPACE_MCP_FLOOR : level]),
    );
  return result;
}

/**
 * The MCP servers the settings give: a workspace's list (the folder's, else the workspace's) with every declared level
 * below MEDIUM raised to MEDIUM; without one, the person's own (user settings, else the default) as written. Invalid
 * values are kept as they are, for the CONFIG error.
 */
export function mcpServersSetting(layers: SettingLayers | undefined): unknown {
  const theirs = workspaceList(layers);
  if (theirs == null) return layers?.globalValue ?? layers?.defaultValue;
  return Array.isArray(theirs) ? theirs.map(raised) : theirs;
}

/** A level a workspace's MCP server declared that {@link mcpServersSetting} raised: the server, the tool if one, the level. */
export interface RaisedMcpLevel {
  server: string;
  tool?: string;
  level: DangerLevel;
}

/** What {@link mcpServersSetting} raised, for telling the person. */
export function raisedMcpLevels(layers: SettingLayers | undefined): RaisedMcpLevel[] {
  const theirs = workspaceList(layers);
  if (!Array.isArray(theirs)) return [];
  const found: RaisedMcpLevel[] = [];
  for (const server of theirs) {
    if (!isPlainObject(server)) continue;
    const name = typeof server.name === 'string' ? server.name : '?';
    if (belowFloor(server.dangerLevel)) found.push({ server: name, level: server.dangerLevel });
    if (isPlainObject(server.toolDangerLevels))
      for (const [tool, level] of Object.entries(server.toolDangerLevels))
        if (belowFloor(level)) found.push({ server: name, tool, level });
  }
  return found;
}

/** A server the workspace's own settings start, as the person is asked about it. */
export interface WorkspaceMcpServer {
  name: string;
  /** What runs: the command line of a stdio server, the URL of an HTTP one. */
  runs: string;
}

/** The servers of the workspace's list in effect (none when the list is the person's own). */
export function workspaceMcpServers(layers: SettingLayers | undefined): WorkspaceMcpServer[] {
  const theirs = workspaceList(layers);
  if (!Array.isArray(theirs)) return [];
  return theirs.filter(isPlainObject).map((server) => ({
    name: typeof server.name === 'string' ? server.name : '?',
    runs:
      typeof server.command === 'string'
        ? [server.command, ...(Array.isArray(server.args) ? server.args.map(String) : [])].join(' ')
        : typeof server.url === 'string'
          ? server.url
          : '?',
  }));
}
