/**
 * The one definition of every message between the extension host and the agent panel (webview).
 *
 * State-snapshot protocol: the host owns a {@link PanelState} view model and sends it whole
 * (`{ type: 'state', state }`) on every change and whenever the panel says `{ type: 'ready' }`.
 * The panel renders only from the snapshot and persists it with `vscode.setState`, so it restores
 * instantly when hidden, shown or reloaded. The panel answers with {@link PanelMessage}s.
 *
 * Both sides validate what they receive with {@link parseHostMessage} / {@link parsePanelMessage};
 * an invalid or unknown message is dropped (and logged by the caller), never acted on.
 *
 * Bundled for the browser as well as the host: no `vscode`, no node-only imports. Schemas use
 * `zod/mini` (the tree-shakable build of zod 4): the panel bundle stays ~40 KB instead of ~470 KB;
 * the schemas are ordinary zod 4 schemas for the host.
 * Field names mirror the core shape they come from (`duration_ms` as in the CLI's `--json`,
 * `final_answer` as in the CoT agent's output, `error_code` as in `AgentError`, `durationMs` as in
 * `ToolCallResult`).
 */
import * as z from 'zod/mini';
import {
  APPROVAL_DECISIONS,
  APPROVAL_OUTCOMES,
  DANGER_LEVELS,
  PHASES,
  ROLES,
  SESSION_STATUSES,
  type ApprovalDecision,
} from '../core/vocabulary';
import {
  PendingPersonQuestionSchema,
  PERSON_QUESTION_MESSAGE,
  PersonQuestionAnswerMessageSchema,
  PersonQuestionDeclineMessageSchema,
} from './personQuestionProtocol';

// ---------------------------------------------------------------------------------------------
// Vocabularies (one list each; the UI and the host switch on these, never on loose literals). The words the core
// shares (danger levels, approval outcomes and decisions, roles, phases, session statuses) are declared once, in
// the import-free src/core/vocabulary; the panel's own words are here.
// ---------------------------------------------------------------------------------------------

export { APPROVAL_DECISIONS, type ApprovalDecision } from '../core/vocabulary';

/** Lifecycle of a kata session: `idle` before any run, then `running`, then one of the CLI's final statuses. */
export const PANEL_SESSION_STATUSES = ['idle', ...SESSION_STATUSES] as const;
/** The status shown in the session header. */
export type PanelSessionStatus = (typeof PANEL_SESSION_STATUSES)[number];

/**
 * How one role's phase ended. `passed` means the role's goal was verified by the supervisor
 * (tester: a new failing test; implementer: all green; refactorer: still green and committed).
 * `skipped`: the refactorer made no change or gave up (non-fatal); `reverted`: its changes were undone.
 */
export const PANEL_PHASE_OUTCOMES = ['pending', 'running', 'passed', 'failed', 'skipped', 'reverted', 'cancelled'] as const;
/** Outcome of one phase of a cycle. */
export type PanelPhaseOutcome = (typeof PANEL_PHASE_OUTCOMES)[number];

/** How a cycle ended: `passed` = green and committed; `complete` = the Tester found nothing left to test (the kata is done). */
export const PANEL_CYCLE_OUTCOMES = ['running', 'passed', 'complete', 'failed', 'cancelled'] as const;
/** Outcome of one red-green-refactor cycle. */
export type PanelCycleOutcome = (typeof PANEL_CYCLE_OUTCOMES)[number];

/**
 * Commands the panel may ask the host to run: the toolbar's, and the fixes offered on the first-run card and on
 * error cards (choose a provider or base URL, pick one of the served models, the sandbox's fix or setting, trust).
 */
export const PANEL_COMMANDS = [
  'runKata',
  'stopKata',
  'openSettings',
  'setApiKey',
  'chooseProvider',
  'pickModel',
  'showSandboxFix',
  'openSandboxSetting',
  'manageTrust',
] as const;
/** A command name the panel can send. */
export type PanelCommandName = (typeof PANEL_COMMANDS)[number];

/** The label of each command's button (the e2e specs find the buttons by them). */
export const PANEL_COMMAND_LABELS: Readonly<Record<PanelCommandName, string>> = {
  runKata: 'Run TDD kata',
  stopKata: 'Stop kata',
  openSettings: 'Open settings',
  setApiKey: 'Set API key',
  chooseProvider: 'Choose provider or base URL',
  pickModel: 'Pick a model',
  showSandboxFix: 'Show the fix',
  openSandboxSetting: 'Open sandbox setting',
  manageTrust: 'Manage Workspace Trust',
};

/** What the first-run card can say is missing: a model to talk to, an OS sandbox to run the agents' code in. */
export const SETUP_ITEMS = ['model', 'sandbox'] as const;
/** One thing a session needs before it can start. */
export type SetupItem = (typeof SETUP_ITEMS)[number];

/**
 * What a person can do with a recorded session of the repository from the panel: review its changes in
 * VS Code's diff views, merge its branch into their current branch, delete it (worktree, record and
 * branch, after a confirmation), or resume it.
 */
export const SESSION_ACTIONS = ['review', 'merge', 'delete', 'resume'] as const;
/** One session action. */
export type SessionActionName = (typeof SESSION_ACTIONS)[number];

/**
 * How a recorded session stands: `running` (its process is alive, here or in another window),
 * `interrupted` (its record says running but its process is gone, e.g. the window was reloaded),
 * or the status it ended with.
 */
export const RECORDED_SESSION_STATUSES = ['running', 'interrupted', 'completed', 'max_cycles', 'failed', 'cancelled'] as const;
/** The status of a recorded session. */
export type RecordedSessionStatus = (typeof RECORDED_SESSION_STATUSES)[number];

/** The `tddAgent.sandbox` setting's values: `auto` confines every process a session runs; `off` runs them unconfined. */
export const SANDBOX_MODES = ['auto', 'off'] as const;
/** One sandbox mode. */
export type PanelSandboxMode = (typeof SANDBOX_MODES)[number];

/** Levels of a `log` message from the panel. */
export const PANEL_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** Level of a panel log line. */
export type PanelLogLevel = (typeof PANEL_LOG_LEVELS)[number];

/** Message `type`s sent by the host to the panel. */
export const HOST_MESSAGE = { state: 'state' } as const;
/** Message `type`s sent by the panel to the host. */
export const PANEL_MESSAGE = {
  ready: 'ready',
  approvalResponse: 'approvalResponse',
  command: 'command',
  sessionAction: 'sessionAction',
  openCommit: 'openCommit',
  openFile: 'openFile',
  openTestOutput: 'openTestOutput',
  openDiff: 'openDiff',
  followUp: 'followUp',
  cancelQuestion: 'cancelQuestion',
  log: 'log',
  ...PERSON_QUESTION_MESSAGE,
} as const;

// ---------------------------------------------------------------------------------------------
// PanelState: the view model, sent whole
// ---------------------------------------------------------------------------------------------

const count = z.int().check(z.nonnegative());
const epochMs = z.number().check(z.nonnegative());
const text = z.string();
const nonEmpty = z.string().check(z.minLength(1));
const requestId = z.string().check(z.minLength(1), z.maxLength(200));
const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
/** A session id as the core makes them (`<kata>-<YYYYMMDD-HHMMSS>`): no path separators, no leading dot or dash. */
const sessionId = z.string().check(z.regex(SESSION_ID_PATTERN));

/** True for a string the protocol accepts as a session id (the host drops anything else rather than send an invalid snapshot). */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID_PATTERN.test(value);
}
/** Longest `log` message the host accepts from the panel. */
export const LOG_MESSAGE_LIMIT = 4000;
const confidence = z.number().check(z.gte(0), z.lte(1));

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
  /** Input and output tokens of this run (a resumed session's earlier tokens are only in `totals.tokens`). */
  usage: z.optional(TokenUsageSchema),
  /** The model's price when `tddAgent.modelPrices` knows it (absent: tokens only, no cost). */
  price: z.optional(ModelPriceSchema),
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
  tests: PanelTestCountsSchema,
  phases: z.array(PhaseSummarySchema),
  /** Tokens the cycle's model calls used (all roles). */
  usage: z.optional(TokenUsageSchema),
});

/** One tool call in the action history. */
export const PanelActionRecordSchema = z.object({
  id: nonEmpty,
  /** Who called it: a TDD role, or another agent's name (e.g. `qa/v1`). */
  role: text,
  tool: text,
  /** The call's parameters as JSON (host truncates large values). */
  params: z.unknown(),
  /** Short, redacted summary of the result shown when expanded. */
  resultSummary: text,
  ok: z.boolean(),
  approval: z.enum(APPROVAL_OUTCOMES),
  durationMs: count,
  cycle: z.optional(z.int().check(z.positive())),
  at: z.optional(epochMs),
  /** A supervisor's test run: its result, and whether the host holds its full output ("Open full output"). */
  testRun: z.optional(
    z.object({
      status: text,
      passed: count,
      failed: count,
      /** True when the red is what the role should leave (the Tester's new failing test). */
      expectedRed: z.boolean(),
      hasOutput: z.boolean(),
    }),
  ),
  /** A `write_file` / `edit_file` call's change: the worktree-relative path and a compact unified diff ("Open diff" shows all of it). */
  fileChange: z.optional(z.object({ path: text, diff: text })),
  /** A role's own words (`tool` is `message`): its text of one model call, Markdown; `final` for its report; `streaming` while it arrives. */
  message: z.optional(z.object({ text, final: z.boolean(), streaming: z.boolean() })),
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

/** Input/output tokens. */
export type TokenUsageCounts = z.infer<typeof TokenUsageSchema>;
/** A model's price per million tokens. */
export type ModelPrice = z.infer<typeof ModelPriceSchema>;
/** Session totals. */
export type PanelSessionTotals = z.infer<typeof PanelSessionTotalsSchema>;
/** The session header. */
export type SessionHeader = z.infer<typeof SessionHeaderSchema>;
/** Passed/failed counts. */
export type PanelTestCounts = z.infer<typeof PanelTestCountsSchema>;
/** One role's phase in a cycle. */
export type PhaseSummary = z.infer<typeof PhaseSummarySchema>;
/** One cycle in the timeline. */
export type PanelCycleSummary = z.infer<typeof PanelCycleSummarySchema>;
/** One tool call in the action history. */
export type PanelActionRecord = z.infer<typeof PanelActionRecordSchema>;
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

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/** Host → panel: the whole view model. */
export const StateMessageSchema = z.object({ type: z.literal(HOST_MESSAGE.state), state: PanelStateSchema });

/** Every message the host may send to the panel. */
export const HostMessageSchema = z.discriminatedUnion('type', [StateMessageSchema]);

// Panel messages are strict objects: the webview renders model output, so it is treated as untrusted.
/** Panel → host: the panel has loaded and wants the current state. */
export const ReadyMessageSchema = z.strictObject({ type: z.literal(PANEL_MESSAGE.ready) });
/** Panel → host: a person's decision on a pending approval, correlated by `requestId`. */
export const ApprovalResponseMessageSchema = z.strictObject({
  type: z.literal(PANEL_MESSAGE.approvalResponse),
  requestId,
  decision: z.enum(APPROVAL_DECISIONS),
});
/** Panel → host: run one of the extension's commands. */
export const CommandMessageSchema = z.strictObject({
  type: z.literal(PANEL_MESSAGE.command),
  name: z.enum(PANEL_COMMANDS),
});
/** Panel → host: a person asked to review, merge, delete or resume a recorded session (the host checks and confirms). */
export const SessionActionMessageSchema = z.strictObject({
  type: z.literal(PANEL_MESSAGE.sessionAction),
  action: z.enum(SESSION_ACTIONS),
  sessionId,
});
/** Panel → host: open one commit's changes (a hash in the cycle list) of a recorded session in VS Code's diff views. */
export const OpenCommitMessageSchema = z.strictObject({
  type: z.literal(PANEL_MESSAGE.openCommit),
  sessionId,
  sha: z.string().check(z.regex(/^[0-9a-f]{7,64}$/)),
});
/**
 * Panel → host: open a file (a file label in the panel), at `line` (1-based) when given. Without
 * `session` the path is in the workspace folder (an answer's source); with `session: true` it is a file
 * of the panel's session (its worktree while it runs, its branch read-only afterwards). The host keeps
 * it inside that folder.
 */
export const OpenFileMessageSchema = z.strictObject({
  type: z.literal(PANEL_MESSAGE.openFile),
  path: z.string().check(z.minLength(1), z.maxLength(1000)),
  line: z.optional(z.int().check(z.positive())),
  session: z.optional(z.boolean()),
});
/** Panel → host: open the full runner output of a test run of the action history (by its record id) in an editor. */
export const OpenTestOutputMessageSchema = z.strictObject({ type: z.literal(PANEL_MESSAGE.openTestOutput), id: requestId });
/** Panel → host: open VS Code's diff editor for the file change of an approval card or a history entry (by its request or entry id). */
export const OpenDiffMessageSchema = z.strictObject({ type: z.literal(PANEL_MESSAGE.openDiff), id: requestId });
/** Longest follow-up question the host accepts from the panel. */
export const FOLLOW_UP_LIMIT = 2000;
/** Panel → host: a follow-up question to answer `answerId`, for the same agent with the previous question and answer as context. */
export const FollowUpMessageSchema = z.strictObject({
  type: z.literal(PANEL_MESSAGE.followUp),
  answerId: requestId,
  question: z.string().check(z.trim(), z.minLength(1), z.maxLength(FOLLOW_UP_LIMIT)),
});
/** Panel → host: stop answering pending question `id` (its Cancel button). */
export const CancelQuestionMessageSchema = z.strictObject({ type: z.literal(PANEL_MESSAGE.cancelQuestion), id: requestId });
/** Panel → host: a log line for the extension's output channel (e.g. a render failure). */
export const LogMessageSchema = z.strictObject({
  type: z.literal(PANEL_MESSAGE.log),
  level: z.enum(PANEL_LOG_LEVELS),
  message: z.string().check(z.maxLength(LOG_MESSAGE_LIMIT)),
});

/** Every message the panel may send to the host. */
export const PanelMessageSchema = z.discriminatedUnion('type', [
  ReadyMessageSchema,
  ApprovalResponseMessageSchema,
  CommandMessageSchema,
  SessionActionMessageSchema,
  OpenCommitMessageSchema,
  OpenFileMessageSchema,
  OpenTestOutputMessageSchema,
  OpenDiffMessageSchema,
  FollowUpMessageSchema,
  CancelQuestionMessageSchema,
  LogMessageSchema,
  PersonQuestionAnswerMessageSchema,
  PersonQuestionDeclineMessageSchema,
]);

/** Host → panel state snapshot. */
export type StateMessage = z.infer<typeof StateMessageSchema>;
/** Any host → panel message. */
export type HostMessage = z.infer<typeof HostMessageSchema>;
/** Panel → host ready. */
export type ReadyMessage = z.infer<typeof ReadyMessageSchema>;
/** Panel → host approval decision. */
export type ApprovalResponseMessage = z.infer<typeof ApprovalResponseMessageSchema>;
/** Panel → host command request. */
export type CommandMessage = z.infer<typeof CommandMessageSchema>;
/** Panel → host session action. */
export type SessionActionMessage = z.infer<typeof SessionActionMessageSchema>;
/** Panel → host: open a commit's changes. */
export type OpenCommitMessage = z.infer<typeof OpenCommitMessageSchema>;
/** Panel → host: open a workspace file. */
export type OpenFileMessage = z.infer<typeof OpenFileMessageSchema>;
/** Panel → host: open a test run's full output. */
export type OpenTestOutputMessage = z.infer<typeof OpenTestOutputMessageSchema>;
/** Panel → host: open a file change in the diff editor. */
export type OpenDiffMessage = z.infer<typeof OpenDiffMessageSchema>;
/** Panel → host: a follow-up question. */
export type FollowUpMessage = z.infer<typeof FollowUpMessageSchema>;
/** Panel → host: cancel a pending question. */
export type CancelQuestionMessage = z.infer<typeof CancelQuestionMessageSchema>;
/** Panel → host log line. */
export type LogMessage = z.infer<typeof LogMessageSchema>;
/** Any panel → host message. */
export type PanelMessage = z.infer<typeof PanelMessageSchema>;

/** Result of parsing an incoming message: the typed message, or undefined and a reason to log. */
export type ParsedMessage<M> = { message: M; reason?: undefined } | { message: undefined; reason: string };

/** Short, value-free description of why a message was rejected (safe to log). */
function describeIssues(error: z.core.$ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(message)';
    return `${path}: ${issue.message}`;
  });
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : '';
  return shown.join('; ') + more;
}

function parseWith<M>(schema: z.ZodMiniType<M>, value: unknown, direction: string): ParsedMessage<M> {
  const result = schema.safeParse(value);
  if (result.success) return { message: result.data };
  const type =
    typeof value === 'object' && value !== null && 'type' in value ? String((value as { type: unknown }).type).slice(0, 40) : '?';
  return { message: undefined, reason: `invalid ${direction} message (type ${type}): ${describeIssues(result.error)}` };
}

/** Validates a message received by the panel. Invalid or unknown messages give `{ message: undefined, reason }`. */
export function parseHostMessage(value: unknown): ParsedMessage<HostMessage> {
  return parseWith(HostMessageSchema, value, 'host→panel');
}

/** Validates a message received by the host. Invalid or unknown messages give `{ message: undefined, reason }`. */
export function parsePanelMessage(value: unknown): ParsedMessage<PanelMessage> {
  return parseWith(PanelMessageSchema, value, 'panel→host');
}

/** Validates a persisted or received state on its own (e.g. what `getState` returned). */
export function parsePanelState(value: unknown): PanelState | undefined {
  const result = PanelStateSchema.safeParse(value);
  return result.success ? result.data : undefined;
}

// Builders, so neither side writes message literals by hand.

/** Builds the host's state message. */
export function stateMessage(state: PanelState): StateMessage {
  return { type: HOST_MESSAGE.state, state };
}

/** Builds the panel's ready message. */
export function readyMessage(): ReadyMessage {
  return { type: PANEL_MESSAGE.ready };
}

/** Builds the panel's answer to an approval request. */
export function approvalResponseMessage(requestId: string, decision: ApprovalDecision): ApprovalResponseMessage {
  return { type: PANEL_MESSAGE.approvalResponse, requestId, decision };
}

/** Builds a command request from the panel. */
export function commandMessage(name: PanelCommandName): CommandMessage {
  return { type: PANEL_MESSAGE.command, name };
}

/** Builds a session action request from the panel. */
export function sessionActionMessage(action: SessionActionName, id: string): SessionActionMessage {
  return { type: PANEL_MESSAGE.sessionAction, action, sessionId: id };
}

/** Builds the panel's request to open commit `sha` of session `id`. */
export function openCommitMessage(id: string, sha: string): OpenCommitMessage {
  return { type: PANEL_MESSAGE.openCommit, sessionId: id, sha };
}

/** Builds the panel's request to open file `path` (at 1-based `line`) of the workspace, or of the panel's session when `session`. */
export function openFileMessage(path: string, line?: number, session?: boolean): OpenFileMessage {
  return { type: PANEL_MESSAGE.openFile, path, ...(line !== undefined ? { line } : {}), ...(session ? { session: true } : {}) };
}

/** Builds the panel's request to open the file change of approval card or history entry `id` in the diff editor. */
export function openDiffMessage(id: string): OpenDiffMessage {
  return { type: PANEL_MESSAGE.openDiff, id };
}

/**
 * The file and first line of a source label such as `src/fizz.js:3-9` (or `src/fizz.js:3`, or a bare
 * path); undefined for an empty label.
 */
export function parseSourceLabel(label: string): { path: string; line?: number } | undefined {
  const match = /^(.*?):(\d+)(?:-\d+)?$/.exec(label.trim());
  const path = (match ? match[1]! : label).trim();
  if (path === '') return undefined;
  const line = match ? Number(match[2]) : undefined;
  return line !== undefined && line > 0 ? { path, line } : { path };
}

/** Builds the panel's request to open the full output of test run `id`. */
export function openTestOutputMessage(id: string): OpenTestOutputMessage {
  return { type: PANEL_MESSAGE.openTestOutput, id };
}

/** Builds the panel's follow-up question to answer `answerId` (trimmed; the schema bounds it). */
export function followUpMessage(answerId: string, question: string): FollowUpMessage {
  return { type: PANEL_MESSAGE.followUp, answerId, question: question.trim() };
}

/** Builds the panel's request to stop answering pending question `id`. */
export function cancelQuestionMessage(id: string): CancelQuestionMessage {
  return { type: PANEL_MESSAGE.cancelQuestion, id };
}

/** Builds a log line from the panel (truncated to the schema's limit). */
export function logMessage(level: PanelLogLevel, message: string): LogMessage {
  return { type: PANEL_MESSAGE.log, level, message: message.slice(0, LOG_MESSAGE_LIMIT) };
}
