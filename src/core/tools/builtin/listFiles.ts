import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { resolveWorkspacePath } from '../../workspaceSandbox/workspacePath';
import { defineTool, type ToolContext, type ToolOutput } from '../types';
import { BuiltinToolError } from './errors';
import { walkWorkspace } from './workspaceWalk';

/** Default cap on the entries `list_files` returns. */
export const DEFAULT_MAX_LIST_ENTRIES = 500;

const pathField = z.string().optional().describe('Folder relative to the workspace root; omit for all.');

/** Parameters of the workspace `list_files` (exactly `{ path? }`, as the TDD roles use it). */
export const listFilesWorkspaceParameters = z.object({ path: pathField });

/** Parameters of the built-in `list_files`. */
export const listFilesParameters = z.object({
  path: pathField,
  recursive: z.boolean().optional().describe('List sub-folders too (default true). .git and node_modules are never entered.'),
});

/** What `list_files` returns as `data`. */
export interface ListFilesData {
  path: string;
  entries: Array<{ path: string; kind: 'file' | 'directory' | 'symlink' | 'other' }>;
  truncated: boolean;
}

async function listFiles(
  context: ToolContext,
  input: string | undefined,
  recursive: boolean,
  maxEntries: number,
): Promise<ToolOutput> {
  const target = await resolveWorkspacePath(context, input ?? '.', 'read');
  const info = await stat(target.absolute).catch(() => undefined);
  if (!info)
    throw new BuiltinToolError('list_files', `Cannot list '${target.relative}': it does not exist.`, { path: target.relative });
  if (!info.isDirectory()) {
    throw new BuiltinToolError(
      'list_files',
      `Cannot list '${target.relative}': it is a file, not a folder. Use read_file to read it.`,
      {
        path: target.relative,
      },
    );
  }
  const entries: ListFilesData['entries'] = [];
  const lines: string[] = [];
  let truncated = false;
  for await (const entry of walkWorkspace(target.root, target.absolute, { recursive, signal: context.signal })) {
    if (entries.length >= maxEntries) {
      truncated = true;
      break;
    }
    entries.push({ path: entry.relative, kind: entry.kind });
    if (entry.kind === 'directory') lines.push(`${entry.relative}/${entry.skipped ? ' (not listed)' : ''}`);
    else if (entry.kind === 'symlink') lines.push(`${entry.relative} (symbolic link, not followed)`);
    else lines.push(entry.relative);
  }
  lines.sort();
  const where = target.relative === '.' ? 'the workspace' : `'${target.relative}'`;
  const header =
    entries.length === 0 ? `${where} is empty.` : `${entries.length} entries in ${where}${recursive ? ' (recursive)' : ''}:`;
  if (truncated) lines.push(`…[truncated at ${maxEntries} entries; list a sub-folder to see more]`);
  const data: ListFilesData = { path: target.relative, entries, truncated };
  return { content: [header, ...lines].join('\n'), data };
}

function defineListFiles(
  parameters: typeof listFilesParameters | typeof listFilesWorkspaceParameters,
  description: string,
  maxEntries: number,
) {
  return defineTool({
    name: 'list_files',
    description,
    category: 'file',
    dangerLevel: 'SAFE',
    parameters,
    execute: (params: { path?: string; recursive?: boolean }, context) =>
      listFiles(context, params.path, params.recursive ?? true, maxEntries),
  });
}

/**
 * `list_files` (SAFE): the files and folders under a workspace folder, recursive by default,
 * capped at `maxEntries` with a truncation marker; `.git` and `node_modules` are shown but not entered.
 */
export function createListFilesTool(options: { maxEntries?: number } = {}) {
  const description = 'List files and folders in the workspace (recursive by default). Folders end with "/".';
  return defineListFiles(listFilesParameters, description, options.maxEntries ?? DEFAULT_MAX_LIST_ENTRIES);
}

/** `list_files` with exactly `{ path? }` (always recursive), for the TDD roles. */
export function createWorkspaceListFilesTool(options: { maxEntries?: number } = {}) {
  const description = 'List the files and folders (folders end with "/").';
  return defineListFiles(listFilesWorkspaceParameters, description, options.maxEntries ?? DEFAULT_MAX_LIST_ENTRIES);
}

/** `list_files` with default limits. */
export const listFilesTool = createListFilesTool();
