/** File links ("open this file at this line") and the "Open diff" button, shared by the approval cards and the history. */
import { h } from '../dom';
import { icon } from '../icons';
import { openDiffMessage, openFileMessage } from '../../src/shared/panelProtocol';
import { sends } from '../intents';

/** Tools whose `path` parameter names one file of the session. */
const FILE_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'delete_file']);
/** `path:line` in runner output (absolute, `file://` or relative), for source files and tests. */
const LOCATION = /(?:file:\/\/)?((?:\/|\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|cs)):(\d+)(?::\d+)?/g;
/** File locations shown per test run. */
const MAX_LOCATIONS = 6;

/** A button that opens `path` (at 1-based `line`) of the session (`session`) or of the workspace. */
export function fileLink(
  path: string,
  line: number | undefined,
  session: boolean,
  label = line !== undefined ? `${path}:${line}` : path,
): HTMLButtonElement {
  const link = h('button', { type: 'button', class: 'link-button file-link mono', title: `Open ${label}` }, label);
  return sends(link, openFileMessage(path, line, session));
}

/** The "Open diff" button of approval card or history entry `id`. */
export function openDiffButton(id: string, path: string): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: 'button-secondary open-diff', 'aria-label': `Open diff of ${path}` },
    icon('file'),
    h('span', {}, 'Open diff'),
  );
  return sends(button, openDiffMessage(id));
}

/** The file a file tool's parameters name, if any. */
export function toolFilePath(tool: string, params: unknown): string | undefined {
  if (!FILE_TOOLS.has(tool) || !params || typeof params !== 'object') return undefined;
  const value = (params as { path?: unknown }).path;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Distinct `file:line` locations in a test run's text (failing tests, stack frames), outside node's own and node_modules. */
export function testLocations(text: string): { path: string; line: number }[] {
  const found = new Map<string, { path: string; line: number }>();
  for (const match of text.matchAll(LOCATION)) {
    const path = match[1]!;
    if (/node_modules|^node:|internal\//.test(path)) continue;
    const line = Number(match[2]);
    found.set(`${path}:${line}`, { path, line });
    if (found.size >= MAX_LOCATIONS) break;
  }
  return [...found.values()];
}

/** A label for a location that may be absolute: the last three path segments. */
export function shortPath(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return path.startsWith('/') && parts.length > 3 ? `…/${parts.slice(-3).join('/')}` : path;
}
