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

/** The attribute with an element's stable key: focus, typed text and the open state of <details> survive re-renders by it. */
export const KEY_ATTR = 'data-key';
