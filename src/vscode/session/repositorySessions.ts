/**
 * The workspace repository's recorded kata sessions as the panel shows them, and what "Review changes"
 * needs: which files a session's branch changed since it started and their content at a commit. Reads
 * only (through the core's `productGit`: no hooks, no optional locks, so the person's index is not
 * rewritten). Pure with respect to VS Code (no `vscode` import), so it is tested on real repositories.
 */
import { access } from 'node:fs/promises';
import { productGit } from '../../core';
import {
  inspectWorkspace,
  listSessions,
  mergeBlocker,
  recordedStatus,
  type SessionListing,
  type SessionState,
} from '../../core/tddApi';
import { isSessionId, type RecordedSession, type RepositorySessions } from '../../shared/panelProtocol';

/**
 * How many paths `git status --porcelain` lists for the repository at `root` (tracked changes and
 * untracked files, not ignored ones); 0 outside a repository. Read-only: no index refresh, no lock.
 */
export async function uncommittedChangeCount(root: string): Promise<number> {
  let output: string;
  try {
    output = await productGit(root).run(['status', '--porcelain']);
  } catch {
    return 0; // not a repository (or no folder): nothing uncommitted to ask about
  }
  return output.split('\n').filter((line) => line.trim() !== '').length;
}

/** A record the panel cannot list (unreadable), reported to the log by the caller. */
export interface SkippedSession {
  id: string;
  problem: string;
}

/** The number git prints for `args`, or `fallback` when it fails or prints none. */
async function count(run: (args: string[]) => Promise<string>, args: string[], fallback = 0): Promise<number> {
  const value = Number.parseInt((await run(args).catch(() => '')).trim(), 10);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

/**
 * The sessions of the repository whose root is `workspace`, newest first, with the person's branch and
 * whether their checkout can take a merge now. Null when `workspace` is not the root of a git repository.
 * `runningHere(id)` says whether this window runs that session now (the core's `recordedStatus`);
 * `onSkipped` hears about records that cannot be read (they are left out).
 */
export async function readRepositorySessions(
  workspace: string,
  options: { runningHere?: (id: string) => boolean; onSkipped?: (skipped: SkippedSession) => void } = {},
): Promise<RepositorySessions | null> {
  const { runningHere, onSkipped } = options;
  let facts: Awaited<ReturnType<typeof inspectWorkspace>>;
  try {
    facts = await inspectWorkspace(workspace);
  } catch {
    return null; // a folder inside a repository: the session itself explains that when one is started
  }
  if (facts.kind !== 'repository') return null;
  const { root, branch } = facts.repository;
  const { run } = productGit(root);
  const [listings, blocker] = await Promise.all([
    listSessions(root),
    mergeBlocker(root).catch((error: unknown) => (error instanceof Error ? error.message : String(error))),
  ]);
  const sessions: RecordedSession[] = [];
  for (const listing of listings) {
    if (!listing.state || !isSessionId(listing.id)) {
      onSkipped?.({ id: listing.id, problem: listing.problem ?? 'not a session id' });
      continue;
    }
    const { state } = listing;
    const ref = `refs/heads/${state.git.sessionBranch}`;
    const exists = (await run(['rev-parse', '--verify', '-q', ref]).catch(() => '')).trim() !== '';
    const commits = exists ? await count(run, ['rev-list', '--count', `${state.git.baseCommit}..${ref}`]) : 0;
    // Merged: none of the branch's commits is missing from the person's HEAD. (Exit codes without
    // stderr, such as `merge-base --is-ancestor`'s, do not reach simple-git, so this counts instead.)
    const merged =
      exists &&
      commits > 0 &&
      facts.repository.head !== null &&
      (await count(run, ['rev-list', '--count', `HEAD..${ref}`], -1)) === 0;
    const updatedAt = Date.parse(state.updatedAt);
    const status = recordedStatus(listing as typeof listing & { state: SessionState }, runningHere);
    sessions.push({
      id: listing.id,
      kata: state.kata.title,
      status,
      branch: state.branch,
      baseBranch: state.git.baseBranch,
      cycles: state.cycles.filter((c) => c.outcome !== 'in_progress' && c.outcome !== 'cancelled').length,
      commits,
      merged,
      resumable: listing.resumable && status !== 'running',
      ...(Number.isFinite(updatedAt) && updatedAt >= 0 ? { updatedAt } : {}),
      ...(state.sandbox ? { sandbox: state.sandbox } : {}),
    });
  }
  return { branch, ...(blocker ? { mergeBlocker: blocker } : {}), sessions };
}

/** The saved record of session `id` of the repository at `workspace`, or undefined when there is none (or it is unreadable). */
export async function findSessionRecord(workspace: string, id: string): Promise<SessionState | undefined> {
  const listings = await listSessions(workspace).catch(() => [] as SessionListing[]);
  return listings.find((l) => l.id === id)?.state;
}

/**
 * The kata to hand to the session when resuming `state`: its file when that still exists, else its slug
 * (a bundled kata). The session checks it again.
 */
export async function kataPathOf(state: Pick<SessionState, 'kata'>): Promise<string> {
  const file = state.kata.fileName;
  if (
    file &&
    (await access(file).then(
      () => true,
      () => false,
    ))
  )
    return file;
  return state.kata.slug;
}

/** One file a session changed: `A`dded, `M`odified or `D`eleted (renames are a delete and an add). */
export interface SessionFileChange {
  path: string;
  status: 'A' | 'M' | 'D';
}

/** What "Review changes" shows: the files changed between the commit the session started from and its branch's tip. */
export interface SessionChanges {
  repository: string;
  branch: string;
  /** The commit the session started from. */
  base: string;
  /** The branch's tip when the changes were read (a fixed commit, so the diff does not move under the person). */
  head: string;
  files: SessionFileChange[];
}

/**
 * The files session `state` changed since it started, from git (`diff --name-status base..branch`).
 * @throws Error when the branch no longer exists.
 */
export async function sessionChanges(state: Pick<SessionState, 'git'>): Promise<SessionChanges> {
  const { repository, baseCommit, sessionBranch } = state.git;
  const { run } = productGit(repository);
  const head = (await run(['rev-parse', '--verify', '-q', `refs/heads/${sessionBranch}^{commit}`]).catch(() => '')).trim();
  if (!head) throw new Error(`The branch ${sessionBranch} no longer exists, so there is nothing to review.`);
  const output = await run(['diff', '--name-status', '--no-renames', '-z', baseCommit, head, '--']);
  const parts = output.split('\0').filter((p) => p !== '');
  const files: SessionFileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]!.charAt(0);
    const path = parts[i + 1]!;
    files.push({ path, status: status === 'A' ? 'A' : status === 'D' ? 'D' : 'M' });
  }
  return { repository, branch: sessionBranch, base: baseCommit, head, files };
}

/** Git's empty tree: the "before" side of a repository's first commit. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * The files commit `sha` of `repository` changed (against its first parent), in the shape a review shows.
 * @throws Error when `sha` is not a commit of the repository.
 */
export async function commitChanges(repository: string, sha: string): Promise<SessionChanges> {
  if (!/^[0-9a-f]{7,64}$/i.test(sha)) throw new Error(`'${sha}' is not a commit id.`);
  const { run } = productGit(repository);
  const head = (await run(['rev-parse', '--verify', '-q', `${sha}^{commit}`]).catch(() => '')).trim();
  if (!head) throw new Error(`The commit ${sha.slice(0, 7)} is no longer in this repository.`);
  const parent = (await run(['rev-parse', '--verify', '-q', `${head}^1`]).catch(() => '')).trim();
  const base = parent || EMPTY_TREE;
  const output = await run(['diff', '--name-status', '--no-renames', '-z', base, head, '--']);
  const parts = output.split('\0').filter((p) => p !== '');
  const files: SessionFileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]!.charAt(0);
    files.push({ path: parts[i + 1]!, status: status === 'A' ? 'A' : status === 'D' ? 'D' : 'M' });
  }
  return { repository, branch: head.slice(0, 7), base, head, files };
}

/** The content of `path` at commit `rev` of `repository` (`git show rev:path`), as git prints it. */
export async function fileAtRevision(repository: string, rev: string, path: string): Promise<string> {
  if (!/^[0-9a-f]{7,64}$/i.test(rev)) throw new Error(`'${rev}' is not a commit id.`);
  const { run } = productGit(repository);
  return run(['show', `${rev}:${path.replace(/^\.?\//, '')}`]);
}
