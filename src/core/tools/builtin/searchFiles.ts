import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { protectedPathReason } from '../../workspaceSandbox/protectedPaths';
import { resolveWorkspacePath } from '../../workspaceSandbox/workspacePath';
import { defineTool } from '../types';
import { BuiltinToolError } from './errors';
import { looksBinary } from './textLimits';
import { walkWorkspace, type WalkEntry } from './workspaceWalk';

/** Files larger than this are not searched. */
export const MAX_SEARCH_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_CHARS = 200;
/** Lines longer than this are not matched against a regex (keeps a bad pattern from stalling). */
const MAX_REGEX_LINE_CHARS = 10_000;

/** Parameters of `search_files`. */
export const searchFilesParameters = z.object({
  query: z.string().min(1).describe('Text to find. Literal unless regex is true.'),
  regex: z.boolean().optional().describe('Treat query as a JavaScript regular expression (default false).'),
  path: z
    .string()
    .optional()
    .describe('Folder (or single file) to search, relative to the workspace root. Default: the whole workspace.'),
  case_sensitive: z.boolean().optional().describe('Match letter case exactly (default true).'),
  max_results: z.number().int().min(1).max(1000).optional().describe('Stop after this many matching lines (default 100).'),
});

/** One matching line. */
export interface SearchMatch {
  path: string;
  /** 1-based line number. */
  line: number;
  text: string;
}

/**
 * `search_files` (SAFE): literal or regex search through the workspace's text files, one result
 * per matching line, capped with a marker. Skips `.git`, `node_modules`, symlinks, binary files,
 * files over 2 MiB and secret files (`.env*`).
 */
export const searchFilesTool = defineTool({
  name: 'search_files',
  description:
    'Search the text of workspace files for a literal string or a regular expression. Returns path:line: text for each match.',
  category: 'search',
  dangerLevel: 'SAFE',
  parameters: searchFilesParameters,
  async execute(params, context) {
    const caseSensitive = params.case_sensitive ?? true;
    const maxResults = params.max_results ?? 100;
    let matches: (line: string) => boolean;
    if (params.regex) {
      let pattern: RegExp;
      try {
        pattern = new RegExp(params.query, caseSensitive ? '' : 'i');
      } catch (error) {
        throw new BuiltinToolError(
          'search_files',
          `Invalid regular expression: ${(error as Error).message}`,
          { query: params.query },
          'VALIDATION',
        );
      }
      matches = (line) => line.length <= MAX_REGEX_LINE_CHARS && pattern.test(line);
    } else {
      const needle = caseSensitive ? params.query : params.query.toLowerCase();
      matches = (line) => (caseSensitive ? line : line.toLowerCase()).includes(needle);
    }

    const target = await resolveWorkspacePath(context, params.path ?? '.', 'read');
    const info = await stat(target.absolute).catch(() => undefined);
    if (!info)
      throw new BuiltinToolError('search_files', `Cannot search '${target.relative}': it does not exist.`, {
        path: target.relative,
      });
    const files: AsyncIterable<WalkEntry> | WalkEntry[] = info.isDirectory()
      ? walkWorkspace(target.root, target.absolute, { recursive: true, signal: context.signal })
      : [{ absolute: target.absolute, relative: target.relative, kind: 'file', skipped: false }];

    const results: SearchMatch[] = [];
    let filesSearched = 0;
    let truncated = false;
    outer: for await (const file of files) {
      if (file.kind !== 'file' || protectedPathReason(file.relative, 'read')) continue;
      const size = (await stat(file.absolute).catch(() => undefined))?.size ?? Infinity;
      if (size > MAX_SEARCH_FILE_BYTES) continue;
      const buffer = await readFile(file.absolute).catch(() => undefined);
      if (!buffer || looksBinary(buffer)) continue;
      filesSearched++;
      const lines = buffer.toString('utf8').split(/\r?\n/);
      for (let i = 0; i < lines.length; i++) {
        if (!matches(lines[i]!)) continue;
        if (results.length >= maxResults) {
          truncated = true;
          break outer;
        }
        const text = lines[i]!.trim();
        results.push({
          path: file.relative,
          line: i + 1,
          text: text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text,
        });
      }
    }
    const lines = results.map((m) => `${m.path}:${m.line}: ${m.text}`);
    const header =
      results.length === 0
        ? `No matches for ${JSON.stringify(params.query)} in ${filesSearched} files.`
        : `${results.length} matching lines for ${JSON.stringify(params.query)}:`;
    if (truncated) lines.push(`…[stopped at ${maxResults} matches; narrow the query or the path]`);
    return { content: [header, ...lines].join('\n'), data: { matches: results, truncated, filesSearched } };
  },
});
