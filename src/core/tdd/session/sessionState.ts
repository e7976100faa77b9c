import { z } from 'zod';
import { CYCLE_OUTCOMES, PHASE_OUTCOMES, QUESTION_OUTCOMES, ROLE_ERROR_CODES } from '../sessionVocabulary';
import { PHASES, ROLES, SESSION_STATUSES } from '../../vocabulary';
import { LANGUAGES } from '../../vocabulary';

const count = z.number().int().min(0);
const isoTime = z.string().min(1);

/** passed / failed / total of one test run. */
export const TestCountsSchema = z.object({ passed: count, failed: count, total: count });

/** What one role's turn achieved (the agent interface contract's per-role result). */
export const RoleResultSchema = z.object({
  success: z.boolean(),
  /** Workspace-relative paths the role changed in its last attempt. */
  files_modified: z.array(z.string()),
  /** Passing tests after the role's last test run. */
  tests_passed: count,
  overshoot_detected: z.boolean(),
  /** Commits made from the role's work (the green commit for the Implementer, the refactor commit). */
  commits_made: z.array(z.string()),
  error: z
    .object({
      // A record written before TIMED_OUT became TIMEOUT (one word for every deadline) still reads.
      error_code: z.preprocess((code) => (code === 'TIMED_OUT' ? 'TIMEOUT' : code), z.enum(ROLE_ERROR_CODES)),
      message: z.string(),
    })
    .optional(),
});
/** See {@link RoleResultSchema}. */
export type RoleResult = z.infer<typeof RoleResultSchema>;

/** One role's turn(s) within a cycle. */
export const PhaseRecordSchema = z.object({
  role: z.enum(ROLES),
  attempts: count,
  outcome: z.enum(PHASE_OUTCOMES),
  durationMs: count,
  overshoots: count.default(0),
  violations: count.default(0),
  reverts: count.default(0),
  lastError: z.string().optional(),
  result: RoleResultSchema.optional(),
});
/** One role's record within a cycle. */
export type PhaseRecord = z.infer<typeof PhaseRecordSchema>;

/** One red-green-refactor cycle. */
export const CycleStateSchema = z.object({
  n: z.number().int().min(1),
  phase: z.enum(PHASES),
  outcome: z.enum(['in_progress', ...CYCLE_OUTCOMES]),
  /** What the new test is about, from the Tester's report (for commit messages and the summary). */
  behaviour: z.string().optional(),
  startedAt: isoTime,
  finishedAt: isoTime.optional(),
  durationMs: count.optional(),
  attempts: z.object({ tester: count, implementer: count, refactorer: count }),
  phases: z.array(PhaseRecordSchema),
  /**
   * The counts of the state the cycle ended at: its last commit's, or, when its tree was rolled back, the commit's
   * before it (the baseline's before any). Older records hold the cycle's last run instead.
   */
  tests: TestCountsSchema.optional(),
  /** When the cycle's tree was rolled back: the counts it had reached (its red run), no longer in the branch. */
  rolledBackTests: TestCountsSchema.optional(),
  /** Time the supervisor's related runs of the cycle took (the changed tests first); absent in older records. */
  fastRunMs: count.optional(),
  /** Time the supervisor's whole-suite runs of the cycle took; absent in older records. */
  fullRunMs: count.optional(),
  /** Commits made in this cycle: the test+implementation commit and the refactor commit. */
  commits: z.object({ green: z.string().optional(), refactor: z.string().optional() }),
});
/** One cycle's state. */
export type CycleState = z.infer<typeof CycleStateSchema>;

/** Totals over the session, for the summary and the panel. */
export const SessionMetricsSchema = z.object({
  cycles: count,
  commits: count,
  testsPassing: count,
  overshoots: count,
  violations: count,
  retries: count,
  reverts: count,
  tokens: z.object({ prompt: count, completion: count, total: count }),
  modelCalls: count,
  /** Tool calls the model wrote into its text and the client read from there; 0 in records from before they were. */
  toolCallsFromText: count.default(0),
  modelLatencyMs: z.object({ total: count, max: count }),
  phaseDurationsMs: z.object({ TESTING: count, IMPLEMENTING: count, REFACTORING: count }),
});
/** What `SessionMetricsSchema` checks: the counts the summary's totals and the panel's header are made from. */
export type SessionMetrics = z.infer<typeof SessionMetricsSchema>;

/** The kata as the session ran it (description included, so a resumed session does not need the file). */
export const SessionKataSchema = z.object({
  title: z.string(),
  slug: z.string(),
  description: z.string(),
  language: z.enum(LANGUAGES),
  testCommand: z.string().optional(),
  sourceDir: z.string(),
  testDir: z.string(),
  maxCycles: z.number().int().min(1).optional(),
  fileName: z.string().optional(),
});

/** Where the session lives in git (see SessionWorktree): needed to resume, review, merge or delete it. */
export const SessionGitSchema = z.object({
  repository: z.string().min(1),
  commonDir: z.string().min(1),
  worktree: z.string().min(1),
  worktreeGitDir: z.string().min(1),
  sessionBranch: z.string().min(1),
  baseCommit: z.string().min(1),
  baseBranch: z.string().nullable(),
  createdRepository: z.boolean(),
  fromWorkingTree: z.boolean(),
});

/** A role's question to the person and what came of it (`ask_person`). */
export const QuestionRecordSchema = z.object({
  cycle: z.number().int().min(0),
  role: z.enum(ROLES),
  question: z.string(),
  outcome: z.enum(QUESTION_OUTCOMES),
  answer: z.string().optional(),
  answeredBy: z.string().optional(),
  at: isoTime,
});
/** One asked question. */
export type QuestionRecord = z.infer<typeof QuestionRecordSchema>;

/** Everything persisted in `<common git dir>/tdd-agent/sessions/<id>.json`. */
export const SessionStateSchema = z.object({
  version: z.literal(2),
  id: z.string().min(1),
  status: z.enum(SESSION_STATUSES),
  kata: SessionKataSchema,
  workspace: z.string(),
  /** The session branch `tdd/<slug>-<timestamp>`. */
  branch: z.string(),
  git: SessionGitSchema,
  /** The process running the session while its status is `running` (a second process must not resume it). */
  pid: z.number().int().optional(),
  /** False once the worktree was removed (a finished session keeps only its branch). */
  worktreeKept: z.boolean().default(true),
  /** Which OS sandbox confined the session's processes (`none` when the person turned it off). */
  sandbox: z.string().optional(),
  testCommand: z.string().optional(),
  model: z.string().optional(),
  provider: z.string().optional(),
  maxCycles: z.number().int().min(1),
  startedAt: isoTime,
  updatedAt: isoTime,
  finishedAt: isoTime.optional(),
  cycles: z.array(CycleStateSchema),
  /** The roles' questions to the person and the answers, in order (none in records from before they could ask). */
  questions: z.array(QuestionRecordSchema).default([]),
  metrics: SessionMetricsSchema,
  /**
   * Tests that were red in the session and are gone (`file › name (red in cycle k)`): none of them is in the branch, and
   * the session cannot end `completed` over them. Absent in records from before they were followed.
   */
  goneRedTests: z.array(z.string()).optional(),
  /** The stated examples of the kata without a test when the Tester ended the session (it then ended `incomplete`). */
  untestedExamples: z.array(z.string()).optional(),
  error: z.object({ error_code: z.string(), message: z.string() }).optional(),
});
/** The persisted session. */
export type SessionState = z.infer<typeof SessionStateSchema>;

/** All-zero metrics for a new session. */
export function emptySessionMetrics(): SessionMetrics {
  return {
    cycles: 0,
    commits: 0,
    testsPassing: 0,
    overshoots: 0,
    violations: 0,
    retries: 0,
    reverts: 0,
    tokens: { prompt: 0, completion: 0, total: 0 },
    modelCalls: 0,
    toolCallsFromText: 0,
    modelLatencyMs: { total: 0, max: 0 },
    phaseDurationsMs: { TESTING: 0, IMPLEMENTING: 0, REFACTORING: 0 },
  };
}

/** A cycle that has just started (TESTING, no attempts yet). */
export function newCycleState(n: number, now: Date = new Date()): CycleState {
  return {
    n,
    phase: 'TESTING',
    outcome: 'in_progress',
    startedAt: now.toISOString(),
    attempts: { tester: 0, implementer: 0, refactorer: 0 },
    phases: [],
    commits: {},
  };
}
