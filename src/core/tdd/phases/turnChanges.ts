import { readTreeEntry } from '../../workspaceSandbox/untrustedTree';
import { regionChange, testRegionFinder } from '../boundaries/testRegions';
import { CHECKPOINT_MAX_FILE_BYTES, type PhaseCheckpoint } from '../commits/phaseCheckpoint';
import type { ChangedFile } from '../git/changedFiles';

/**
 * What a turn changed since its checkpoint, as the role rules judge it: each changed file, and for a file whose tests
 * live inside its code (Rust's `#[cfg(test)] mod tests`) whether the turn touched those tests, the code, or both.
 */
export async function turnChanges(checkpoint: PhaseCheckpoint, workspaceRoot: string): Promise<ChangedFile[]> {
  const changes = await checkpoint.changesSince();
  for (const change of changes) {
    const find = testRegionFinder(change.path);
    if (!find) continue;
    const now =
      change.change === 'deleted' ? undefined : await readTreeEntry(workspaceRoot, change.path, CHECKPOINT_MAX_FILE_BYTES);
    const after = now?.kind === 'file' ? now.content.toString('utf8') : undefined;
    change.regions = regionChange(find, await checkpoint.textBefore(change.path), after);
  }
  return changes;
}
