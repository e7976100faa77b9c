/**
 * What the merge confirmation says: which commits and files of the session's branch arrive in which branch, and how
 * (the branch's first history, a fast-forward, or a merge commit). Pure (no `vscode`).
 */
import { INITIAL_COMMIT_SUBJECT, type MergePreview, type SessionSetup } from '../../core/tddApi';

/** The buttons of the merge confirmation (the e2e specs click them). */
export const MERGE_BUTTONS = {
  merge: 'Merge',
  fastForward: 'Merge (fast-forward)',
  mergeCommit: 'Merge with a merge commit',
  /** Takes the session's set-up too (its empty first commit, the scaffold's .gitkeep placeholders). */
  keepSetup: 'Merge with the set-up',
} as const;

/** Most commits and files the merge confirmation lists by name. */
const MERGE_LIST_MAX = 12;

/**
 * The merge confirmation's message and detail: what will arrive in which branch, and how. With `setup` (see
 * `sessionSetupOf`), what arrives is the session's work without it, and the detail says what is left out. Pure.
 */
export function mergeConfirmation(preview: MergePreview, setup?: SessionSetup): { message: string; detail: string } {
  const into = preview.into ?? 'your branch';
  const placeholders = new Set(setup?.placeholders ?? []);
  const arriving = setup?.initialCommit
    ? preview.commits.filter((subject) => subject !== INITIAL_COMMIT_SUBJECT)
    : preview.commits;
  const files = preview.files.filter((f) => !placeholders.has(f.path));
  const commits = arriving.length;
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
  const leftOut = setup
    ? [
        setup.initialCommit ? 'its empty first commit' : '',
        placeholders.size > 0
          ? `the empty placeholder file${placeholders.size === 1 ? '' : 's'} ${[...placeholders].join(', ')}`
          : '',
      ].filter(Boolean)
    : [];
  const detail = [
    how,
    '',
    `Commits:\n${list(arriving)}`,
    '',
    `Files (${files.length}):\n${list(files.map((f) => `${f.status} ${f.path}`))}`,
    '',
    ...(leftOut.length > 0
      ? [`Left out: the session's set-up — ${leftOut.join(' and ')}. ${MERGE_BUTTONS.keepSetup} keeps it.`, '']
      : []),
    'Your untracked and ignored files, your stash and your other branches are not changed.',
  ].join('\n');
  return { message, detail };
}
