/** The session's persisted state (`.tdd/session.json`) and its schema (roles, phases and statuses come from ../events). */
export {
  CycleStateSchema,
  PhaseRecordSchema,
  SessionGitSchema,
  SessionKataSchema,
  SessionMetricsSchema,
  SessionStateSchema,
  TestCountsSchema,
  emptySessionMetrics,
  newCycleState,
  type CycleState,
  type PhaseRecord,
  type SessionMetrics,
  type SessionState,
} from './sessionState';
export { SESSION_FILE, SessionStateError, SessionStore } from './sessionStore';
