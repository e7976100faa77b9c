/** The session's record (`<common git dir>/tdd-agent/sessions/<id>.json`), its schema (roles, phases and statuses come from core/vocabulary), and what can be done with it: recorded, locked, found to resume, listed, merged, deleted. */
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
