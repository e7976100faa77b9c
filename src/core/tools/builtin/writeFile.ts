import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { resolveWorkspacePath } from '../../workspaceSandbox/workspacePath';
import { defineTool } from '../types';
import { fileDiffPreview } from './filePreview';
import { BuiltinToolError, withFsErrors } from './errors';
import { readExistingFile } from './existingFile';
import { truncateText } from './textLimits';
import { unifiedDiff } from './unifiedDiff';

/** Largest diff kept in a tool's `data` for the panel (characters). */
const MAX_DIFF_CHARS = 200_000;

/** Parameters of `write_file` (exactly `{ path, content }`, as the TDD roles use it). */
export const writeFileParameters = z.object({
  path: z.string().describe('Path relative to the workspace root.'),
  content: z.string().describe('The whole new content.'),
});

/** What `write_file`, `edit_file` and `delete_file` return as `data`: enough for the panel to show a diff. */
export interface FileChangeData {
  path: string;
  /** True when the file did not exist before. */
  created?: boolean;
  /** True when the file was removed. */
  deleted?: boolean;
  bytes: number;
  /** Unified diff of the change ('' when the content did not change). */
  diff: string;
  replacements?: number;
}

/** The unified diff of a file change as `write_file`, `edit_file` and `delete_file` keep it in `data` (capped at 200 000 characters). */
export function fileChangeDiff(before: string | undefined, after: string | undefined, relative: string): string {
  return truncateText(unifiedDiff(before, after, relative), MAX_DIFF_CHARS).text;
}

/** Counts added and removed lines of a unified diff, for a one-line summary. */
export function diffStats(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added++;
    else if (line.startsWith('-') && !line.startsWith('---')) removed++;
  }
  return { added, removed };
}

/**
 * `write_file` (MEDIUM): creates or overwrites one workspace file with the given content and
 * returns a unified diff in `data`. Refused by the sandbox outside the workspace and under `.git/`;
 * protected paths need HIGH approval.
 */
export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create or overwrite a whole file (folders are created).',
  category: 'file',
  dangerLevel: 'MEDIUM',
  parameters: writeFileParameters,
  preview: (params, { workspaceRoot }) => fileDiffPreview(workspaceRoot, params.path, () => ({ after: params.content })),
  async execute(params, context) {
    const target = await resolveWorkspacePath(context, params.path, 'write');
    const existing = await withFsErrors('write_file', 'read', target.relative, () => readExistingFile(target.absolute));
    if (existing.kind === 'directory') {
      throw new BuiltinToolError('write_file', `Cannot write '${target.relative}': it is a folder. Nothing was changed.`, {
        path: target.relative,
      });
    }
    context.signal.throwIfAborted();
    await withFsErrors('write_file', 'write', target.relative, async () => {
      await mkdir(path.dirname(target.absolute), { recursive: true });
      await writeFile(target.absolute, params.content, 'utf8');
    });
    const created = existing.kind === 'missing';
    const before = existing.kind === 'text' ? existing.text : created ? undefined : '';
    const diff = fileChangeDiff(before, params.content, target.relative);
    const bytes = Buffer.byteLength(params.content);
    const { added, removed } = diffStats(diff);
    context.logger.debug('write_file', { path: target.relative, bytes, created });
    const data: FileChangeData = { path: target.relative, created, bytes, diff };
    const summary = created
      ? `Created '${target.relative}' (${bytes} bytes).`
      : diff === ''
        ? `Wrote '${target.relative}' (${bytes} bytes); the content was already identical.`
        : `Updated '${target.relative}' (${bytes} bytes, +${added} -${removed} lines).`;
    return { content: summary, data };
  },
});
