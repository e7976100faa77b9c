import { confineToWorkspace } from '../../workspaceSandbox/workspacePath';
import { readExistingFile } from './existingFile';
import { unifiedDiff } from './unifiedDiff';

/**
 * The approval preview of a file change: the unified diff between the file as it is and as `change`
 * would leave it. Only reads, inside the workspace. Undefined when the path leaves the workspace, the file
 * is not text, or `change` says the call would fail (the call then reports its own error).
 */
export async function fileDiffPreview(
  workspaceRoot: string,
  rawPath: string,
  change: (before: string | undefined) => { after: string | undefined } | undefined,
): Promise<{ kind: 'diff'; path: string; diff: string } | undefined> {
  const target = await confineToWorkspace(workspaceRoot, rawPath).catch(() => undefined);
  if (!target) return undefined; // the call itself will be refused, with the reason
  const existing = await readExistingFile(target.absolute).catch(() => undefined);
  if (!existing || (existing.kind !== 'text' && existing.kind !== 'missing')) return undefined;
  const before = existing.kind === 'text' ? existing.text : undefined;
  const planned = change(before);
  if (!planned) return undefined;
  return { kind: 'diff', path: target.relative, diff: unifiedDiff(before, planned.after, target.relative) };
}
