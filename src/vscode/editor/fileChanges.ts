/**
 * The before and after text of the file changes the panel shows ("Open diff"), kept host-side: an
 * approval card's proposed content and a history entry's change, by card or entry id, in a bounded map
 * (the panel state carries only a compact diff). Pure apart from reading files through the callbacks it
 * is given: no `vscode`, unit-tested on its own.
 */
import { editedText, unifiedDiff } from '../../core';
import { workspaceFilePath } from '../panel/workspacePath';

/** Tools whose calls change one file's content and get a diff and "Open diff". */
export const FILE_CHANGE_TOOLS = new Set(['write_file', 'edit_file']);
/** Changes kept (the oldest go first); as many as the history keeps. */
export const MAX_FILE_CHANGES = 200;
/** Largest file content kept per side (characters); a bigger file gets no "Open diff". */
export const MAX_CHANGE_CHARS = 1_000_000;
/** Lines of the compact diff a history entry shows (the whole change is one click away). */
export const COMPACT_DIFF_LINES = 40;

/** One file change: the worktree-relative path, the text before (undefined: a new file) and after. */
export interface FileChange {
  path: string;
  before: string | undefined;
  after: string;
}

function stringField(params: unknown, name: string): string | undefined {
  const value = params && typeof params === 'object' ? (params as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The file a `write_file` / `edit_file` call names, or undefined for another tool or no path. */
export function changedPath(tool: string, params: unknown): string | undefined {
  return FILE_CHANGE_TOOLS.has(tool) ? stringField(params, 'path') : undefined;
}

/**
 * The full text `tool` would leave in a file whose text is `current` (undefined: no such file):
 * `write_file`'s content, or `edit_file`'s search/replace block(s) applied to the current text. Undefined when
 * the call would fail (an edit of a missing file, a search text that is not there).
 */
export function proposedContent(tool: string, params: unknown, current: string | undefined): string | undefined {
  if (tool === 'write_file') return stringField(params, 'content');
  if (tool !== 'edit_file' || current === undefined) return undefined;
  return editedText(params, current);
}

/** The first {@link COMPACT_DIFF_LINES} lines of the unified diff of `change` (with a marker when cut). */
export function compactDiff(change: FileChange): string {
  const lines = unifiedDiff(change.before, change.after, change.path).replace(/\n$/, '').split('\n');
  if (lines.length <= COMPACT_DIFF_LINES) return lines.join('\n');
  return [...lines.slice(0, COMPACT_DIFF_LINES), `… ${lines.length - COMPACT_DIFF_LINES} more lines: Open diff`].join('\n');
}

/** Reads a file of the session worktree by absolute path; undefined when it does not exist. */
export type ReadText = (absolute: string) => Promise<string | undefined>;

/** Bounded id → {@link FileChange} map of the changes of this window's sessions. */
export class FileChanges {
  private readonly changes = new Map<string, FileChange>();
  /** The text each file had after the last recorded change of the current session, by path. */
  private readonly seen = new Map<string, string>();

  /** A new session starts: what was last seen of its files is forgotten (the kept changes stay openable). */
  startSession(): void {
    this.seen.clear();
  }

  /** The change kept as `id` (an approval request id or a history entry id). */
  get(id: string): FileChange | undefined {
    return this.changes.get(id);
  }

  /** Keeps `change` as `id` when both sides fit {@link MAX_CHANGE_CHARS}; false when it was too big. */
  set(id: string, change: FileChange): boolean {
    if (change.after.length > MAX_CHANGE_CHARS || (change.before?.length ?? 0) > MAX_CHANGE_CHARS) return false;
    this.changes.delete(id);
    this.changes.set(id, change);
    for (const key of this.changes.keys()) {
      if (this.changes.size <= MAX_FILE_CHANGES) break;
      this.changes.delete(key);
    }
    return true;
  }

  /**
   * Keeps what approval request `id` would do to the file in `worktree` (a `write_file` / `edit_file`
   * call): the current text and the proposed one. Undefined for other tools, a path outside the
   * worktree or a call that would fail.
   */
  async propose(id: string, worktree: string, tool: string, params: unknown, read: ReadText): Promise<FileChange | undefined> {
    const relative = changedPath(tool, params);
    const file = relative !== undefined ? workspaceFilePath(worktree, relative) : undefined;
    if (!file) return undefined;
    const before = await read(file);
    const after = proposedContent(tool, params, before);
    if (after === undefined) return undefined;
    const change = { path: normalise(relative!), before, after };
    return this.set(id, change) ? change : undefined;
  }

  /**
   * Keeps the change a finished `write_file` / `edit_file` call (history entry `id`) made: before is
   * what this window last saw of the file (or `committed`, its text at the worktree's HEAD), after is
   * the file now.
   */
  async record(
    id: string,
    worktree: string,
    tool: string,
    params: unknown,
    read: ReadText,
    committed: ReadText,
  ): Promise<FileChange | undefined> {
    const relative = changedPath(tool, params);
    const file = relative !== undefined ? workspaceFilePath(worktree, relative) : undefined;
    if (!file) return undefined;
    const path = normalise(relative!);
    const after = await read(file);
    if (after === undefined) return undefined;
    const before = this.seen.get(path) ?? (await committed(path));
    this.seen.set(path, after);
    const change = { path, before, after };
    return this.set(id, change) ? change : undefined;
  }
}

function normalise(relative: string): string {
  return relative.replace(/\\/g, '/').replace(/^\.\//, '');
}
