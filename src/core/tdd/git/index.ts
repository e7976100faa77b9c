/** Where a session lives in git: its own worktree and branch; the person's repository is only read. */
export {
  SessionWorktree,
  removeSessionWorktree,
  type CommitInfo,
  type RemoveSessionWorktreeOptions,
  type CreateSessionWorktreeOptions,
  type CreatedWorktree,
  type SessionGitInfo,
} from './sessionWorktree';
export { inspectWorkspace, initRepository, readRepository, type PersonRepository, type WorkspaceFacts } from './personRepository';
export { productCacheDir, sessionsDirFor, worktreesRootFor } from './sessionPaths';
export { copyWorkingTree, type SnapshotResult } from './workingTreeSnapshot';
export { GitOperationError } from './errors';
export { ignoredEntries } from './ignoredEntries';
export { type ChangedFile, type FileChange, SESSION_DIR, isSessionStatePath, parsePorcelainStatus } from './changedFiles';
export { sessionBranchName, refSafeSlug, SESSION_BRANCH_PREFIX } from './sessionBranchName';
