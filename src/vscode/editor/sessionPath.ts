/** Which file of a session a path from the panel names (pure: no `vscode`). */
import * as path from 'node:path';

/**
 * The worktree-relative, `/`-separated path of `raw` — relative to the session's worktree, or absolute
 * inside it (as runners print locations) — or undefined when it would leave the worktree (`..`, an
 * absolute path elsewhere, an absolute path while the worktree is unknown). The panel renders model
 * output, so a path from it is never trusted to point anywhere else.
 */
export function sessionRelativePath(worktree: string | undefined, raw: string): string | undefined {
  const inside = path.isAbsolute(raw) ? (worktree ? path.relative(worktree, raw) : undefined) : raw;
  if (inside === undefined || path.isAbsolute(inside)) return undefined;
  const relative = path.posix.normalize(inside.split(path.sep).join('/'));
  if (relative === '.' || relative === '..' || relative.startsWith('../') || relative.startsWith('/')) return undefined;
  return relative;
}
