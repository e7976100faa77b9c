/**
 * Panel → host: open a file (a file label in the panel), at `line` (1-based) when given. Without `session` the path
 * is in the workspace folder (an answer's source); with `session: true` it is a file of the panel's session (its
 * worktree while it runs, its branch read-only afterwards). The host keeps it inside that folder.
 */
import * as z from 'zod/mini';
import { definePanelMessage } from './define';

/** `{ type: 'openFile', path, line?, session? }`. */
export const openFile = definePanelMessage(
  'openFile',
  {
    path: z.string().check(z.minLength(1), z.maxLength(1000)),
    line: z.optional(z.int().check(z.positive())),
    session: z.optional(z.boolean()),
  },
  (message, host) =>
    message.session ? host.openSessionFile(message.path, message.line) : host.openWorkspaceFile(message.path, message.line),
);

/** Builds the panel's request to open file `path` (at 1-based `line`) of the workspace, or of the panel's session when `session`. */
export function openFileMessage(path: string, line?: number, session?: boolean) {
  return { type: openFile.type, path, ...(line !== undefined ? { line } : {}), ...(session ? { session: true } : {}) };
}

/**
 * The file and first line of a source label such as `src/fizz.js:3-9` (or `src/fizz.js:3`, or a bare
 * path); undefined for an empty label.
 */
export function parseSourceLabel(label: string): { path: string; line?: number } | undefined {
  const match = /^(.*?):(\d+)(?:-\d+)?$/.exec(label.trim());
  const path = (match ? match[1]! : label).trim();
  if (path === '') return undefined;
  const line = match ? Number(match[2]) : undefined;
  return line !== undefined && line > 0 ? { path, line } : { path };
}
