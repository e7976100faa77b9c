import { z } from 'zod';
import { resolveWorkspacePath } from '../../workspaceSandbox/workspacePath';
import { defineTool } from '../types';
import { BuiltinToolError, withFsErrors } from './errors';
import { readExistingFile } from './existingFile';
import { DEFAULT_MAX_CONTENT_CHARS, truncateText } from './textLimits';

/** Parameters of `read_file` (exactly `{ path }`, as the TDD roles use it). */
export const readFileParameters = z.object({
  path: z.string().describe('Path relative to the workspace root.'),
});

/**
 * `read_file` (SAFE): the UTF-8 text of one workspace file. Folders, binary and very large files
 * give a clear error; long text is cut with a marker after `maxChars` characters.
 */
export function createReadFileTool(options: { maxChars?: number } = {}) {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CONTENT_CHARS;
  return defineTool({
    name: 'read_file',
    description: 'Read a whole text file.',
    category: 'file',
    dangerLevel: 'SAFE',
    parameters: readFileParameters,
    async execute(params, context) {
      const target = await resolveWorkspacePath(context, params.path, 'read');
      const file = await withFsErrors('read_file', 'read', target.relative, () => readExistingFile(target.absolute));
      const fail = (why: string): never => {
        throw new BuiltinToolError('read_file', `Cannot read '${target.relative}': ${why}`, {
          path: target.relative,
          kind: file.kind,
        });
      };
      if (file.kind === 'missing') return fail('it does not exist. Use list_files to see which files exist.');
      if (file.kind === 'directory') return fail('it is a folder. Use list_files to see what it contains.');
      if (file.kind === 'binary') return fail(`it is a binary file (${file.bytes} bytes) and cannot be shown as text.`);
      if (file.kind === 'too-large') return fail(`it is too large to read as text (${file.bytes} bytes).`);
      const { text, bytes } = file;
      const shown = truncateText(text, maxChars, 'the file is longer than this tool shows at once');
      context.logger.debug('read_file', { path: target.relative, bytes });
      return { content: shown.text, data: { path: target.relative, bytes, truncated: shown.truncated } };
    },
  });
}

/** `read_file` with default limits. */
export const readFileTool = createReadFileTool();
