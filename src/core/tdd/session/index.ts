/** The session's persisted state (`<common git dir>/tdd-agent/sessions/<id>.json`) and its schema (roles, phases and statuses come from ../events). */
export {
  CycleStateSchema,
  PhaseRecordSchema,
  QuestionRecordSchema,
  RoleResultSchema,
  type RoleResult,
  SessionGitSchema,
  SessionKataSchema,
  SessionMetricsSchema,
  SessionStateSchema,
  TestCountsSchema,
  emptySessionMetrics,
  newCycleState,
  type CycleState,
  type PhaseRecord,
  type QuestionRecord,
  type SessionMetrics,
  type SessionState,
} from './sessionState';
export { SessionStateError, SessionStore } from './sessionStore';
export { diskUsage, formatDiskUsage } from './diskUsage';
export { SessionLock, SessionLockedError, sessionLockHolder, type SessionLockHolder } from './sessionLock';
export { findResumableSession, isResumable, isRunningElsewhere } from './findSession';
export { deleteSession, listSessions, pruneSessions, recordedStatus, type SessionListing } from './sessionActions';
export {
  mergeBlocker,
  mergeBranch,
  mergeSession,
  previewBranchMerge,
  previewMerge,
  type MergeFileChange,
  type MergeOptions,
  type MergePreview,
  type MergeResult,
} from './sessionMerge';
