/** What a session records about its git: where it lives (persisted with the session) and its commits as agents see them. */

/** Where a session lives in git, persisted with the session so it can be resumed, reviewed or deleted. */
export interface SessionGitInfo {
  /** The person's working tree root: read, never written. */
  repository: string;
  /** The repository's common git dir. */
  commonDir: string;
  /** The session's own worktree folder (outside the person's working tree). */
  worktree: string;
  /** The worktree's git dir (`<commonDir>/worktrees/<name>`), named explicitly in every session git call. */
  worktreeGitDir: string;
  /** `tdd/<kata>-<time>`. */
  sessionBranch: string;
  /** The commit the session branch started from. */
  baseCommit: string;
  /** The person's branch when the session started (null: detached HEAD, or a branch without commits yet). */
  baseBranch: string | null;
  /** True when the session ran `git init` (the folder was not a repository). */
  createdRepository: boolean;
  /** True when the session's first commit is a snapshot of the person's working tree. */
  fromWorkingTree: boolean;
}

/** A commit as the agents' context shows it. */
export interface CommitInfo {
  sha: string;
  shortSha: string;
  subject: string;
  author: string;
  date: string;
}
