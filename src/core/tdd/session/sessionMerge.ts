/**
 * Taking a session's branch into the person's current branch, on their explicit request only: what would arrive
 * (commits, files, whether it fast-forwards, which files would conflict) and the merge itself. The merge is git's
 * own `git merge`, so the person's index, untracked and ignored files are protected as git protects them (it
 * refuses rather than overwrite); nothing here resets, stashes or checks out anything else.
 *
 * - A checkout on a branch with no commit yet (a freshly `git init`ed folder) takes the branch as its first history:
 *   `git merge` into an unborn branch is a fast-forward, the only kind git allows there.
 * - Otherwise a fast-forward where the person's branch is behind, a merge commit where the two diverged or when the
 *   person asks for one.
 * - A failure says why (the files in conflict, or git's own refusal) and leaves the checkout as it was.
 */
import { access, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '../../errors/agentError';
import { productGit, type GitRun } from '../../hostGit/gitClient';
import { loadSession } from './sessionActions';

/** Why the person's checkout cannot take a merge now, or undefined when it can. */
export async function mergeBlocker(repository: string): Promise<string | undefined> {
  const { run } = productGit(repository);
  const gitDir = (await run(['rev-parse', '--absolute-git-dir'])).trim();
  for (const [marker, what] of [
    ['MERGE_HEAD', 'a merge'],
    ['rebase-merge', 'a rebase'],
    ['rebase-apply', 'a rebase'],
    ['CHERRY_PICK_HEAD', 'a cherry-pick'],
    ['REVERT_HEAD', 'a revert'],
    ['BISECT_LOG', 'a bisect'],
  ] as const) {
    if (
      await access(join(gitDir, marker)).then(
        () => true,
        () => false,
      )
    )
      return `the repository is in the middle of ${what}`;
  }
  if (!(await run(['symbolic-ref', '-q', 'HEAD']).catch(() => '')).trim()) return 'HEAD is detached';
  if ((await run(['status', '--porcelain', '--untracked-files=no'])).trim()) return 'the checkout has uncommitted changes';
  return undefined;
}

/** One file a merge would bring: `A`dded, `M`odified or `D`eleted. */
export interface MergeFileChange {
  path: string;
  status: 'A' | 'M' | 'D';
}

/** What merging `branch` into the person's current branch would do, read without changing anything. */
export interface MergePreview {
  /** The session branch. */
  branch: string;
  /** The person's current branch; null when HEAD is detached. */
  into: string | null;
  /** True when `into` has no commit yet (a freshly initialised repository). */
  unborn: boolean;
  /** Commits of `branch` that `into` does not have, oldest first (their subjects). */
  commits: string[];
  /** The files those commits change against `into`'s tip (against the empty tree on an unborn branch). */
  files: MergeFileChange[];
  /** True when `into` can simply move forward to `branch` (it is behind, or unborn). */
  fastForward: boolean;
  /** Files git would report in conflict (a merge of diverged branches); empty when it merges cleanly. */
  conflicts: string[];
  /** Files the merge would add that are already in the folder, untracked or ignored (the person's own): the merge waits until they are moved. */
  inTheWay: string[];
  /** Why the checkout cannot take it now (uncommitted changes, a merge in progress, detached HEAD); absent when it can. */
  blocker?: string;
}

/** How the person asked to merge. */
export interface MergeOptions {
  /** Always record a merge commit (`--no-ff`), even when a fast-forward would do; not possible into an unborn branch. */
  mergeCommit?: boolean;
}

/** What a merge did. */
export interface MergeResult {
  branch: string;
  into: string;
  /** The person's branch's new tip. */
  head: string;
  /** How: the branch's first history (`unborn`), moved forward, or a merge commit. */
  kind: 'unborn' | 'fast-forward' | 'merge-commit';
  commits: number;
  files: number;
}

/** Git's empty tree: what an unborn branch "has". */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

async function resolve(run: GitRun, rev: string): Promise<string | undefined> {
  return (await run(['rev-parse', '--verify', '-q', `${rev}^{commit}`]).catch(() => '')).trim() || undefined;
}

function parseNameStatus(output: string): MergeFileChange[] {
  const parts = output.split('\0').filter((p) => p !== '');
  const files: MergeFileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]!.charAt(0);
    files.push({ path: parts[i + 1]!, status: status === 'A' ? 'A' : status === 'D' ? 'D' : 'M' });
  }
  return files;
}

/**
 * The files a merge of two diverged commits would leave in conflict, from `git merge-tree --write-tree`
 * (git 2.38+; it writes objects only, never the index or the files). Empty when it merges cleanly or git is older.
 */
async function predictedConflicts(run: GitRun, ours: string, theirs: string): Promise<string[]> {
  // With conflicts git exits 1 and still prints the tree and the names; simple-git may or may not reject then.
  const output = await run(['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs]).catch(
    (error: unknown) => (error instanceof Error ? error.message : ''),
  );
  const lines = output.split('\n');
  if (!/^[0-9a-f]{40,64}$/.test(lines[0]?.trim() ?? '')) return [];
  return [
    ...new Set(
      lines
        .slice(1)
        .map((l) => l.trim())
        .filter((l) => l !== ''),
    ),
  ];
}

/** What merging `branch` into the current branch of `repository` would do (reads only). */
export async function previewBranchMerge(repository: string, branch: string): Promise<MergePreview> {
  const { run } = productGit(repository);
  const tip = await resolve(run, `refs/heads/${branch}`);
  if (!tip) throw new AgentError('CONFIG', `The branch ${branch} no longer exists, so there is nothing to merge.`, { branch });
  const into = (await run(['symbolic-ref', '-q', '--short', 'HEAD']).catch(() => '')).trim() || null;
  const head = await resolve(run, 'HEAD');
  const blocker = await mergeBlocker(repository);
  const range = head ? [`${head}..${tip}`] : [tip];
  const commits = (await run(['log', '--reverse', '--format=%s', ...range])).split('\n').filter((line) => line.trim() !== '');
  const files = parseNameStatus(await run(['diff', '--name-status', '--no-renames', '-z', head ?? EMPTY_TREE, tip, '--']));
  // Fast-forward: HEAD is an ancestor of the tip (counted: `merge-base --is-ancestor` answers by exit code alone).
  const behind = head ? Number((await run(['rev-list', '--count', `${tip}..${head}`])).trim()) === 0 : true;
  const conflicts = head && !behind && commits.length > 0 ? await predictedConflicts(run, head, tip) : [];
  // git refuses to overwrite an untracked file, but its merge strategy replaces ignored ones whatever
  // `--no-overwrite-ignore` says (git 2.39): every file the merge adds must be absent from the folder.
  const inTheWay: string[] = [];
  for (const file of files) {
    if (file.status !== 'A') continue;
    const there = await lstat(join(repository, file.path)).then(
      () => true,
      () => false,
    );
    if (there) inTheWay.push(file.path);
  }
  return {
    branch,
    into,
    unborn: head === undefined,
    commits,
    files,
    fastForward: behind,
    conflicts,
    inTheWay,
    ...(blocker ? { blocker } : {}),
  };
}

/** The paths git left unmerged (in conflict) in the index. */
async function unmergedPaths(run: GitRun): Promise<string[]> {
  const output = await run(['diff', '--name-only', '--diff-filter=U']).catch(() => '');
  return [...new Set(output.split('\n').filter((l) => l.trim() !== ''))];
}

/** git's own words of a failure, without the usual hints. */
function gitWords(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^hint:/.test(l) && !/^Aborting$/i.test(l))
    .slice(0, 8)
    .join(' ');
}

/**
 * Merges `branch` into the current branch of `repository`: only when the checkout can take it (see
 * {@link mergeBlocker}), never forcing. A conflict or a refusal by git leaves the checkout as it was.
 */
export async function mergeBranch(repository: string, branch: string, options: MergeOptions = {}): Promise<MergeResult> {
  const preview = await previewBranchMerge(repository, branch);
  if (preview.blocker || !preview.into)
    throw new AgentError('CONFIG', `Not merging ${branch}: ${preview.blocker ?? 'HEAD is detached'}. Nothing was changed.`, {
      branch,
      blocker: preview.blocker ?? 'HEAD is detached',
    });
  const into = preview.into;
  if (preview.commits.length === 0)
    throw new AgentError('CONFIG', `${branch} has nothing that ${into} does not already have. Nothing was changed.`, { branch });
  if (preview.inTheWay.length > 0)
    throw new AgentError(
      'CONFIG',
      `Not merging ${branch}: it adds ${preview.inTheWay.join(', ')}, which your folder already has as an untracked or ignored file. Move ${preview.inTheWay.length === 1 ? 'it' : 'them'} away and merge again; nothing was changed.`,
      { branch, inTheWay: preview.inTheWay },
    );
  const { run } = productGit(repository);
  const kind: MergeResult['kind'] = preview.unborn
    ? 'unborn'
    : options.mergeCommit || !preview.fastForward
      ? 'merge-commit'
      : 'fast-forward';
  // `--no-overwrite-ignore`: an ignored file of the person's in the way stops the merge (git would replace it).
  const args =
    kind === 'merge-commit'
      ? ['merge', '--no-edit', '--no-ff', '--no-overwrite-ignore', '-m', `Merge ${branch} (tdd-agent session)`, branch]
      : ['merge', '--ff-only', '--no-overwrite-ignore', branch]; // into an unborn branch too: git checks the files out as a fast-forward
  let failure: unknown;
  try {
    await run(args);
  } catch (cause) {
    failure = cause;
  }
  // A conflict ends with exit 1 and words on stdout only, so git's call may resolve: the index tells.
  const conflicts = await unmergedPaths(run);
  if (conflicts.length > 0 || failure !== undefined) {
    await run(['merge', '--abort']).catch(() => undefined); // only when a merge was left in progress
    if (conflicts.length > 0)
      throw new AgentError(
        'GIT_FAILED',
        `Merging ${branch} into ${into} stopped on conflicts in ${conflicts.join(', ')}; it was aborted and your checkout is as it was. Merge it yourself (git merge ${branch}) to resolve them.`,
        { branch, conflicts },
        { cause: failure },
      );
    throw new AgentError(
      'GIT_FAILED',
      `git did not merge ${branch} into ${into}, and your checkout is as it was: ${gitWords(failure)}`,
      { branch },
      { cause: failure },
    );
  }
  const head = (await run(['rev-parse', 'HEAD'])).trim();
  return { branch, into, head, kind, commits: preview.commits.length, files: preview.files.length };
}

/** What merging session `id`'s branch into the person's current branch would do. */
export async function previewMerge(workspace: string, id: string): Promise<MergePreview> {
  const { state } = await loadSession(workspace, id);
  return previewBranchMerge(state.git.repository, state.git.sessionBranch);
}

/** Merges session `id`'s branch into the person's current branch, on their explicit request (see `mergeBranch`). */
export async function mergeSession(workspace: string, id: string, options: MergeOptions = {}): Promise<MergeResult> {
  const { state } = await loadSession(workspace, id);
  return mergeBranch(state.git.repository, state.git.sessionBranch, options);
}
