import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { resolveWorkspacePath } from '../../sandbox/workspacePath';
import { defineTool } from '../types';
import { fileDiffPreview } from './filePreview';
import { BuiltinToolError, withFsErrors } from './errors';
import { readExistingFile } from './existingFile';
import { diffStats, fileChangeDiff, type FileChangeData } from './writeFile';

/** Parameters of `edit_file`. */
export const editFileParameters = z.object({
  path: z.string().describe('File to edit, relative to the workspace root.'),
  search: z
    .string()
    .min(1)
    .describe(
      'Exact text to find, including whitespace and indentation. It must appear exactly once unless replace_all is true.',
    ),
  replace: z.string().describe('Text to put in place of the search text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one (default false).'),
});

/** The result of planning an exact search/replace on a text, before anything is written. */
export type PlannedEdit = { ok: true; text: string; replacements: number } | { ok: false; reason: string };

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

/**
 * Plans an exact search/replace. Fails (with a reason for the model) when the search text is
 * absent, or appears more than once without `replaceAll`. A file with CRLF line endings also
 * matches a search text written with LF. `$` in the replacement is literal.
 */
export function planEdit(text: string, search: string, replace: string, replaceAll = false): PlannedEdit {
  if (search === replace) return { ok: false, reason: 'search and replace are identical, so there is nothing to change' };
  let count = countOccurrences(text, search);
  if (count === 0 && text.includes('\r\n') && !search.includes('\r')) {
    search = search.replace(/\n/g, '\r\n');
    replace = replace.replace(/\r?\n/g, '\r\n');
    count = countOccurrences(text, search);
  }
  if (count === 0) {
    return {
      ok: false,
      reason: 'the search text was not found. Read the file again and copy the exact text, including whitespace and indentation',
    };
  }
  if (count > 1 && !replaceAll) {
    return {
      ok: false,
      reason: `the search text appears ${count} times. Include more surrounding lines to make it unique, or set replace_all to true to replace all ${count}`,
    };
  }
  const next = replaceAll ? text.split(search).join(replace) : text.replace(search, () => replace);
  return { ok: true, text: next, replacements: replaceAll ? count : 1 };
}

/**
 * `edit_file` (MEDIUM): exact search/replace in one workspace file. Fails clearly, changing
 * nothing, when the search text is absent or ambiguous; returns a unified diff in `data`.
 */
export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace an exact piece of text in a file. The search text must match exactly once (copy it from read_file), unless replace_all is true.',
  category: 'file',
  dangerLevel: 'MEDIUM',
  parameters: editFileParameters,
  preview: (params, { workspaceRoot }) =>
    fileDiffPreview(workspaceRoot, params.path, (before) => {
      if (before === undefined) return undefined;
      const plan = planEdit(before, params.search, params.replace, params.replace_all ?? false);
      return plan.ok ? { after: plan.text } : undefined;
    }),
  async execute(params, context) {
    const target = await resolveWorkspacePath(context, params.path, 'write');
    const existing = await withFsErrors('edit_file', 'read', target.relative, () => readExistingFile(target.absolute));
    const fail = (why: string): never => {
      throw new BuiltinToolError('edit_file', `Cannot edit '${target.relative}': ${why}. Nothing was changed.`, {
        path: target.relative,
      });
    };
    if (existing.kind === 'missing') return fail('it does not exist (use write_file to create it)');
    if (existing.kind !== 'text')
      return fail(`it is ${existing.kind === 'directory' ? 'a folder' : 'not an editable text file'}`);
    const plan = planEdit(existing.text, params.search, params.replace, params.replace_all ?? false);
    if (!plan.ok) return fail(plan.reason);
    context.signal.throwIfAborted();
    await withFsErrors('edit_file', 'write', target.relative, () => writeFile(target.absolute, plan.text, 'utf8'));
    const diff = fileChangeDiff(existing.text, plan.text, target.relative);
    const { added, removed } = diffStats(diff);
    const data: FileChangeData = {
      path: target.relative,
      bytes: Buffer.byteLength(plan.text),
      diff,
      replacements: plan.replacements,
    };
    context.logger.debug('edit_file', { path: target.relative, replacements: plan.replacements });
    const times = plan.replacements === 1 ? '1 replacement' : `${plan.replacements} replacements`;
    return { content: `Edited '${target.relative}' (${times}, +${added} -${removed} lines).`, data };
  },
});
