/**
 * A session's set-up, kept out of the person's history unless they take it (issue 36). A session in a folder the
 * session made a git repository starts its branch from an empty commit (`chore: initial empty commit (tdd-agent)`:
 * `git worktree add` needs a commit), and a kata's scaffold holds empty `.gitkeep` placeholders so that its code and
 * test folders exist before any file is in them. Neither is the person's work: merged as it is, `main` began with both.
 *
 * `sessionSetup` finds them on a branch; `historyWithoutSetup` writes the same history without them: every
 * other commit again, with its author, dates, message and files, minus the placeholders, and without the empty first
 * commit (the next one becomes the root). A commit that only touched placeholders is left out too. Objects are written
 * with a temporary index of its own: the person's index and files are not touched. {@link leaveOutSessionSetup} moves
 * a session's branch to that history before the person's merge (Merge in VS Code; "Merge with the set-up" keeps it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '../../errors/agentError';
import { productGit, type GitRun } from '../../hostGit/gitClient';
import { INITIAL_COMMIT_SUBJECT, isSetupCommitSubject } from '../git/setupCommits';
import { loadSession } from './sessionActions';

/** Git's empty tree and empty blob. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

/** What of a branch is the session's set-up rather than the person's work. */
export interface SessionSetup {
  /** The empty first commit the session made in a repository without commits, if the branch starts with it. */
  initialCommit?: string;
  /** The empty `.gitkeep` placeholders the scaffold commit added (paths), if any. */
  placeholders: string[];
}

/** One commit of the range: its sha and parents. */
interface Listed {
  sha: string;
  parents: string[];
}

async function listCommits(run: GitRun, tip: string, from: string | undefined): Promise<Listed[]> {
  const out = await run(['rev-list', '--reverse', '--topo-order', '--parents', ...(from ? [`${from}..${tip}`] : [tip])]);
  return out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [sha, ...parents] = line.trim().split(' ');
      return { sha: sha!, parents };
    });
}

async function show(run: GitRun, sha: string, format: string): Promise<string> {
  // Raw dates ("1733300000 +0100"): what GIT_AUTHOR_DATE takes back unchanged.
  return run(['show', '-s', '--date=raw', `--format=${format}`, sha]);
}

/**
 * The set-up of the commits `from..tip` (all of `tip`'s history when `from` is undefined: an unborn branch), or
 * undefined when there is none to leave out, or the history is not a straight line (a merge in it is left as it is).
 */
export async function sessionSetup(repository: string, tip: string, from?: string): Promise<SessionSetup | undefined> {
  const { run } = productGit(repository);
  const commits = await listCommits(run, tip, from);
  if (commits.length === 0 || commits.some((c) => c.parents.length > 1)) return undefined;
  let initialCommit: string | undefined;
  const first = commits[0]!;
  if (first.parents.length === 0) {
    const [subject, tree] = (await show(run, first.sha, '%s%x00%T')).trim().split('\0');
    if (subject === INITIAL_COMMIT_SUBJECT && tree === EMPTY_TREE) initialCommit = first.sha;
  }
  const placeholders: string[] = [];
  for (const commit of commits.slice(0, 3)) {
    if (commit.sha === initialCommit) continue;
    const subject = (await show(run, commit.sha, '%s')).trim();
    if (subject === INITIAL_COMMIT_SUBJECT || !isSetupCommitSubject(subject)) continue;
    const added = (await run(['diff-tree', '--root', '-r', '-z', '--no-commit-id', '--diff-filter=A', commit.sha]))
      .split('\0')
      .filter((part) => part !== '');
    // Raw records: ":000000 100644 <old> <new> A" then the path.
    for (let i = 0; i + 1 < added.length; i += 2) {
      const newBlob = added[i]!.split(' ')[3];
      const path = added[i + 1]!;
      if (newBlob === EMPTY_BLOB && /(^|\/)\.gitkeep$/.test(path)) placeholders.push(path);
    }
    break;
  }
  return initialCommit || placeholders.length > 0 ? { ...(initialCommit ? { initialCommit } : {}), placeholders } : undefined;
}

/** What `historyWithoutSetup` wrote. */
export interface SetupFreeHistory {
  /** The new tip: the same work as the branch's, without the set-up. */
  tip: string;
  /** The subjects of its commits that `from` does not have, oldest first. */
  commits: string[];
}

/**
 * Writes the history `from..tip` again without `setup` (see `sessionSetup`): the new commits' objects only; no
 * branch is moved. The first commit kept has `from` as its parent (none on an unborn branch).
 */
export async function historyWithoutSetup(
  repository: string,
  tip: string,
  setup: SessionSetup,
  from?: string,
): Promise<SetupFreeHistory> {
  const { run } = productGit(repository);
  const commits = (await listCommits(run, tip, from)).filter((c) => c.sha !== setup.initialCommit);
  const scratch = await mkdtemp(join(tmpdir(), 'tdd-agent-setup-free-'));
  try {
    const { run: indexRun } = productGit(repository, { indexFile: join(scratch, 'index') });
    let parent: string | undefined = from;
    let parentTree = from ? (await show(run, from, '%T')).trim() : EMPTY_TREE;
    const subjects: string[] = [];
    for (const commit of commits) {
      let tree = (await show(run, commit.sha, '%T')).trim();
      // A placeholder is left out wherever it is still the empty file the scaffold wrote.
      const still = setup.placeholders.length
        ? (await run(['ls-tree', '-z', commit.sha, '--', ...setup.placeholders]))
            .split('\0')
            .filter((entry) => entry.includes(` ${EMPTY_BLOB}\t`))
            .map((entry) => entry.slice(entry.indexOf('\t') + 1))
        : [];
      if (still.length > 0) {
        await indexRun(['read-tree', tree]);
        await indexRun(['rm', '--cached', '-q', '--ignore-unmatch', '--', ...still]);
        tree = (await indexRun(['write-tree'])).trim();
      }
      if (tree === parentTree) continue; // it changed placeholders only
      const [an, ae, ad, cn, ce, cd, ...body] = (
        await show(run, commit.sha, '%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd%x00%B')
      ).split('\0');
      const message = body.join('\0').replace(/\n+$/, '');
      const { run: commitRun } = productGit(repository, {
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: an!,
          GIT_AUTHOR_EMAIL: ae!,
          GIT_AUTHOR_DATE: ad!,
          GIT_COMMITTER_NAME: cn!,
          GIT_COMMITTER_EMAIL: ce!,
          GIT_COMMITTER_DATE: cd!,
        },
      });
      parent = (await commitRun(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message])).trim();
      parentTree = tree;
      subjects.push(message.split('\n')[0]!);
    }
    if (!parent || parent === from)
      throw new AgentError('CONFIG', `${tip} holds nothing but the session's set-up: there is nothing to merge.`, { tip });
    return { tip: parent, commits: subjects };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The session branch's tip and the person's HEAD (undefined on an unborn branch), or undefined when it cannot move. */
async function branchToMove(run: GitRun, branch: string): Promise<{ tip: string; head?: string } | undefined> {
  const tip = (await run(['rev-parse', '--verify', '-q', `refs/heads/${branch}^{commit}`]).catch(() => '')).trim();
  if (!tip) return undefined;
  // A branch checked out in a worktree (a session that can resume) is not moved under it.
  if ((await run(['worktree', 'list', '--porcelain'])).split('\n').includes(`branch refs/heads/${branch}`)) return undefined;
  const head = (await run(['rev-parse', '--verify', '-q', 'HEAD^{commit}']).catch(() => '')).trim();
  return { tip, ...(head ? { head } : {}) };
}

/**
 * The set-up that merging session `id`'s branch into the person's current branch would bring and Merge leaves out;
 * undefined when there is none, or when the branch is checked out in a worktree (it is not moved then).
 */
export async function sessionSetupOf(workspace: string, id: string): Promise<SessionSetup | undefined> {
  const { state } = await loadSession(workspace, id);
  const repository = state.git.repository;
  const where = await branchToMove(productGit(repository).run, state.git.sessionBranch);
  return where ? sessionSetup(repository, where.tip, where.head) : undefined;
}

/**
 * Moves session `id`'s branch to the same work without its set-up (see `historyWithoutSetup`), so that a merge
 * brings only the session's work; undefined (nothing changed) when there is no set-up to leave out.
 */
export async function leaveOutSessionSetup(workspace: string, id: string): Promise<SetupFreeHistory | undefined> {
  const { state } = await loadSession(workspace, id);
  const repository = state.git.repository;
  const { run } = productGit(repository);
  const branch = state.git.sessionBranch;
  const where = await branchToMove(run, branch);
  const setup = where && (await sessionSetup(repository, where.tip, where.head));
  if (!where || !setup) return undefined;
  const history = await historyWithoutSetup(repository, where.tip, setup, where.head);
  await run(['update-ref', `refs/heads/${branch}`, history.tip, where.tip]);
  return history;
}
