import { realpath } from 'node:fs/promises';
import { getLogger } from '../../logging/logger';
import { openProjectView, type ProjectView } from '../../osSandbox';
import { ignoredEntries } from '../git';
import type { SessionWorktree } from '../git';
import type { KataSessionOptions } from './kataSessionOptions';

const log = getLogger('tdd.supervisor');

/**
 * The session's view of the person's project as they have it (see `openProjectView`): the entries git ignores in the
 * person's checkout, shown copy-on-write in the worktree to every sandboxed run. None without an OS sandbox (the
 * session then runs as before: the dependencies the supervisor finds by itself), in a repository the session made,
 * or where the host cannot make one.
 */
export async function openSessionView(
  worktree: SessionWorktree,
  options: Pick<KataSessionOptions, 'sandbox'>,
): Promise<ProjectView | undefined> {
  if (options.sandbox === 'off' || worktree.info.createdRepository) return undefined;
  const [checkout, dir] = await Promise.all([realpath(worktree.info.repository), realpath(worktree.dir)]);
  const entries = await ignoredEntries(checkout);
  if (entries.length === 0) return undefined;
  const view = await openProjectView({ checkout, worktree: dir, entries });
  if (view)
    log.info('project view: the person’s ignored files shown copy-on-write', {
      mounted: view.mounted.length,
      skipped: view.skipped,
    });
  return view;
}
