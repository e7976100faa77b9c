import { createHash } from 'node:crypto';
import { protectedPathReason } from '../../workspaceSandbox/protectedPaths';
import { readTreeEntry } from '../../workspaceSandbox/untrustedTree';
import type { ToolCallWrapper } from '../../tools/types';
import type { ChangedFile } from '../git/changedFiles';

/** Largest protected file whose content is fingerprinted: a larger one never counts as written by an approved call. */
const MAX_PROTECTED_FILE_BYTES = 1024 * 1024;

/** The tools that change the file named by their `path` and ask for a HIGH approval before a protected one. */
const FILE_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'delete_file']);

/** A protected path that changed without an approved tool call, and why it is protected. */
export interface ProtectedChange {
  path: string;
  reason: string;
}

/** Why a change of `path` needs a person's approval (see `protectedPaths.ts`), or undefined when it does not. */
export function protectedChangeReason(change: ChangedFile): string | undefined {
  return (
    protectedPathReason(change.path, change.change === 'deleted' ? 'delete' : 'write') ??
    protectedPathReason(change.path, 'write')
  );
}

/**
 * What stands at a path, as one string: `missing`, or a regular file's execute bit and sha256. Undefined for anything
 * else (a link, a special file, a file over 1 MiB): such a thing is never what an approved call wrote.
 */
async function fingerprint(root: string, path: string): Promise<string | undefined> {
  const entry = await readTreeEntry(root, path, MAX_PROTECTED_FILE_BYTES);
  if (entry.kind === 'missing') return 'missing';
  if (entry.kind !== 'file') return undefined;
  return `${entry.executable ? 'x' : '-'}${createHash('sha256').update(entry.content).digest('hex')}`;
}

/** The `path` a file tool reports in its result's `data` (`FileChangeData`), if any. */
function reportedPath(data: unknown): string | undefined {
  const path = data && typeof data === 'object' ? (data as { path?: unknown }).path : undefined;
  return typeof path === 'string' && path !== '' && path !== '.' ? path : undefined;
}

/**
 * The protected paths a session's tools changed with approval, each with a fingerprint of what the call left there.
 * `write_file`, `edit_file` and `delete_file` refuse a protected path unless a person (or the approval policy, at HIGH)
 * approved the call, so one that succeeded on a protected path was approved. Install {@link wrapToolCall} as the
 * tool executor's `wrap`: it fingerprints the file right after the call, before the agent can run anything else (a
 * test run is a later tool call). Before a commit, {@link matches} says whether a protected path still holds exactly
 * what the approved call left; anything else there was written by something no one approved (a generated test).
 */
export class ApprovedProtectedWrites {
  private readonly approved = new Map<string, string>();

  /** @param root The session worktree, the tools' workspace root. */
  constructor(private readonly root: string) {}

  /** A `ToolCallWrapper` for the executor: records each successful file-tool call on a protected path. */
  readonly wrapToolCall: ToolCallWrapper = async (toolName, next) => {
    const result = await next();
    const path = result.ok && FILE_TOOLS.has(toolName) ? reportedPath(result.data) : undefined;
    if (path && (protectedPathReason(path, 'write') || protectedPathReason(path, 'delete'))) {
      const seen = await fingerprint(this.root, path).catch(() => undefined);
      if (seen) this.approved.set(path, seen);
      else this.approved.delete(path);
    }
    return result;
  };

  /** True when `path` holds exactly what an approved tool call left there (the same bytes, or nothing after a delete). */
  async matches(path: string): Promise<boolean> {
    const expected = this.approved.get(path);
    return expected !== undefined && expected === (await fingerprint(this.root, path).catch(() => undefined));
  }
}

/**
 * The changed protected paths that no approved tool call wrote as they are now (`approved` says which are; without
 * it, none are). Sorted by path.
 */
export async function unapprovedProtectedChanges(
  changes: readonly ChangedFile[],
  approved?: (path: string) => Promise<boolean>,
): Promise<ProtectedChange[]> {
  const found: ProtectedChange[] = [];
  for (const change of changes) {
    const reason = protectedChangeReason(change);
    if (reason && !(approved && (await approved(change.path)))) found.push({ path: change.path, reason });
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
