/**
 * The host's view model of the agent panel as a pure function: `reducePanel(state, action)` folds
 * supervisor events, control-protocol approval requests and answers, QA/CoT results and errors into
 * a new {@link PanelState}. Each fact has one route here: approvals only from the control protocol
 * (`approvalRequested` / `approvalClosed`, sent by the `ApprovalBridge`), tool calls only as the
 * supervisor's `tool_called` events. No `vscode` import, no clock, no randomness: every time and id comes in
 * with the action, so the module is unit-tested on its own and replayable.
 */
import type { ApprovalRequestMessage } from '../../core/control/messages';
import { describeProjectProfile } from '../../core/project/describeProfile';
import { redactSecrets, redactValue } from '../../core/security/redact';
import type {
  PhaseOutcome as CorePhaseOutcome,
  CycleOutcome as CoreCycleOutcome,
  Role,
  SupervisorEvent,
} from '../../core/tdd/events';
import type {
  PanelActionRecord,
  Answer,
  ModelPrice,
  TokenUsageCounts,
  PanelCycleOutcome,
  PanelCycleSummary,
  PanelError,
  PanelNotice,
  PanelState,
  PanelSandboxMode,
  PendingApproval,
  PendingQuestion,
  PanelPhaseOutcome,
  RepositorySessions,
  SessionHeader,
  PanelSessionTotals,
  SetupProblem,
} from '../../shared/panelProtocol';
import { isSessionId } from '../../shared/panelProtocol';
import { approvalPreview } from './approvalPreview';
import { errorAction, errorFixes, vscodeErrorMessage } from './errorActions';
import { addPersonQuestion, removePersonQuestion } from './personQuestionCards';
import type { PendingPersonQuestion } from '../../shared/personQuestionProtocol';

/** Why a role's question got no answer, in a person's words. */
const QUESTION_OUTCOME_WORDS = {
  answered: 'answered',
  declined: 'no one could answer',
  timeout: 'no answer in time',
  cancelled: 'the question was withdrawn',
} as const;

/** Most recent tool calls kept in the action history. */
export const MAX_ACTIONS = 200;
/** Most recent QA/CoT answers kept. */
export const MAX_ANSWERS = 20;
/** Most recent error cards kept. */
export const MAX_ERRORS = 20;
/** Longest JSON text of one tool call's parameters kept in the history (the rest is cut with a marker). */
export const MAX_PARAMS_CHARS = 4000;
/** Longest tail of a test run's output shown in the history (the rest is one click away). */
export const MAX_TEST_EXCERPT_CHARS = 1200;
/** Longest result summary kept per tool call. */
export const MAX_SUMMARY_CHARS = 2000;
/** Longest text of one role message kept in the history (the rest is cut with a marker). */
export const MAX_MESSAGE_CHARS = 8000;
/** Longest project line in the session header. */
export const MAX_PROJECT_CHARS = 600;

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
  /** A role asks the person a question (`ask_person`, through the `ApprovalBridge`): a question card. */
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

const NO_TOTALS: PanelSessionTotals = { testsPassed: 0, testsFailed: 0, tokens: 0, commits: 0 };

function withoutQuestion(state: PanelState, id: string): PanelState {
  if (!state.questions?.some((q) => q.id === id)) return state;
  const questions = state.questions.filter((q) => q.id !== id);
  const { questions: _dropped, ...rest } = state;
  return questions.length > 0 ? { ...rest, questions } : rest;
}

/** True when a session is running in this state. */
/** The error a reloaded window shows for the session that was running in the window that is gone. */
export const RELOADED_WHILE_RUNNING = 'The window was reloaded while the kata was running; the session stopped.';

/** Record statuses that say a session ended on its own (not stopped): they win over a reload's "cancelled". */
const ENDED_ON_ITS_OWN: ReadonlySet<string> = new Set(['completed', 'max_cycles', 'failed']);

export function isSessionRunning(state: PanelState): boolean {
  return state.session?.status === 'running';
}

/** Folds one action into the state; returns a new object with `revision` increased by one. */
export function reducePanel(state: PanelState, action: PanelAction): PanelState {
  const next = apply(state, action);
  return next === state ? state : { ...next, revision: state.revision + 1 };
}

function apply(state: PanelState, action: PanelAction): PanelState {
  switch (action.type) {
    case 'supervisor':
      return applyEvent(state, action.event, action.at);
    case 'sessionStarting': {
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
      return state.questions?.some((q) => q.id === action.id)
        ? {
            ...state,
            questions: state.questions.map((q) =>
              q.id === action.id ? { ...q, partial: clip(redactSecrets(action.partial), MAX_MESSAGE_CHARS) } : q,
            ),
          }
        : state;
    case 'questionEnded':
      return withoutQuestion(state, action.id);
    case 'error':
      return addError(state, action.error, action.at, action.action);
    case 'setup': {
      // A refusal the check now finds fixed (a provider is configured, the sandbox starts) is no longer a problem.
      const fixed = new Set<string>();
      if (!action.problems.some((p) => p.item === 'model')) fixed.add('PROVIDER_NOT_CONFIGURED');
      if (!action.problems.some((p) => p.item === 'sandbox')) fixed.add('SANDBOX_UNAVAILABLE');
      const errors = state.errors.filter((e) => !fixed.has(e.error_code));
      if (errors.length === state.errors.length && JSON.stringify(state.setup) === JSON.stringify(action.problems)) return state;
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
    case 'sessionAborted': {
      if (!state.session || state.session.status !== 'running') return state;
      // Refused before it started (no provider, no repository, …): no session to show, only the error.
      if (action.status === 'failed' && state.session.branch === null)
        return { ...state, session: null, cycles: [], actions: [], approvals: [] };
      return closeRunningCycles(
        { ...state, session: { ...state.session, status: action.status, phase: null, finishedAt: action.at } },
        action.status,
      );
    }
    case 'fileChange':
      if (!state.actions.some((a) => a.id === action.id)) return state;
      return {
        ...state,
        actions: state.actions.map((a) =>
          a.id === action.id
            ? { ...a, fileChange: { path: action.path, diff: clip(redactSecrets(action.diff), MAX_PARAMS_CHARS) } }
            : a,
        ),
      };
    case 'modelPrice': {
      if (!state.session) return state;
      const { price: _old, ...session } = state.session;
      return { ...state, session: action.price ? { ...session, price: action.price } : session };
    }
    case 'repository': {
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
  }
}

function applyEvent(state: PanelState, event: SupervisorEvent, at: number): PanelState {
  switch (event.type) {
    case 'session_started':
      return {
        ...state,
        session: {
          kata: event.kata,
          model: event.model,
          provider: event.provider,
          branch: event.branch,
          status: 'running',
          cycle: event.resumedFromCycle ? Math.max(0, event.resumedFromCycle - 1) : 0,
          maxCycles: event.maxCycles,
          phase: null,
          // A resumed session's header counts the tokens it had already used, not only the new ones.
          totals: withResumedTokens(state.session?.status === 'running' ? state.session.totals : NO_TOTALS, event.resumedTokens),
          startedAt: state.session?.status === 'running' && state.session.startedAt !== undefined ? state.session.startedAt : at,
          ...(isSessionId(event.sessionId) ? { sessionId: event.sessionId } : {}),
          baseBranch: event.baseBranch,
          sandbox: event.sandbox,
          ...(state.session?.status === 'running' && state.session.sandboxMode ? { sandboxMode: state.session.sandboxMode } : {}),
        },
        cycles: event.resumedFromCycle ? state.cycles : [],
        actions: event.resumedFromCycle ? state.actions : [],
        approvals: [],
      };
    case 'project_profile': {
      // One compact line under the header: the project the session works in, and where that came from.
      const { summary, origin } = describeProjectProfile(event.profile, { scaffolded: event.scaffolded });
      return withSession(state, (s) => ({ ...s, project: clip(redactSecrets(`${summary} — ${origin}`), MAX_PROJECT_CHARS) }));
    }
    case 'cycle_started':
      return withSession(
        {
          ...state,
          cycles: [...state.cycles.filter((c) => c.n !== event.cycle), newCycle(event.cycle)],
        },
        (s) => ({ ...s, cycle: event.cycle, phase: null }),
      );
    case 'phase_changed': {
      const withPhase = withSession(state, (s) => ({ ...s, cycle: Math.max(s.cycle, event.cycle), phase: event.phase }));
      if (!event.role) return withPhase;
      const role = event.role;
      return updateCycle(withPhase, event.cycle, (c) => upsertPhase(c, role, { outcome: 'running', attempts: event.attempt }));
    }
    case 'model_called': {
      const used: TokenUsageCounts = {
        input: Math.max(0, Math.round(event.promptTokens)),
        output: Math.max(0, Math.round(event.completionTokens)),
      };
      const withTotals = withSession(state, (s) => ({
        ...s,
        totals: { ...s.totals, tokens: s.totals.tokens + used.input + used.output },
        usage: addUsage(s.usage, used),
      }));
      return updateCycle(withTotals, event.cycle, (c) => {
        const phase = c.phases.find((p) => p.role === event.role);
        return { ...upsertPhase(c, event.role, { usage: addUsage(phase?.usage, used) }), usage: addUsage(c.usage, used) };
      });
    }
    case 'role_text': {
      const id = messageId(event);
      const existing = state.actions.find((a) => a.id === id);
      const sofar = existing?.message?.text ?? '';
      if (sofar.length >= MAX_MESSAGE_CHARS) return state;
      return addAction(state, messageRecord(event, existing ? (existing.at ?? at) : at, sofar + event.delta, false, true));
    }
    case 'role_message': {
      const existing = state.actions.find((a) => a.id === messageId(event));
      return addAction(state, messageRecord(event, existing?.at ?? at, event.text, event.final, false));
    }
    case 'tool_called': {
      const record: PanelActionRecord = {
        id: event.callId || `call-${state.revision}`,
        role: event.role,
        tool: event.tool,
        params: boundedParams(event.params),
        resultSummary: clip(redactSecrets(event.summary), MAX_SUMMARY_CHARS),
        ok: event.ok,
        approval: event.approval,
        durationMs: Math.max(0, Math.round(event.durationMs)),
        cycle: event.cycle > 0 ? event.cycle : undefined,
        at,
      };
      return addAction(state, record);
    }
    case 'test_run_finished': {
      const tests = { passed: event.tests.passed, failed: event.tests.failed };
      // The session's test state is the one of its last commit (see `commit_made`): a red run that is then
      // rolled back never shows in the header. Before any commit, the baseline's run is that state.
      const withTotals =
        event.role !== 'baseline' || event.scope === 'related'
          ? state
          : withSession(state, (s) => ({
              ...s,
              totals: { ...s.totals, testsPassed: tests.passed, testsFailed: tests.failed },
            }));
      const withCycle = event.cycle > 0 ? updateCycle(withTotals, event.cycle, (c) => ({ ...c, tests })) : withTotals;
      return addAction(withCycle, testRunRecord(event, at));
    }
    case 'reverted':
      return updateCycle(state, event.cycle, (c) => upsertPhase(c, event.role, { outcome: 'reverted' }));
    case 'quality_gate_failed':
      return addAction(state, {
        id: `gate-${event.cycle}-${state.revision}`,
        role: 'supervisor',
        tool: 'quality_gate',
        params: { command: event.command },
        resultSummary: clip(redactSecrets(event.output), MAX_SUMMARY_CHARS),
        ok: false,
        approval: 'auto',
        durationMs: 0,
        cycle: event.cycle > 0 ? event.cycle : undefined,
        at,
      });
    case 'protected_paths_reverted':
      return addAction(state, {
        id: `protected-${event.cycle}-${state.revision}`,
        role: 'supervisor',
        tool: 'revert_protected_paths',
        params: { paths: event.paths.slice(0, 50) },
        resultSummary: clip(
          redactSecrets(
            `${event.count} protected file(s) put back: ${event.paths.join(', ')}${event.count > event.paths.length ? ', …' : ''} (${event.reason})`,
          ),
          MAX_SUMMARY_CHARS,
        ),
        ok: false,
        approval: 'auto',
        durationMs: 0,
        cycle: event.cycle > 0 ? event.cycle : undefined,
        at,
      });
    case 'known_failures':
      return addAction(state, {
        id: `known-failures-${event.cycle}-${state.revision}`,
        role: 'supervisor',
        tool: 'known_failures',
        params: { tests: event.tests.slice(0, 50) },
        resultSummary: clip(
          redactSecrets(`${event.tests.length} test(s) already failed before the session; set aside: ${event.tests.join(', ')}`),
          MAX_SUMMARY_CHARS,
        ),
        ok: true,
        approval: 'auto',
        durationMs: 0,
        cycle: event.cycle > 0 ? event.cycle : undefined,
        at,
      });
    case 'person_question':
      return addAction(state, {
        id: `question-${event.cycle}-${state.revision}`,
        role: event.role,
        tool: 'ask_person',
        params: { question: event.question },
        resultSummary: clip(
          event.outcome === 'answered'
            ? `Answered${event.answeredBy ? ` (${event.answeredBy})` : ''}: ${event.answer ?? ''}`
            : `No answer (${QUESTION_OUTCOME_WORDS[event.outcome]}); the ${event.role} decided by itself`,
          MAX_SUMMARY_CHARS,
        ),
        ok: event.outcome === 'answered',
        approval: 'auto',
        durationMs: 0,
        cycle: event.cycle > 0 ? event.cycle : undefined,
        at,
      });
    case 'commit_made': {
      // The Refactorer's commit is kept apart: the cycle's hash stays the one of its `feat:` subject.
      const refactor = /^refactor\b/i.test(event.message) && state.cycles.some((c) => c.n === event.cycle && c.commit !== null);
      const committed = updateCycle(state, event.cycle, (c) =>
        refactor ? { ...c, refactorCommit: event.sha } : { ...c, commit: event.sha, title: c.title ?? firstLine(event.message) },
      );
      // What was committed is what the last whole-suite run saw (the supervisor runs the whole suite before a commit).
      const run = lastFullRun(state);
      return withSession(committed, (s) => ({
        ...s,
        totals: {
          ...s.totals,
          commits: s.totals.commits + 1,
          ...(run ? { testsPassed: run.passed, testsFailed: run.failed } : {}),
        },
      }));
    }
    case 'phase_finished':
      return updateCycle(state, event.cycle, (c) =>
        upsertPhase(c, event.role, {
          outcome: phaseOutcome(event.outcome),
          attempts: event.attempts,
          duration_ms: Math.max(0, Math.round(event.durationMs)),
        }),
      );
    case 'cycle_finished':
      // The cycle's counts are those of the tree it ended with (its last commit, or the one before a rollback).
      return updateCycle(
        withSession(state, (s) => ({
          ...s,
          totals: { ...s.totals, testsPassed: event.tests.passed, testsFailed: event.tests.failed },
        })),
        event.cycle,
        (c) => ({
          ...closeCycle(c, cycleOutcome(event.outcome)),
          // `event.commit` is the cycle's last commit (the refactor one when there is one): the `feat:` hash wins.
          commit: c.commit ?? (event.commit && event.commit !== c.refactorCommit ? event.commit : null),
          tests: { passed: event.tests.passed, failed: event.tests.failed },
          ...(event.outcome === 'kata_complete' && !c.title ? { title: 'kata complete: nothing left to test' } : {}),
        }),
      );
    case 'session_finished': {
      const { summary } = event;
      const finished = withSession(state, (s) => ({
        ...s,
        status: event.status,
        branch: summary.branch || s.branch,
        phase: null,
        finishedAt: at,
        totals: {
          // The summary counts the last green cycle; before any, the baseline the header already shows.
          testsPassed: summary.totals.tests_passed || s.totals.testsPassed,
          testsFailed: s.totals.testsFailed,
          tokens: Math.max(summary.totals.tokens, s.totals.tokens),
          commits: summary.totals.commits,
        },
      }));
      const closed = closeRunningCycles(finished, event.status);
      return summary.error ? addError(closed, summary.error, at) : closed;
    }
    case 'error':
      return addError(state, event.error, at);
    case 'overshoot':
    case 'violation':
      return state;
  }
}

/** The id of the history entry of a supervisor test run (the host keys the run's full output by it). */
export function testRunId(event: Extract<SupervisorEvent, { type: 'test_run_finished' }>, at: number): string {
  return `tests-${event.cycle}-${event.role}-${at}`;
}

/** Lines of runner output that name a failing test, an assertion (expected / actual) or where the test is (`location:` / `test at`), at most `max`. */
export function failureLines(output: string, max = 12): string[] {
  const pattern =
    /(^|\s)(not ok\b|✖|✗|×|FAIL\b|FAILED\b|AssertionError|Error:|expected|actual|Expected|Received|assert|location: '|test at )/;
  const lines = output
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => pattern.test(line) && !/^\s*at\s/.test(line));
  return [...new Set(lines)].slice(0, max);
}

function testRunRecord(event: Extract<SupervisorEvent, { type: 'test_run_finished' }>, at: number): PanelActionRecord {
  const { status, passed, failed } = event.tests;
  const output = redactSecrets(event.output ?? '');
  const failures = status === 'passed' ? [] : failureLines(output);
  const counts = `${status}: ${passed} passed, ${failed} failed${event.reason ? ` (${event.reason})` : ''}`;
  const excerpt = output.length > MAX_TEST_EXCERPT_CHARS ? `… ${output.slice(-MAX_TEST_EXCERPT_CHARS)}` : output;
  const summary = [counts, failures.length > 0 ? `Failing:\n${failures.join('\n')}` : '', excerpt ? `Output:\n${excerpt}` : '']
    .filter(Boolean)
    .join('\n\n');
  const expectedRed = event.role === 'tester' && status !== 'passed';
  return {
    id: testRunId(event, at),
    role: event.role,
    tool: 'test run',
    params: {
      ...(event.command ? { command: redactSecrets(event.command) } : {}),
      ...(event.scope ? { scope: event.scope } : {}),
      ...(event.files ? { files: event.files.slice(0, 20).map(redactSecrets) } : {}),
    },
    resultSummary: clip(summary, MAX_SUMMARY_CHARS),
    ok: status === 'passed' || expectedRed,
    approval: 'auto',
    durationMs: Math.max(0, Math.round(event.durationMs)),
    cycle: event.cycle > 0 ? event.cycle : undefined,
    at,
    testRun: { status, passed, failed, expectedRed, hasOutput: output !== '' },
  };
}

/** The history id of one model call's message of a role's turn. */
function messageId(event: { cycle: number; role: string; attempt: number; message: number }): string {
  return `message-${event.cycle}-${event.role}-${event.attempt}-${event.message}`;
}

function messageRecord(
  event: { cycle: number; role: string; attempt: number; message: number },
  at: number,
  text: string,
  final: boolean,
  streaming: boolean,
): PanelActionRecord {
  return {
    id: messageId(event),
    role: event.role,
    tool: 'message',
    params: {},
    resultSummary: '',
    ok: true,
    approval: 'auto',
    durationMs: 0,
    cycle: event.cycle > 0 ? event.cycle : undefined,
    at,
    message: { text: clip(redactSecrets(text), MAX_MESSAGE_CHARS), final, streaming },
  };
}

function addUsage(total: TokenUsageCounts | undefined, add: TokenUsageCounts): TokenUsageCounts {
  return { input: (total?.input ?? 0) + add.input, output: (total?.output ?? 0) + add.output };
}

function withResumedTokens(totals: PanelSessionTotals, resumedTokens: number | undefined): PanelSessionTotals {
  return resumedTokens && resumedTokens > 0 ? { ...totals, tokens: totals.tokens + Math.round(resumedTokens) } : totals;
}

/** The counts of the last supervisor run of the whole suite in the history (a related run counts only some tests). */
function lastFullRun(state: PanelState): { passed: number; failed: number } | undefined {
  for (let i = state.actions.length - 1; i >= 0; i--) {
    const action = state.actions[i]!;
    const scope = (action.params as { scope?: unknown } | null)?.scope;
    if (action.testRun && scope !== 'related') return action.testRun;
  }
  return undefined;
}

/** The panel without the session it showed (deleted): no header, timeline or history of it. */
function withoutSession(state: PanelState): PanelState {
  return { ...state, session: null, cycles: [], actions: [], approvals: [], errors: [] };
}

/**
 * A session restored as stopped by a reload whose record says it ended on its own (the window's last saved
 * state can be older than its end): the record is the truth, so the header takes its status and the reload's
 * error goes.
 */
function withRecordedEnd(state: PanelState, record: RepositorySessions['sessions'][number]): PanelState {
  const session = state.session;
  if (!session || session.status !== 'cancelled' || !ENDED_ON_ITS_OWN.has(record.status)) return state;
  if (!state.errors.some((e) => e.message === RELOADED_WHILE_RUNNING)) return state;
  return {
    ...state,
    session: { ...session, status: record.status as SessionHeader['status'] },
    errors: state.errors.filter((e) => e.message !== RELOADED_WHILE_RUNNING),
  };
}

function withSession(state: PanelState, change: (session: SessionHeader) => SessionHeader): PanelState {
  return state.session ? { ...state, session: change(state.session) } : state;
}

function updateCycle(state: PanelState, n: number, change: (cycle: PanelCycleSummary) => PanelCycleSummary): PanelState {
  if (!Number.isInteger(n) || n < 1) return state;
  const existing = state.cycles.find((c) => c.n === n);
  const updated = change(existing ?? newCycle(n));
  const cycles = existing
    ? state.cycles.map((c) => (c.n === n ? updated : c))
    : [...state.cycles, updated].sort((a, b) => a.n - b.n);
  return { ...state, cycles };
}

function upsertPhase(
  cycle: PanelCycleSummary,
  role: Role,
  change: Partial<PanelCycleSummary['phases'][number]>,
): PanelCycleSummary {
  const existing = cycle.phases.find((p) => p.role === role);
  const updated = { ...(existing ?? { role, outcome: 'pending' as const, attempts: 0, duration_ms: 0 }), ...change };
  return { ...cycle, phases: existing ? cycle.phases.map((p) => (p.role === role ? updated : p)) : [...cycle.phases, updated] };
}

function newCycle(n: number): PanelCycleSummary {
  return { n, outcome: 'running', commit: null, tests: { passed: 0, failed: 0 }, phases: [] };
}

/** The session ended (`status`): cycles still running end cancelled or failed, and no approval stays open. */
function closeRunningCycles(state: PanelState, status: SessionHeader['status']): PanelState {
  const outcome: PanelCycleOutcome = status === 'cancelled' ? 'cancelled' : 'failed';
  return { ...state, approvals: [], cycles: state.cycles.map((c) => (c.outcome === 'running' ? closeCycle(c, outcome) : c)) };
}

function closeCycle(cycle: PanelCycleSummary, outcome: PanelCycleOutcome): PanelCycleSummary {
  const phaseEnd: PanelPhaseOutcome = outcome === 'cancelled' ? 'cancelled' : outcome === 'failed' ? 'failed' : 'passed';
  return {
    ...cycle,
    outcome,
    phases: cycle.phases.map((p) => (p.outcome === 'running' || p.outcome === 'pending' ? { ...p, outcome: phaseEnd } : p)),
  };
}

/** The core's phase outcome in the panel's vocabulary. */
export function phaseOutcome(outcome: CorePhaseOutcome): PanelPhaseOutcome {
  switch (outcome) {
    case 'red':
    case 'green':
    case 'refactored':
    case 'kata_complete':
      return 'passed';
    case 'no_change':
    case 'skipped':
      return 'skipped';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}

/** The core's cycle outcome in the panel's vocabulary. */
export function cycleOutcome(outcome: CoreCycleOutcome): PanelCycleOutcome {
  switch (outcome) {
    case 'green':
      return 'passed';
    case 'kata_complete':
      return 'complete';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}

function addAction(state: PanelState, record: PanelActionRecord): PanelState {
  return { ...state, actions: [...state.actions.filter((a) => a.id !== record.id), record].slice(-MAX_ACTIONS) };
}

function defaultApprovalReason(dangerLevel: PendingApproval['dangerLevel']): string {
  return `${dangerLevel} tools need your approval`;
}

function addApproval(state: PanelState, approval: PendingApproval): PanelState {
  const approvals = [...state.approvals.filter((a) => a.requestId !== approval.requestId), approval];
  return { ...state, approvals };
}

function removeApproval(state: PanelState, requestId: string): PanelState {
  if (!state.approvals.some((a) => a.requestId === requestId)) return state;
  return { ...state, approvals: state.approvals.filter((a) => a.requestId !== requestId) };
}

function addError(
  state: PanelState,
  error: { error_code: string; message: string; details?: Record<string, unknown> },
  at: number,
  actionLine?: string,
): PanelState {
  const action = actionLine ?? errorAction(error.error_code);
  const fixes = errorFixes(error.error_code, error.details);
  const card: PanelError = {
    id: `error-${state.revision + 1}`,
    error_code: error.error_code,
    message: clip(redactSecrets(vscodeErrorMessage(error)), MAX_SUMMARY_CHARS),
    ...(action ? { action: clip(redactSecrets(action), MAX_SUMMARY_CHARS) } : {}),
    ...(fixes.length > 0 ? { fixes } : {}),
    at,
  };
  // The same error reported twice in a row (event + summary) shows once.
  const last = state.errors.at(-1);
  if (last && last.error_code === card.error_code && last.message === card.message) return state;
  return { ...state, errors: [...state.errors, card].slice(-MAX_ERRORS) };
}

/** The control protocol's approval request as an approval card. */
export function fromControlRequest(request: ApprovalRequestMessage): PendingApproval {
  const expires = Date.parse(request.expiresAt);
  const preview = approvalPreview(request.tool, request.params, request.preview);
  return {
    requestId: request.id,
    tool: request.tool,
    dangerLevel: request.dangerLevel,
    params: boundedParams(request.params),
    ...(preview ? { preview } : {}),
    expiresAt: Number.isFinite(expires) && expires > 0 ? expires : 0,
    reason: request.reason ?? defaultApprovalReason(request.dangerLevel),
    ...(request.requestedBy ? { role: request.requestedBy } : {}),
    ...(request.callId ? { callId: request.callId } : {}),
  };
}

/** Redacted parameters; very large values are replaced by a clipped JSON text. */
export function boundedParams(params: unknown): unknown {
  const safe = redactValue(params);
  let text: string;
  try {
    text = JSON.stringify(safe) ?? 'null';
  } catch {
    return '[unserializable parameters]';
  }
  return text.length <= MAX_PARAMS_CHARS ? safe : clip(text, MAX_PARAMS_CHARS);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}
