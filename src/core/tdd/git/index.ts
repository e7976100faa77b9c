/** The session's git workspace: clean history on a session branch, the person's work never lost. */
export { GitWorkspace, type CommitInfo, type FinishResult, type GitSessionInfo, type OpenGitWorkspaceOptions } from './gitWorkspace';
export { WorkspaceDirtyError, GitOperationError } from './errors';
export { type ChangedFile, type FileChange, SESSION_DIR, isSessionStatePath, parsePorcelainStatus } from './changedFiles';
export { sessionBranchName, refSafeSlug, SESSION_BRANCH_PREFIX } from './sessionBranchName';
