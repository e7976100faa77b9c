/** The session's persisted state (`.tdd/session.json`) and its schema. */
export {
  CYCLE_PHASES,
  CycleStateSchema,
  PhaseRecordSchema,
  SESSION_ROLES,
  SESSION_STATUSES,
  SessionGitSchema,
  SessionKataSchema,
  SessionMetricsSchema,
  SessionStateSchema,
  TestCountsSchema,
  emptySessionMetrics,
  newCycleState,
  type CyclePhase,
  type CycleState,
  type PhaseRecord,
  type SessionMetrics,
  type SessionState,
  type SessionStatus,
} from './sessionState';
export { SESSION_FILE, SessionStateError, SessionStore } from './sessionStore';
