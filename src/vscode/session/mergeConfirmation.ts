/**
 * What the merge confirmation says: which commits and files of the session's branch arrive in which branch, and how
 * (the branch's first history, a fast-forward, or a merge commit). Pure (no `vscode`).
 */
import type { MergePreview } from '../../core/tdd/session';

/** The buttons of the merge confirmation (the e2e specs click them). */
export const MERGE_BUTTONS = {
  merge: 'Merge',
  fastForward: 'Merge (fast-forward)',
  mergeCommit: 'Merge with a merge commit',
} as const;

/** Most commits and files the merge confirmation lists by name. */
const MERGE_LIST_MAX = 12;

/** The merge confirmation's message and detail: what will arrive in which branch, and how. Pure. */
export function mergeConfirmation(preview: MergePreview): { message: string; detail: string } {
  const into = preview.into ?? 'your branch';
  const commits = preview.commits.length;
  const message = `Merge ${commits} commit${commits === 1 ? '' : 's'} of ${preview.branch} into ${into}?`;
  const list = (items: string[]) =>
    items
      .slice(0, MERGE_LIST_MAX)
      .map((item) => `  ${item}`)
      .join('\n') + (items.length > MERGE_LIST_MAX ? `\n  … and ${items.length - MERGE_LIST_MAX} more` : '');
  const how = preview.unborn
    ? `${into} has no commit yet: it takes these commits as its history, and the files are checked out into your folder.`
    : preview.fastForward
      ? `${into} moves forward to them (a fast-forward), or records a merge commit if you choose that.`
      : `${into} has commits of its own since: a merge commit joins the two.`;
  const detail = [
    how,
    '',
    `Commits:\n${list(preview.commits)}`,
    '',
    `Files (${preview.files.length}):\n${list(preview.files.map((f) => `${f.status} ${f.path}`))}`,
    '',
    'Your untracked and ignored files, your stash and your other branches are not changed.',
  ].join('\n');
  return { message, detail };
}
