/** Where a path the panel names is on disk (pure: no `vscode`). */
import * as path from 'node:path';

/**
 * The absolute path of `relative` inside workspace folder `root`, or undefined when it would leave the
 * folder (`..`, an absolute path elsewhere): the panel renders model output, so a path from it is
 * never trusted to point anywhere else.
 */
export function workspaceFilePath(root: string, relative: string): string | undefined {
  const resolved = path.resolve(root, relative);
  const inside = path.relative(root, resolved);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return undefined;
  return resolved;
}
