import { AgentError } from '../../errors/agentError';
import { redactSecrets } from '../../security/redact';
import type { SessionWorktree } from '../git';
import type { CheckpointGit } from './phaseCheckpoint';

/** What the loop needs from git beyond the checkpoint: commit, undo, history. */
export interface LoopGit extends CheckpointGit {
  /** Commits every change and returns the sha. */
  commitAll(message: string): Promise<string>;
  /** Discards every uncommitted change the session made (tracked and untracked, not ignored files). */
  rollbackToHead(): Promise<void>;
  /** Newest first, one line each. */
  recentCommits(n: number): Promise<string[]>;
  /** The `.git` entries of nested repositories the last commit removed before staging (their files went in as plain files). */
  removedNestedRepositories?(): readonly string[];
  /** The patch a commit made (`git show` of it, without its message): what a Reviewer reads. */
  commitDiff?(sha: string): Promise<string>;
}

/** Adapts the session's worktree to what the loop and its checkpoints need. */
export function loopGit(git: SessionWorktree): LoopGit {
  // The history changes only through commitAll: read it once, then put each new commit on top (no git log per turn).
  let history: string[] | undefined;
  let historyDepth = 0;
  return {
    changedFiles: () => git.changedFiles(),
    revertPaths: (paths) => git.revertPaths(paths),
    headContent: (path) => git.headContent(path),
    async commitAll(message) {
      const sha = await git.commitAll(message);
      if (!sha)
        throw new AgentError('NOTHING_TO_COMMIT', 'Nothing to commit after a green phase; the working tree had no changes.', {});
      if (history) history = [`${sha.slice(0, 7)} ${commitSubject(message)}`, ...history].slice(0, historyDepth);
      return sha;
    },
    async rollbackToHead() {
      await git.rollbackToHead();
    },
    removedNestedRepositories: () => git.lastRemovedNestedRepositories,
    commitDiff: (sha) => git.commitDiff(sha),
    async recentCommits(n) {
      if (!history || n > historyDepth) {
        history = (await git.recentCommits(n)).map((c) => `${c.shortSha} ${c.subject}`);
        historyDepth = n;
      }
      return history.slice(0, n);
    },
  };
}

/** What `git log --format=%s` shows of a message: its first paragraph on one line (as redacted for the commit). */
function commitSubject(message: string): string {
  const clean = redactSecrets(message).trim() || 'chore: tdd-agent commit';
  return clean
    .split(/\n\s*\n/)[0]!
    .split('\n')
    .map((l) => l.trim())
    .join(' ');
}
