/**
 * The panel's view model ({@link PanelState}), sent whole by the host on every change; the panel keeps no other
 * truth. Part of the panel protocol (`../panelProtocol.ts`); browser-safe (zod/mini only, no `vscode`).
 * Field names mirror the core shape they come from (`duration_ms` as in the CLI's `--json`, `final_answer` as in
 * the CoT agent's output, `error_code` as in `AgentError`).
 */
import * as z from 'zod/mini';
import { PendingPersonQuestionSchema } from '../personQuestionProtocol';
import { PanelActionRecordSchema } from './history';
import { confidence, count, epochMs, nonEmpty, requestId, sessionId, text } from './primitives';
import {
  PANEL_COMMANDS,
  PANEL_CYCLE_OUTCOMES,
  PANEL_PHASE_OUTCOMES,
  PANEL_SESSION_STATUSES,
  RECORDED_SESSION_STATUSES,
  SANDBOX_MODES,
  SETUP_ITEMS,
} from './vocabulary';
import { DANGER_LEVELS, PHASES, ROLES } from '../../core/vocabulary';

/** Totals shown in the session header (and the status bar). */
export const PanelSessionTotalsSchema = z.object({
  testsPassed: count,
  testsFailed: count,
  tokens: count,
  commits: count,
});

/** Tokens sent to (input) and written by (output) the model. */
export const TokenUsageSchema = z.object({ input: count, output: count });
/** A model's price in USD per million tokens (the `tddAgent.modelPrices` setting): the panel's cost is an estimate from it. */
export const ModelPriceSchema = z.object({ input: z.number().check(z.nonnegative()), output: z.number().check(z.nonnegative()) });

/** One language of the project: the command its tests run with in this session, or why this session leaves them out. */
export const ProjectLanguageSchema = z.object({
  /** As a person writes it: "JavaScript", "Python". */
  name: text,
  /** What runs it: the package manager or the virtual environment ("pnpm", "virtual environment .venv"), when known. */
  via: z.optional(text),
  /** The command that runs its tests in this session; absent when the session does not run them. */
  command: z.optional(text),
  /** Whose output the command prints ("node:test", "pytest"). */
  runner: z.optional(text),
  /** Why this session does not run its tests, in words (absent when it does). */
  notRun: z.optional(text),
});

/** The project the session works in, in words (from `project_profile`); the raw test file patterns kept for a disclosure. */
export const ProjectSummarySchema = z.object({
  /** Every language found: the session's first. */
  languages: z.array(ProjectLanguageSchema),
  /** Which files are tests and where new ones go, in words ("*.test.js files; new tests go in test/"). */
  tests: text,
  /** Where the code is ("src/"). */
  source: text,
  /** The globs that tell test files from the code, as the profile has them. */
  patterns: z.array(text),
  /** Where all this came from ("from package.json; test command from settings"). */
  origin: text,
  /** Tests the session leaves out, and why, in words (tests already failing before the session, set aside). */
  leftOut: z.array(text),
});

/** The session header: what runs, where, and how far it got. */
export const SessionHeaderSchema = z.object({
  kata: text,
  model: text,
  provider: text,
  /** The session branch (`tdd/<kata>-<timestamp>`), null before it exists. */
  branch: z.nullable(text),
  status: z.enum(PANEL_SESSION_STATUSES),
  /** Current cycle number (1-based; 0 before the first cycle starts). */
  cycle: count,
  maxCycles: count,
  /** Phase of the current cycle; null when no cycle is running. */
  phase: z.nullable(z.enum(PHASES)),
  totals: PanelSessionTotalsSchema,
  startedAt: z.optional(epochMs),
  finishedAt: z.optional(epochMs),
  /** The session's id in the repository's records (from `session_started`); matches an entry of `repository.sessions`. */
  sessionId: z.optional(sessionId),
  /** The branch the session started from (null: a detached HEAD or a new repository). */
  baseBranch: z.optional(z.nullable(text)),
  /** One line saying which OS sandbox confines the session's tests and commands (from `session_started`). */
  sandbox: z.optional(text),
  /** The `tddAgent.sandbox` setting the session was started with (`off`: nothing is confined). */
  sandboxMode: z.optional(z.enum(SANDBOX_MODES)),
  /** One line about the project the session works in (language, runner and command, tests, source; where from), from `project_profile`. */
  project: z.optional(text),
  /** The project in words: every language and its test command, which tests are left out and why (absent in older states). */
  projectSummary: z.optional(ProjectSummarySchema),
  /** Input and output tokens of this run (a resumed session's earlier tokens are only in `totals.tokens`). */
  usage: z.optional(TokenUsageSchema),
  /** The model's price when `tddAgent.modelPrices` knows it (absent: tokens only, no cost). */
  price: z.optional(ModelPriceSchema),
  /**
   * The window was reloaded while the session ran: it stopped there (status `cancelled`) and can be resumed. The header
   * says "Interrupted", not a problem.
   */
  interrupted: z.optional(z.literal(true)),
});

/** Passed/failed test counts of one run. */
export const PanelTestCountsSchema = z.object({ passed: count, failed: count });

/** One role's phase within a cycle. */
export const PhaseSummarySchema = z.object({
  role: z.enum(ROLES),
  outcome: z.enum(PANEL_PHASE_OUTCOMES),
  attempts: count,
  duration_ms: count,
  /** Tokens the role's model calls used in this cycle. */
  usage: z.optional(TokenUsageSchema),
  /**
   * Why the role's last change was undone, said as a person reads it under the timeline ("Refactoring reverted: it
   * broke 1 test (returns Fizz for 3)"); absent when nothing of its was reverted, or a later attempt stood.
   */
  reverted: z.optional(text),
});

/** One red-green-refactor cycle in the timeline. */
export const PanelCycleSummarySchema = z.object({
  n: z.int().check(z.positive()),
  outcome: z.enum(PANEL_CYCLE_OUTCOMES),
  /** Full or short sha of the cycle's own (`feat:`) commit; null when nothing was committed. */
  commit: z.nullable(text),
  /** The Refactorer's commit of the cycle, when it made one (shown next to the `feat:` one). */
  refactorCommit: z.optional(text),
  /** The behaviour the cycle added (commit subject or the tester's report), if known. */
  title: z.optional(text),
  /**
   * While the cycle runs, its last run's counts; once it ended, those of the state it ended at (a failed cycle's tree
   * was rolled back: the last commit's).
   */
  tests: PanelTestCountsSchema,
  /** A cycle whose tree was rolled back: the counts its attempt had reached (its red run), no longer in the branch. */
  rolledBackTests: z.optional(PanelTestCountsSchema),
  phases: z.array(PhaseSummarySchema),
  /** Tokens the cycle's model calls used (all roles). */
  usage: z.optional(TokenUsageSchema),
});
/** A unified diff of a file write, shown on the approval card. */
export const DiffPreviewSchema = z.object({ kind: z.literal('diff'), path: text, diff: text });
/** The command line a shell tool would run, shown on the approval card. */
export const CommandPreviewSchema = z.object({ kind: z.literal('command'), commandLine: text });
/** Method and URL of an HTTP request tool call. */
export const RequestPreviewSchema = z.object({ kind: z.literal('request'), method: text, url: text, hasBody: z.boolean() });
/** Free text (MCP and custom tools). */
export const TextPreviewSchema = z.object({ kind: z.literal('text'), text });
/**
 * What an approval card previews (absent: only the parameters). The same kinds as the core control
 * protocol's `toolCallPreviewSchema`, so the host passes a preview through unchanged (a unit test
 * keeps them compatible; the core schema itself is not imported because it pulls zod classic into
 * the browser bundle).
 */
export const ApprovalPreviewSchema = z.discriminatedUnion('kind', [
  DiffPreviewSchema,
  CommandPreviewSchema,
  RequestPreviewSchema,
  TextPreviewSchema,
]);

/** A tool call waiting for a person's decision; denied automatically at `expiresAt`. */
export const PendingApprovalSchema = z.object({
  requestId,
  tool: text,
  dangerLevel: z.enum(DANGER_LEVELS),
  params: z.unknown(),
  preview: z.optional(ApprovalPreviewSchema),
  /** Epoch ms after which the executor denies the call (fail closed); the core's ISO `expiresAt` through `Date.parse`. */
  expiresAt: epochMs,
  /** Why approval is needed (policy, escalation reason). */
  reason: z.optional(text),
  /** Who asks: a TDD role or an agent name (the request's `requestedBy`). */
  role: z.optional(text),
  /** The model's tool-call id the request is for: its history entry gets the same id once it ran. */
  callId: z.optional(text),
});

/** A QA agent's answer about selected code. */
export const QaAnswerSchema = z.object({
  kind: z.literal('qa'),
  id: nonEmpty,
  question: text,
  answer: text,
  confidence,
  reasoning: text,
  /** Where the selection came from, e.g. `src/fizz.js:3-9`. */
  source: z.optional(text),
  at: z.optional(epochMs),
  /** The id of the answer this one follows up (a question asked in the panel). */
  followUpOf: z.optional(text),
});

/** A chain-of-thought agent's step-by-step explanation. */
export const CotAnswerSchema = z.object({
  kind: z.literal('cot'),
  id: nonEmpty,
  problem: text,
  steps: z.array(text),
  final_answer: text,
  confidence,
  source: z.optional(text),
  at: z.optional(epochMs),
  /** The id of the answer this one follows up. */
  followUpOf: z.optional(text),
});

/** A QA or CoT answer. */
export const AnswerSchema = z.discriminatedUnion('kind', [QaAnswerSchema, CotAnswerSchema]);

/** A question the QA or CoT agent is still answering: shown at once, with what has streamed so far and Cancel. */
export const PendingQuestionSchema = z.object({
  /** The id its answer will have. */
  id: nonEmpty,
  kind: z.enum(['qa', 'cot']),
  question: text,
  source: z.optional(text),
  at: z.optional(epochMs),
  followUpOf: z.optional(text),
  /** The answer as it streams in (Markdown); empty until the model's first words. */
  partial: text,
  /**
   * Set when answering failed: the card stays where the question was, says why in plain words and offers Retry
   * (absent: still being answered).
   */
  failed: z.optional(
    z.object({
      error_code: text,
      /** What happened, e.g. "The model's explanation could not be read". */
      title: text,
      /** The facts, in a person's words. */
      message: text,
      /** What to do besides Retry, if anything. */
      action: z.optional(text),
      /** Buttons that fix it (the host runs the command). */
      fixes: z.optional(z.array(z.enum(PANEL_COMMANDS))),
    }),
  ),
});

/** An error as a person sees it: stable code, what happened, and what to do about it. */
export const PanelErrorSchema = z.object({
  id: nonEmpty,
  error_code: text,
  message: text,
  /** What to do next, e.g. "Run 'TDD Agent: Set API key'". */
  action: z.optional(text),
  /** Buttons that fix it (the host runs the command). */
  fixes: z.optional(z.array(z.enum(PANEL_COMMANDS))),
  at: z.optional(epochMs),
});

/** One thing missing before a session can start, shown on the first-run card with the buttons that fix it. */
export const SetupProblemSchema = z.object({
  item: z.enum(SETUP_ITEMS),
  /** What is missing, in a few words ("No model is configured"). */
  title: text,
  /** Why, and what each button does. */
  detail: text,
  fixes: z.array(z.enum(PANEL_COMMANDS)),
});

/** The outcome of a person's action on a session (merged, deleted, not merged and why), shown in the panel. */
export const PanelNoticeSchema = z.object({
  id: nonEmpty,
  level: z.enum(['info', 'warning']),
  text,
  at: z.optional(epochMs),
});

/** One recorded session of the workspace's repository (`<common git dir>/tdd-agent/sessions/<id>.json`). */
export const RecordedSessionSchema = z.object({
  id: sessionId,
  /** The kata's title. */
  kata: text,
  status: z.enum(RECORDED_SESSION_STATUSES),
  /** The session branch (`tdd/<kata>-<timestamp>`). */
  branch: text,
  /** The branch the session started from (null: detached HEAD or a new repository). */
  baseBranch: z.nullable(text),
  /** Finished cycles. */
  cycles: count,
  /** Commits on the session branch since it started (0 when the branch is gone). */
  commits: count,
  /** True when the branch's commits are already in the person's current branch. */
  merged: z.boolean(),
  /** True when it can be continued (interrupted, cancelled or failed, worktree kept, not running). */
  resumable: z.boolean(),
  /** Last change of its record. */
  updatedAt: z.optional(epochMs),
  /** Which OS sandbox confined it (`none`: turned off). */
  sandbox: z.optional(text),
});

/** The workspace's repository as far as sessions are concerned: where a merge goes, whether it can now, and its sessions. */
export const RepositorySessionsSchema = z.object({
  /** The person's checked-out branch ("Merge into <branch>"); null when HEAD is detached. */
  branch: z.nullable(text),
  /** Why the checkout cannot take a merge now (uncommitted changes, a merge in progress, detached HEAD); absent when it can. */
  mergeBlocker: z.optional(text),
  /** Newest first. */
  sessions: z.array(RecordedSessionSchema),
});

/** The whole panel view model. The host sends it on every change; the panel keeps no other truth. */
export const PanelStateSchema = z.object({
  /** Identifies the host-side state owner; revisions are only comparable within one instance. */
  instanceId: z.string().check(z.minLength(1), z.maxLength(100)),
  /** Increases by one on every change within an instance; the panel drops older snapshots. */
  revision: count,
  /** False in an untrusted workspace: kata runs are disabled and the panel says why. */
  trusted: z.boolean(),
  /** Null before any kata was run in this window. */
  session: z.nullable(SessionHeaderSchema),
  cycles: z.array(PanelCycleSummarySchema),
  actions: z.array(PanelActionRecordSchema),
  approvals: z.array(PendingApprovalSchema),
  /** Newest last. */
  answers: z.array(AnswerSchema),
  /** Questions being answered now, oldest first (absent: none). */
  questions: z.optional(z.array(PendingQuestionSchema)),
  /** A role's questions to the person waiting for an answer (`ask_person`; absent: none). */
  personQuestions: z.optional(z.array(PendingPersonQuestionSchema)),
  errors: z.array(PanelErrorSchema),
  /** The repository's recorded sessions; null outside a git repository, in Restricted Mode, or before the host looked. */
  repository: z._default(z.nullable(RepositorySessionsSchema), null),
  /** What a session still needs (the first-run card); empty when everything is in place or not known yet. */
  setup: z._default(z.array(SetupProblemSchema), []),
  /** The last session action's outcome (merge, delete); null when there is none to show. */
  notice: z._default(z.nullable(PanelNoticeSchema), null),
});

/** A role's or a session's tokens, as the panel estimates the cost from them with a {@link ModelPrice}. */
export type TokenUsageCounts = z.infer<typeof TokenUsageSchema>;
/** A model's price per million tokens. */
export type ModelPrice = z.infer<typeof ModelPriceSchema>;
/** The header's and the status bar's figures: the last test run's counts (a run from the Testing view's too), tokens and commits. */
export type PanelSessionTotals = z.infer<typeof PanelSessionTotalsSchema>;
/** The session header. */
export type SessionHeader = z.infer<typeof SessionHeaderSchema>;
/** One language of the project, as the header says it. */
export type ProjectLanguageSummary = z.infer<typeof ProjectLanguageSchema>;
/** The project in words. */
export type ProjectSummary = z.infer<typeof ProjectSummarySchema>;
/** A test run's counts, as a cycle of the timeline shows them (its last run, or the run it was rolled back from). */
export type PanelTestCounts = z.infer<typeof PanelTestCountsSchema>;
/** One role's phase in a cycle. */
export type PhaseSummary = z.infer<typeof PhaseSummarySchema>;
/** One cycle in the timeline. */
export type PanelCycleSummary = z.infer<typeof PanelCycleSummarySchema>;
/** Diff or command preview of an approval card. */
export type ApprovalPreview = z.infer<typeof ApprovalPreviewSchema>;
/** A pending approval request. */
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;
/** A QA answer. */
export type QaAnswer = z.infer<typeof QaAnswerSchema>;
/** A CoT answer. */
export type CotAnswer = z.infer<typeof CotAnswerSchema>;
/** A QA or CoT answer. */
export type Answer = z.infer<typeof AnswerSchema>;
/** A question being answered. */
export type PendingQuestion = z.infer<typeof PendingQuestionSchema>;
/** An error card. */
export type PanelError = z.infer<typeof PanelErrorSchema>;
/** One recorded session of the repository. */
export type RecordedSession = z.infer<typeof RecordedSessionSchema>;
/** One thing missing on the first-run card. */
export type SetupProblem = z.infer<typeof SetupProblemSchema>;
/** The outcome of a session action. */
export type PanelNotice = z.infer<typeof PanelNoticeSchema>;
/** The repository's sessions, merge target and merge blocker. */
export type RepositorySessions = z.infer<typeof RepositorySessionsSchema>;
/** The whole panel view model. */
export type PanelState = z.infer<typeof PanelStateSchema>;

/** The estimated cost in USD of `usage` at `price` (USD per million tokens). */
export function estimatedCost(usage: TokenUsageCounts, price: ModelPrice): number {
  return (usage.input * price.input + usage.output * price.output) / 1_000_000;
}

/** A fresh state with nothing to show yet (the host's starting point). */
export function emptyPanelState(options: { instanceId: string; trusted: boolean }): PanelState {
  return {
    instanceId: options.instanceId,
    revision: 0,
    trusted: options.trusted,
    session: null,
    cycles: [],
    actions: [],
    approvals: [],
    answers: [],
    errors: [],
    repository: null,
    setup: [],
    notice: null,
  };
}

/**
 * True when `next` should replace `current`: always across instances (the host restarted), and within
 * one instance only when it is not older. An equal revision is accepted (resent after `ready`).
 */
export function isNewerSnapshot(current: PanelState | undefined, next: PanelState): boolean {
  if (!current || current.instanceId !== next.instanceId) return true;
  return next.revision >= current.revision;
}
