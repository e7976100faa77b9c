/**
 * What the extension host offers the panel's messages: each message's handler (see `definePanelMessage`) asks the
 * host for one of these. The host implements it in `src/vscode/panel/panelHost.ts`; tests use a fake. No `vscode`
 * here: the message files are bundled into the panel too (they hold its builders).
 */
import type { ApprovalDecision, PanelCommandName, PanelLogLevel, SessionActionName } from '../protocol/vocabulary';

/** The extension's output channel, as far as the panel's messages use it. */
export type PanelHostLog = Record<PanelLogLevel, (message: string) => void> & {
  /** Reveals the channel (the "TDD Agent" output). */
  show(): void;
};

/** The host's side of the panel's messages. A method may return a promise; a rejection is logged. */
export interface PanelHost {
  readonly log: PanelHostLog;
  /** The panel (re)loaded: send it the state, and read again what may have changed meanwhile. */
  panelReady(): unknown;
  /** Runs one of the panel's commands (toolbar, fix buttons). */
  runCommand(name: PanelCommandName): unknown;
  /** A person's decision on approval request `requestId`. */
  answerApproval(requestId: string, decision: ApprovalDecision): unknown;
  /** A person's answer to a role's question, or "Let the agent decide". */
  answerPersonQuestion(id: string, answer: { text: string } | { declined: true }): unknown;
  /** Review, merge, delete or resume a recorded session (the host checks and confirms). */
  sessionAction(action: SessionActionName, sessionId: string): unknown;
  /** Opens one commit's changes of a recorded session. */
  openCommit(sessionId: string, sha: string): unknown;
  /** Opens a file of the workspace folder (at 1-based `line`). */
  openWorkspaceFile(path: string, line?: number): unknown;
  /** Opens a file of the panel's session (its worktree while it runs, its branch afterwards). */
  openSessionFile(path: string, line?: number): unknown;
  /** Opens the diff editor for the file change of an approval card or history entry. */
  openDiff(id: string): unknown;
  /** Opens the full output of a test run of the history. */
  openTestOutput(id: string): unknown;
  /** Asks the QA / CoT agent a follow-up question to answer `answerId`. */
  askFollowUp(answerId: string, question: string): unknown;
  /** Stops answering pending question `id`, or takes away its card when answering it failed. */
  cancelQuestion(id: string): unknown;
  /** Asks failed question `id` again (its card's Retry). */
  retryQuestion(id: string): unknown;
}
