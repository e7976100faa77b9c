import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { resolveWorkspacePath } from '../../workspaceSandbox/workspacePath';
import { defineTool } from '../types';
import { fileDiffPreview } from './filePreview';
import { BuiltinToolError, withFsErrors } from './errors';
import { readExistingFile } from './existingFile';
import { diffStats, fileChangeDiff, type FileChangeData } from './writeFile';

// Short descriptions: the tool's schema goes with every request of every role (each token is paid again and again).
const searchText = z.string().min(1);

/** Parameters of `edit_file`: one block (`search` / `replace`) or several (`edits`), never both. */
export const editFileParameters = z.object({
  path: z.string().describe('Relative path.'),
  search: searchText.optional().describe('Exact text of the file, once (indentation included).'),
  replace: z.string().optional().describe('Its new text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence.'),
  edits: z
    .array(z.object({ search: searchText, replace: z.string() }))
    .min(1)
    .optional()
    .describe('Several changes, in order, all or nothing.'),
});

/** One exact search/replace block of an `edit_file` call. */
export interface EditBlock {
  search: string;
  replace: string;
  replaceAll?: boolean;
}

/**
 * The blocks of an `edit_file` call: `edits`, or the single `search` / `replace`. A reason for the model
 * when the call gives both forms, neither, or half of one.
 */
export function editBlocksOf(
  params: z.infer<typeof editFileParameters>,
): { ok: true; blocks: EditBlock[] } | { ok: false; reason: string } {
  const single = params.search !== undefined || params.replace !== undefined;
  if (params.edits && single)
    return { ok: false, reason: 'give either search/replace (one change) or edits (several changes), not both' };
  if (params.edits) return { ok: true, blocks: params.edits.map((e) => ({ search: e.search, replace: e.replace })) };
  if (params.search === undefined || params.replace === undefined)
    return { ok: false, reason: 'give search and replace (one change) or edits: [{ search, replace }, ...] (several changes)' };
  return { ok: true, blocks: [{ search: params.search, replace: params.replace, replaceAll: params.replace_all ?? false }] };
}

/** The result of planning an exact search/replace on a text, before anything is written. */
export type PlannedEdit = { ok: true; text: string; replacements: number } | { ok: false; reason: string };

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

/** A hint when the search text's first line occurs in the file with other whitespace: where, by line number. */
function nearMatch(text: string, search: string): string {
  const first = search
    .split('\n')
    .find((l) => l.trim())
    ?.trim();
  if (!first) return '';
  const squash = (line: string): string => line.trim().replace(/\s+/g, ' ');
  const at = text.split('\n').findIndex((line) => squash(line) === squash(first));
  return at === -1 ? '' : ` (its first non-blank line is at line ${at + 1} with other whitespace or different lines after it)`;
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
      reason: `the search text was not found${nearMatch(text, search)}. Read the file again and copy the exact text, including whitespace and indentation`,
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
 * Applies several blocks in order, each to the text the blocks before it left; all or nothing. A failure
 * names the block ("block 2 of 3: ...") and quotes the start of its search text.
 */
export function planEdits(text: string, blocks: readonly EditBlock[]): PlannedEdit {
  let current = text;
  let replacements = 0;
  for (const [i, block] of blocks.entries()) {
    const plan = planEdit(current, block.search, block.replace, block.replaceAll ?? false);
    if (!plan.ok) {
      if (blocks.length === 1) return plan;
      const first = block.search.split('\n', 1)[0]!.trim();
      const quoted = first.length > 60 ? `${first.slice(0, 57)}...` : first;
      const reason = plan.reason.replace(/, or set replace_all to true to replace all \d+$/, '');
      return { ok: false, reason: `block ${i + 1} of ${blocks.length} (search starting ${JSON.stringify(quoted)}): ${reason}` };
    }
    current = plan.text;
    replacements += plan.replacements;
  }
  return { ok: true, text: current, replacements };
}

/**
 * The text an `edit_file` call with `params` would leave in a file whose text is `current`, as the tool would apply
 * it, before anything is written (an approval's preview); undefined when the call would fail: parameters the tool
 * refuses, a search text that is not in the file or is there more than once.
 */
export function editedText(params: unknown, current: string): string | undefined {
  const parsed = editFileParameters.safeParse(params);
  const blocks = parsed.success ? editBlocksOf(parsed.data) : undefined;
  const plan = blocks?.ok ? planEdits(current, blocks.blocks) : undefined;
  return plan?.ok ? plan.text : undefined;
}

/**
 * `edit_file` (MEDIUM): exact search/replace in one workspace file, one block or several (`edits`, all or
 * nothing). Fails clearly, changing nothing, when a search text is absent or ambiguous (naming the block
 * and the number of matches); returns a unified diff in `data`.
 */
export const editFileTool = defineTool({
  name: 'edit_file',
  description: 'Change an existing file by exact search/replace (search or each of edits must match once).',
  category: 'file',
  dangerLevel: 'MEDIUM',
  parameters: editFileParameters,
  preview: (params, { workspaceRoot }) =>
    fileDiffPreview(workspaceRoot, params.path, (before) => {
      if (before === undefined) return undefined;
      const blocks = editBlocksOf(params);
      const plan = blocks.ok ? planEdits(before, blocks.blocks) : undefined;
      return plan?.ok ? { after: plan.text } : undefined;
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
    const blocks = editBlocksOf(params);
    if (!blocks.ok) return fail(blocks.reason);
    const plan = planEdits(existing.text, blocks.blocks);
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
