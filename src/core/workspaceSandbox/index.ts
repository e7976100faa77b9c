/** The workspace sandbox: path confinement for file tools and the SSRF guard for HTTP. */
export { SandboxViolationError } from './sandboxError';
export {
  resolveWorkspacePath,
  confineToWorkspace,
  toWorkspaceRelative,
  type WorkspacePath,
  type WorkspaceAccess,
} from './workspacePath';
export {
  PROTECTED_DIRECTORIES,
  PROTECTED_FILES,
  isGitInternalPath,
  protectedPathReason,
  type PathAccess,
} from './protectedPaths';
export { vetUrl, pinnedLookup, type VettedTarget, type NetworkGuardOptions, type HostResolver } from './networkGuard';
export { blockedAddressReason } from './ipRanges';
