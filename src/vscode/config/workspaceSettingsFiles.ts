/**
 * The `tddAgent.*` values a workspace's own settings files hold (`.vscode/settings.json` of each folder, the
 * `settings` of a `*.code-workspace` file), read from disk: VS Code leaves a workspace's value of a user-only
 * setting out of what it resolves, and the person is still told the workspace tried. Never used to decide anything.
 * No `vscode` import.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { WorkspaceFileSetting } from './unappliedSettings';

/** Larger settings files are not read (these are a few lines). */
const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

/**
 * JSON with comments and trailing commas, as VS Code's settings files are written, as a value; `undefined` when it
 * does not parse.
 */
export function parseSettingsText(text: string): unknown {
  const pieces: string[] = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      pieces.push(plain.replace(/,(\s*[}\]])/g, '$1'), text.slice(i, end + 1));
      plain = '';
      i = end + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      plain += c;
      i++;
    }
  }
  pieces.push(plain.replace(/,(\s*[}\]])/g, '$1'));
  try {
    return JSON.parse(pieces.join('')) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `section.*` values of a parsed settings object, dotted (`"tddAgent.baseUrl"`) or nested (`"tddAgent": { … }`). */
export function sectionValues(settings: unknown, section: string): WorkspaceFileSetting[] {
  if (!isObject(settings)) return [];
  const found: WorkspaceFileSetting[] = [];
  const nested = settings[section];
  if (isObject(nested)) for (const [key, value] of Object.entries(nested)) found.push({ key, value });
  for (const [name, value] of Object.entries(settings))
    if (name.startsWith(`${section}.`)) found.push({ key: name.slice(section.length + 1), value });
  return found;
}

async function readSettingsFile(file: string): Promise<unknown> {
  try {
    const text = await readFile(file, 'utf8');
    return text.length > MAX_SETTINGS_FILE_BYTES ? undefined : parseSettingsText(text);
  } catch {
    return undefined; // no such file (the usual case), or unreadable: nothing to tell
  }
}

/**
 * What the workspace's settings files say under `section`: each folder's `.vscode/settings.json` and, for a
 * multi-root workspace, its `*.code-workspace` file's `settings`. Missing or unparsable files give nothing.
 */
export async function workspaceFileSettings(
  folders: readonly string[],
  workspaceFile: string | undefined,
  section: string,
): Promise<WorkspaceFileSetting[]> {
  const fromFolders = await Promise.all(
    folders.map(async (folder) => sectionValues(await readSettingsFile(path.join(folder, '.vscode', 'settings.json')), section)),
  );
  const workspace = workspaceFile ? await readSettingsFile(workspaceFile) : undefined;
  return [...fromFolders.flat(), ...sectionValues(isObject(workspace) ? workspace.settings : undefined, section)];
}
