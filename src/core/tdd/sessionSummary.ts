import { z } from 'zod';
import { CYCLE_OUTCOMES, PHASE_OUTCOMES, ROLE_ERROR_CODES } from './sessionVocabulary';
import { ROLES, SESSION_STATUSES } from '../vocabulary';

// The result of a session: what `tdd-agent kata --json` prints, what the panel shows at the end.
// One schema, so the CLI's output contract is checked by tests rather than described in prose.

/**
 * One role's phase in a cycle: attempts, outcome and duration, and the role's result (success, files
 * modified, passing tests, overshoot, commits, and the error when it did not succeed).
 */
export const PhaseSummarySchema = z.object({
  role: z.enum(ROLES),
  attempts: z.number().int().nonnegative(),
  outcome: z.enum(PHASE_OUTCOMES),
  duration_ms: z.number().nonnegative(),
  success: z.boolean().optional(),
  files_modified: z.array(z.string()).optional(),
  tests_passed: z.number().int().nonnegative().optional(),
  overshoot_detected: z.boolean().optional(),
  commits_made: z.array(z.string()).optional(),
  error: z.object({ error_code: z.enum(ROLE_ERROR_CODES), message: z.string() }).optional(),
});

/** Passed and failed tests of one state of the tree. */
const TestCountsSummarySchema = z.object({ passed: z.number().int().nonnegative(), failed: z.number().int().nonnegative() });

/** One cycle: outcome, the commit it ended at (refactor commit if any), test counts and phases. */
export const CycleSummarySchema = z.object({
  n: z.number().int().positive(),
  outcome: z.enum(CYCLE_OUTCOMES),
  commit: z.string().nullable(),
  /**
   * The counts of the state the cycle ended at: its commit's, or, when it failed and was rolled back, the last green
   * commit's (the baseline's before any). The last cycle's are the session's, as `totals.tests_passed` says.
   */
  tests: TestCountsSummarySchema,
  /** A cycle rolled back (failed, cancelled): the counts its attempt had reached (its red run), no longer in the branch. */
  rolled_back_tests: TestCountsSummarySchema.optional(),
  /** Time the supervisor's related runs of the cycle took (the changed tests first), in ms; absent when there were none. */
  fast_run_ms: z.number().int().nonnegative().optional(),
  /** Time the supervisor's whole-suite runs of the cycle took, in ms; absent when there were none. */
  full_run_ms: z.number().int().nonnegative().optional(),
  phases: z.array(PhaseSummarySchema),
});

/** Totals over the session, as `totals` in the `--json` output. */
export const SessionTotalsSchema = z.object({
  cycles: z.number().int().nonnegative(),
  commits: z.number().int().nonnegative(),
  /** Passing tests in the state the session ends at: its last commit's, or the baseline's when no cycle committed. */
  tests_passed: z.number().int().nonnegative(),
  overshoots: z.number().int().nonnegative(),
  violations: z.number().int().nonnegative(),
  retries: z.number().int().nonnegative(),
  reverts: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  /**
   * Tool calls the model wrote into its text (a local model served without a tool parser) and the client read
   * from there; absent in summaries from before they were counted.
   */
  toolCallsFromText: z.number().int().nonnegative().optional(),
});

/** The whole `--json` summary of a session. */
export const SessionSummarySchema = z.object({
  status: z.enum(SESSION_STATUSES).exclude(['running']),
  kata: z.string(),
  branch: z.string(),
  cycles: z.array(CycleSummarySchema),
  totals: SessionTotalsSchema,
  /** Where the result lives (absent when the session stopped before its worktree existed). */
  session: z
    .object({
      id: z.string(),
      /** The person's repository (never modified by the session). */
      repository: z.string(),
      /** The branch and commit the session started from. */
      base_branch: z.string().nullable(),
      base_commit: z.string(),
      /** The session's worktree while it is kept for resuming; null once removed. */
      worktree: z.string().nullable(),
      /** Which OS sandbox confined the session's processes (`none`: turned off by the person). */
      sandbox: z.string(),
    })
    .optional(),
  /**
   * The examples the kata (or task) states that no test checked when the Tester ended the session (`15 → "FizzBuzz"`):
   * why it ended `incomplete`. Absent when there were none.
   */
  untested_examples: z.array(z.string()).optional(),
  /**
   * Tests that were red in this session and are gone (`file › name (red in cycle k)`): their cycle was rolled back or
   * their name changed, and none of them is in the branch. A session with any does not end `completed`.
   */
  gone_red_tests: z.array(z.string()).optional(),
  /** Set when the session did not end green, or ended `incomplete`: what went wrong, for a person. */
  error: z.object({ error_code: z.string(), message: z.string() }).optional(),
});

/** See {@link PhaseSummarySchema}. */
export type PhaseSummary = z.infer<typeof PhaseSummarySchema>;
/** See {@link CycleSummarySchema}. */
export type CycleSummary = z.infer<typeof CycleSummarySchema>;
/** See {@link SessionTotalsSchema}. */
export type SessionTotals = z.infer<typeof SessionTotalsSchema>;
/** See {@link SessionSummarySchema}. */
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
