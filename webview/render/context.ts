/** What the renderers need besides the snapshot: the clock and the panel's own optimistic answers. */
import type { ApprovalDecision } from '../../src/shared/panelProtocol';

/** What the panel already sent for a role's question: an answer, or "Let the agent decide". */
export type PersonQuestionSent = 'answered' | 'declined';

/** What the action history shows: everything, only failures, or only the calls a person (or the clock) decided. */
export const HISTORY_FILTERS = ['all', 'failures', 'approvals'] as const;
/** One history filter. */
export type HistoryFilter = (typeof HISTORY_FILTERS)[number];

/** Inputs shared by all section renderers. */
export interface RenderContext {
  /** Epoch ms used for countdowns. */
  now: number;
  /** Approval requests this panel already answered (greyed until the host drops them). */
  answered: ReadonlyMap<string, ApprovalDecision>;
  /** What the action history shows (the person's choice, kept by the panel). */
  historyFilter?: HistoryFilter;
  /** Roles' questions this panel already answered or left to the agent (greyed until the host drops them). */
  personQuestionsSent?: ReadonlyMap<string, PersonQuestionSent>;
}

/** Data attributes the click handler dispatches on (one place, so renderers and main.ts agree). */
export const ACTION_ATTR = {
  action: 'data-action',
  requestId: 'data-request-id',
  decision: 'data-decision',
  command: 'data-command',
  /** A session button's action (`review`, `merge`, `delete`, `resume`) and the session it acts on. */
  sessionAction: 'data-session-action',
  sessionId: 'data-session-id',
  /** A commit hash to open (with `sessionId`). */
  sha: 'data-sha',
  /** A workspace file to open, and the 1-based line to open it at. */
  path: 'data-path',
  line: 'data-line',
  /** Present on a file link to a file of the panel's session (not of the workspace). */
  sessionFile: 'data-session-file',
  /** The history entry (or approval request) whose full test output or diff to open; the question to cancel. */
  entryId: 'data-entry-id',
  /** The history filter a filter button selects. */
  filter: 'data-filter',
  /** The answer a follow-up form asks about. */
  answerId: 'data-answer-for',
  /** Stable key to restore focus and the open state of <details> across re-renders. */
  key: 'data-key',
} as const;

/** Values of the `data-action` attribute. */
export const ACTIONS = {
  approval: 'approval',
  command: 'command',
  session: 'session',
  commit: 'commit',
  file: 'file',
  testOutput: 'testOutput',
  diff: 'diff',
  /** Cancel a question being answered (its id in `entryId`). */
  cancelQuestion: 'cancelQuestion',
  /** Show only some of the history (the filter in `filter`). */
  historyFilter: 'historyFilter',
} as const;
