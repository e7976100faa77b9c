/**
 * The host's view model of the agent panel as a pure function: `reducePanel(state, action)` folds
 * supervisor events, control-protocol approval requests and answers, QA/CoT results and errors into
 * a new {@link PanelState}. Each fact has one route here: approvals only from the control protocol
 * (`approvalRequested` / `approvalClosed`, sent by the `PanelConversation`; the request says who asks and for which
 * call), tool calls only as the supervisor's `tool_called` events. No `vscode` import, no clock, no randomness:
 * every time and id comes in with the action, so the module is unit-tested on its own and replayable.
 *
 * By job: this file takes the actions and keeps the session's lifecycle; `reducer/supervisorEvents.ts` folds the
 * supervisor's events (header and cycles, with `reducer/cycles.ts`); `reducer/history.ts` makes the history's
 * entries; `reducer/cards.ts` keeps the approval, error and question cards.
 */
import { type ApprovalRequestMessage, redactSecrets } from '../../core';
import type { SupervisorEvent } from '../../core/tddApi';
import type {
  Answer,
  ModelPrice,
  PanelNotice,
  PanelState,
  PanelSandboxMode,
  PendingQuestion,
  RepositorySessions,
  SessionHeader,
  SetupProblem,
} from '../../shared/panelProtocol';
import { isSessionId } from '../../shared/panelProtocol';
import type { PendingPersonQuestion } from '../../shared/personQuestionProtocol';
import { addPersonQuestion, removePersonQuestion } from './personQuestionCards';
import {
  addApproval,
  addError,
  fromControlRequest,
  MAX_ANSWERS,
  removeApproval,
  withoutFixedErrors,
  withoutQuestion,
} from './reducer/cards';
import { closeRunningCycles, NO_TOTALS, withSession } from './reducer/cycles';
import { clip, MAX_MESSAGE_CHARS, withFileChange } from './reducer/history';
import { applyEvent } from './reducer/supervisorEvents';

export {
  boundedParams,
  failureLines,
  MAX_ACTIONS,
  MAX_MESSAGE_CHARS,
  MAX_PARAMS_CHARS,
  MAX_SUMMARY_CHARS,
  MAX_TEST_EXCERPT_CHARS,
  testRunId,
} from './reducer/history';
export { fromControlRequest, MAX_ANSWERS, MAX_ERRORS } from './reducer/cards';
export { cycleOutcome, phaseOutcome } from './reducer/cycles';
export { MAX_PROJECT_CHARS } from './reducer/supervisorEvents';

/** Everything that changes the panel. `at` is the host's clock (epoch ms) when it happened. */
export type PanelAction =
  /** An event from the running supervisor. */
  | { type: 'supervisor'; event: SupervisorEvent; at: number }
  /**
   * A kata run was started from a command; shown before the supervisor's `session_started` (provider
   * resolution, git checks). `resume` with the `sessionId` being resumed keeps the timeline when the panel
   * shows that same session.
   */
  | {
      type: 'sessionStarting';
      kata: string;
      model: string;
      provider: string;
      maxCycles: number;
      at: number;
      resume?: boolean;
      sessionId?: string;
      sandboxMode?: PanelSandboxMode;
    }
  /** The control protocol asks a person to approve a tool call (the request says who asks and for which call). */
  | { type: 'approvalRequested'; request: ApprovalRequestMessage }
  /** A request was answered, withdrawn (timeout, cancellation) or the channel closed: the card goes away. */
  | { type: 'approvalClosed'; requestId: string }
  /** A role asks the person a question (`ask_person`, through the `PanelConversation`): a question card. */
  | { type: 'personQuestionAsked'; question: PendingPersonQuestion }
  /** A role's question was answered, declined, withdrawn or the channel closed: its card goes away. */
  | { type: 'personQuestionClosed'; id: string }
  /** A QA or CoT answer (it replaces its pending question). */
  | { type: 'answer'; answer: Answer }
  /**
   * An error a person should see, with what to do next: `action` overrides the code's own line (the sandbox's
   * diagnosis says its fix); `details` picks the buttons (a model the server does not serve: the model picker).
   */
  | {
      type: 'error';
      error: { error_code: string; message: string; details?: Record<string, unknown> };
      at: number;
      action?: string;
    }
  /** What a session still needs (the first-run card): recomputed when settings, the API key or the sandbox change. */
  | { type: 'setup'; problems: SetupProblem[] }
  /** The outcome of a session action (merge, delete) shown in the panel; null takes it away. */
  | { type: 'notice'; notice: Omit<PanelNotice, 'id'> | null }
  /** A session's record was deleted: the panel stops showing it (header, timeline, history). */
  | { type: 'sessionDeleted'; sessionId: string }
  /** The person ran the session's tests from the Testing view: the header and status bar show that run. */
  | { type: 'testingRun'; tests: { passed: number; failed: number } }
  /** A question to the QA or CoT agent was asked / streamed more of its answer / ended without one (cancelled, failed). */
  | { type: 'questionAsked'; question: PendingQuestion }
  | { type: 'questionStreamed'; id: string; partial: string }
  | { type: 'questionEnded'; id: string }
  /** Answering it failed: its card stays where it was, says why and offers Retry. */
  | { type: 'questionFailed'; id: string; failed: NonNullable<PendingQuestion['failed']> }
  /** Workspace trust changed. */
  | { type: 'trust'; trusted: boolean }
  /** The session ended outside the supervisor's own events (e.g. it threw before `session_started`). */
  | { type: 'sessionAborted'; status: 'failed' | 'cancelled'; at: number }
  /** The price of the session's model (`tddAgent.modelPrices`), or null when it is not known: tokens only. */
  | { type: 'modelPrice'; price: ModelPrice | null }
  /** The repository's recorded sessions were read again (null: no repository, or not to be read). */
  | { type: 'repository'; repository: RepositorySessions | null }
  /** The host read the change a `write_file` / `edit_file` call of the history (entry `id`) made: its compact diff. */
  | { type: 'fileChange'; id: string; path: string; diff: string };

/** What a reloaded window said, as an error card, of the session running in the window that was gone (before issue 36). */
export const RELOADED_WHILE_RUNNING = 'The window was reloaded while the kata was running; the session stopped.';

/** Record statuses that say a session ended on its own (not stopped): they win over a reload's "cancelled". */
const ENDED_ON_ITS_OWN: ReadonlySet<string> = new Set(['completed', 'incomplete', 'max_cycles', 'failed']);

/** True when a session is running in this state. */
export function isSessionRunning(state: PanelState): boolean {
  return state.session?.status === 'running';
}

/** Folds one action into the state; returns a new object with `revision` increased by one. */
export function reducePanel(state: PanelState, action: PanelAction): PanelState {
  const next = apply(state, action);
  return next === state ? state : { ...next, revision: state.revision + 1 };
}

/** The action of type `T`. */
type ActionOf<T extends PanelAction['type']> = Extract<PanelAction, { type: T }>;

function apply(state: PanelState, action: PanelAction): PanelState {
  switch (action.type) {
    case 'supervisor':
      return applyEvent(state, action.event, action.at);
    case 'sessionStarting':
      return sessionStarting(state, action);
    case 'approvalRequested':
      return addApproval(state, fromControlRequest(action.request));
    case 'approvalClosed':
      return removeApproval(state, action.requestId);
    case 'personQuestionAsked':
      return addPersonQuestion(state, action.question);
    case 'personQuestionClosed':
      return removePersonQuestion(state, action.id);
    case 'answer':
      return {
        ...withoutQuestion(state, action.answer.id),
        answers: [...state.answers.filter((a) => a.id !== action.answer.id), action.answer].slice(-MAX_ANSWERS),
      };
    case 'questionAsked':
      return { ...state, questions: [...(state.questions ?? []), action.question] };
    case 'questionStreamed':
      return questionStreamed(state, action);
    case 'questionEnded':
      return withoutQuestion(state, action.id);
    case 'questionFailed':
      return questionFailed(state, action);
    case 'error':
      return addError(state, action.error, action.at, action.action);
    case 'setup': {
      // An error card whose cause the check reported and now finds fixed (a provider configured, the model served,
      // the sandbox working or turned off) is no longer a problem.
      const errors = withoutFixedErrors(state.errors, state.setup, action.problems);
      if (errors === state.errors && JSON.stringify(state.setup) === JSON.stringify(action.problems)) return state;
      return { ...state, setup: action.problems, errors };
    }
    case 'notice':
      if (!action.notice) return state.notice === null ? state : { ...state, notice: null };
      return { ...state, notice: { id: `notice-${state.revision + 1}`, ...action.notice } };
    case 'sessionDeleted':
      return state.session?.sessionId === action.sessionId && state.session.status !== 'running' ? withoutSession(state) : state;
    case 'testingRun':
      if (!state.session || state.session.status === 'running') return state;
      return withSession(state, (s) => ({
        ...s,
        totals: { ...s.totals, testsPassed: action.tests.passed, testsFailed: action.tests.failed },
      }));
    case 'trust':
      return state.trusted === action.trusted ? state : { ...state, trusted: action.trusted };
    case 'sessionAborted':
      return sessionAborted(state, action);
    case 'fileChange':
      return withFileChange(state, action.id, action.path, action.diff);
    case 'modelPrice': {
      if (!state.session) return state;
      const { price: _old, ...session } = state.session;
      return { ...state, session: action.price ? { ...session, price: action.price } : session };
    }
    case 'repository':
      return repositoryRead(state, action);
  }
}

/** A run starts: a fresh header (resuming the session on screen keeps its timeline). */
function sessionStarting(state: PanelState, action: ActionOf<'sessionStarting'>): PanelState {
  // Resuming the session on screen continues its timeline; any other session starts from an empty one.
  const same = action.resume === true && action.sessionId !== undefined && action.sessionId === state.session?.sessionId;
  return {
    ...state,
    session: {
      kata: action.kata,
      model: action.model,
      provider: action.provider,
      branch: null,
      status: 'running',
      cycle: 0,
      maxCycles: action.maxCycles,
      phase: null,
      totals: NO_TOTALS,
      startedAt: action.at,
      ...(isSessionId(action.sessionId) ? { sessionId: action.sessionId } : {}),
      ...(action.sandboxMode ? { sandboxMode: action.sandboxMode } : {}),
    },
    // The supervisor re-sends the cycles it runs again.
    cycles: same ? state.cycles : [],
    actions: same ? state.actions : [],
    approvals: [],
    errors: [],
    notice: null,
  };
}

/** More of a question's answer as it streams in. */
function questionStreamed(state: PanelState, action: ActionOf<'questionStreamed'>): PanelState {
  return state.questions?.some((q) => q.id === action.id)
    ? {
        ...state,
        questions: state.questions.map((q) =>
          q.id === action.id ? { ...q, partial: clip(redactSecrets(action.partial), MAX_MESSAGE_CHARS) } : q,
        ),
      }
    : state;
}

/** A question whose answer failed keeps its card, with why in plain words. */
function questionFailed(state: PanelState, action: ActionOf<'questionFailed'>): PanelState {
  return state.questions?.some((q) => q.id === action.id)
    ? {
        ...state,
        questions: state.questions.map((q) =>
          q.id === action.id
            ? {
                ...q,
                partial: '',
                failed: {
                  ...action.failed,
                  title: clip(redactSecrets(action.failed.title), MAX_MESSAGE_CHARS),
                  message: clip(redactSecrets(action.failed.message), MAX_MESSAGE_CHARS),
                },
              }
            : q,
        ),
      }
    : state;
}

/** A run that ended by a throw (cancelled, or refused before it started). */
function sessionAborted(state: PanelState, action: ActionOf<'sessionAborted'>): PanelState {
  if (!state.session || state.session.status !== 'running') return state;
  // Refused before it started (no provider, no repository, …): no session to show, only the error.
  if (action.status === 'failed' && state.session.branch === null)
    return { ...state, session: null, cycles: [], actions: [], approvals: [] };
  return closeRunningCycles(
    { ...state, session: { ...state.session, status: action.status, phase: null, finishedAt: action.at } },
    action.status,
  );
}

/** The repository's sessions read again: a session on screen that is gone or ended on its own is shown so. */
function repositoryRead(state: PanelState, action: ActionOf<'repository'>): PanelState {
  // Read again on every focus and panel show: an unchanged listing is no new snapshot.
  if (JSON.stringify(state.repository) === JSON.stringify(action.repository)) return state;
  const next = { ...state, repository: action.repository };
  // The session on screen was deleted or pruned (here, from a terminal or another window): nothing of it stays.
  const shown = state.session?.sessionId;
  const record = shown === undefined ? undefined : action.repository?.sessions.find((s) => s.id === shown);
  const gone = shown !== undefined && state.session?.status !== 'running' && action.repository !== null && !record;
  if (gone) return withoutSession(next);
  return record ? withRecordedEnd(next, record) : next;
}

/** The panel without the session it showed (deleted): no header, timeline or history of it. */
function withoutSession(state: PanelState): PanelState {
  return { ...state, session: null, cycles: [], actions: [], approvals: [], errors: [] };
}

/**
 * A session restored as interrupted by a reload whose record says it ended on its own (the window's last saved
 * state can be older than its end): the record is the truth, so the header takes its status.
 */
function withRecordedEnd(state: PanelState, record: RepositorySessions['sessions'][number]): PanelState {
  const session = state.session;
  if (!session?.interrupted || session.status !== 'cancelled' || !ENDED_ON_ITS_OWN.has(record.status)) return state;
  const { interrupted: _stopped, ...ended } = session;
  return { ...state, session: { ...ended, status: record.status as SessionHeader['status'] } };
}
