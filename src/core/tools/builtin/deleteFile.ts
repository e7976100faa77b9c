import { lstat, unlink } from 'node:fs/promises';
import { z } from 'zod';
import { resolveWorkspacePath } from '../../workspaceSandbox/workspacePath';
import { defineTool } from '../types';
import { fileDiffPreview } from './filePreview';
import { BuiltinToolError, withFsErrors } from './errors';
import { readExistingFile } from './existingFile';
import { fileChangeDiff, type FileChangeData } from './writeFile';

/** Parameters of `delete_file`. */
export const deleteFileParameters = z.object({
  path: z.string().describe('File to delete, relative to the workspace root. Folders are not deleted.'),
});

/**
 * `delete_file` (HIGH: the content is gone unless git has it): removes one file (never a folder).
 * Returns the removed content as a diff in `data`.
 */
export const deleteFileTool = defineTool({
  name: 'delete_file',
  description: 'Delete one file in the workspace (not a folder). Paths are relative to the workspace root.',
  category: 'file',
  dangerLevel: 'HIGH',
  parameters: deleteFileParameters,
  preview: (params, { workspaceRoot }) =>
    fileDiffPreview(workspaceRoot, params.path, (before) => (before === undefined ? undefined : { after: undefined })),
  async execute(params, context) {
    const target = await resolveWorkspacePath(context, params.path, 'delete');
    const info = await lstat(target.absolute).catch(() => undefined);
    const fail = (why: string): never => {
      throw new BuiltinToolError('delete_file', `Cannot delete '${target.relative}': ${why}. Nothing was changed.`, {
        path: target.relative,
      });
    };
    if (!info) return fail('it does not exist');
    if (info.isDirectory()) return fail('it is a folder; delete_file removes single files only');
    const existing = await readExistingFile(target.absolute).catch(() => undefined);
    context.signal.throwIfAborted();
    await withFsErrors('delete_file', 'delete', target.relative, () => unlink(target.absolute));
    const diff = existing?.kind === 'text' ? fileChangeDiff(existing.text, undefined, target.relative) : '';
    const data: FileChangeData = { path: target.relative, deleted: true, bytes: info.size, diff };
    context.logger.debug('delete_file', { path: target.relative });
    return { content: `Deleted '${target.relative}' (${info.size} bytes).`, data };
  },
});
