/**
 * What the person is told about settings that do not apply as written: a workspace's value of a user-only setting
 * (where the API key goes, the sandbox), a workspace's approval rule looser than the person's own, a CRITICAL rule of
 * `allow`. In VS Code's words (the settings' titles in the Settings editor), one sentence each. Pure.
 */
import { looserWorkspaceRules, type SettingLayers } from './approvalPolicySetting';
import { WORKSPACE_MCP_FLOOR, raisedMcpLevels } from './mcpServersSetting';
import { KEY_DESTINATION_SETTING_KEYS, USER_ONLY_SETTING_KEYS, type ConfigurationLike } from './settings';

/** A `tddAgent.*` value found in one of the workspace's own settings files (`.vscode/settings.json`, `*.code-workspace`). */
export interface WorkspaceFileSetting {
  /** The key without the section prefix, e.g. `baseUrl`. */
  key: string;
  value: unknown;
}

/** The settings' titles as the Settings editor shows them under "TDD Agent". */
const SETTING_TITLES: Readonly<Record<string, string>> = {
  provider: 'Provider',
  baseUrl: 'Base URL',
  ollamaHost: 'Ollama Host',
  sandbox: 'Sandbox',
  sandboxEnvironment: 'Sandbox Environment',
  approvalPolicy: 'Approval Policy',
  mcpServers: 'MCP Servers',
};

/** `TDD Agent: Base URL` for `baseUrl`. */
export function settingTitle(key: string): string {
  return `TDD Agent: ${SETTING_TITLES[key] ?? key}`;
}

/** A value as a person reads it in a sentence: quoted, and cut short (it comes from a file anyone may have written). */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `“${text.length > 80 ? `${text.slice(0, 79)}…` : text}”`;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function whyUserOnly(key: string): string {
  return KEY_DESTINATION_SETTING_KEYS.has(key)
    ? 'where your API key goes is set in your user settings only.'
    : 'the sandbox is set in your user settings only.';
}

/** The notice for the workspace values of the user-only settings that differ from what applies. */
function userOnlyNotices(config: ConfigurationLike, files: readonly WorkspaceFileSetting[]): string[] {
  const notices: string[] = [];
  for (const key of USER_ONLY_SETTING_KEYS) {
    const layers = config.inspect(key);
    const applied = layers?.globalValue ?? layers?.defaultValue;
    const set = [
      layers?.workspaceValue,
      layers?.workspaceFolderValue,
      ...files.filter((f) => f.key === key).map((f) => f.value),
    ].filter((value) => value != null && value !== '' && !sameValue(value, applied));
    const distinct = set.filter((value, i) => set.findIndex((other) => sameValue(other, value)) === i);
    for (const value of distinct)
      notices.push(`This workspace's settings set ${settingTitle(key)} to ${shown(value)}; it is ignored: ${whyUserOnly(key)}`);
  }
  return notices;
}

/** The notices for approval rules not applied as written: one for the workspace's, one for CRITICAL "allow" of the user's. */
function approvalNotices(layers: SettingLayers | undefined): string[] {
  const title = settingTitle('approvalPolicy');
  const looser = looserWorkspaceRules(layers);
  const notices: string[] = [];
  if (looser.length > 0) {
    const rules = looser.map(({ level, rule }) => `${level} to ${shown(rule)}`).join(', ');
    const why = [
      ...(looser.some((l) => l.level !== 'CRITICAL')
        ? ['a workspace can make approvals stricter, never looser than your user settings']
        : []),
      ...(looser.some((l) => l.level === 'CRITICAL') ? ['CRITICAL calls (anything outside the workspace) always ask'] : []),
    ];
    notices.push(
      `This workspace's settings set ${title} ${rules}; ${looser.length > 1 ? 'they are' : 'it is'} ignored: ${why.join(', and ')}.`,
    );
  }
  const own = layers?.globalValue;
  if (typeof own === 'object' && own !== null && (own as Record<string, unknown>).CRITICAL === 'allow')
    notices.push(
      `Your user settings set ${title} CRITICAL to ${shown('allow')}; CRITICAL calls (anything outside the workspace) ask all the same.`,
    );
  return notices;
}

/** The notice for the danger levels of a workspace's MCP servers that were raised. */
function mcpNotices(layers: SettingLayers | undefined): string[] {
  const raised = raisedMcpLevels(layers);
  if (raised.length === 0) return [];
  const what = raised
    .map(({ server, tool, level }) => `${tool === undefined ? `server “${server}”` : `tool “${server}__${tool}”`} ${level}`)
    .join(', ');
  return [
    `This workspace's settings declare ${settingTitle('mcpServers')} ${what}; ${raised.length > 1 ? 'they are' : 'it is'} taken as ${WORKSPACE_MCP_FLOOR}: only your user settings can lower an MCP server's danger level.`,
  ];
}

/**
 * Every setting that does not apply as written, one sentence each (none when all apply): `config` is the
 * `tddAgent` configuration as VS Code resolves it, `files` what the workspace's own settings files say (VS Code
 * leaves a workspace's value of a user-only setting out of `inspect()`, so the files are read too).
 */
export function unappliedSettingNotices(config: ConfigurationLike, files: readonly WorkspaceFileSetting[]): string[] {
  return [
    ...userOnlyNotices(config, files),
    ...approvalNotices(config.inspect('approvalPolicy')),
    ...mcpNotices(config.inspect('mcpServers')),
  ];
}
