/**
 * The supervisor's events folded into the panel state: the session header and cycle timeline here, the history's
 * entries through `./history`, error cards through `./cards`.
 */
import { redactSecrets } from '../../../core';
import { describeProjectProfile, type SupervisorEvent } from '../../../core/tddApi';
import { isSessionId, type PanelState, type TokenUsageCounts } from '../../../shared/panelProtocol';
import { addError } from './cards';
import {
  addUsage,
  closeCycle,
  closeRunningCycles,
  cycleOutcome,
  firstLine,
  newCycle,
  NO_TOTALS,
  updateCycle,
  upsertPhase,
  withResumedTokens,
  withSession,
} from './cycles';
import { addAction, clip, lastFullRun, roleWords, settledWords, supervisorStepRecord } from './history';
import { withPersonQuestion, withTestRun, withToolCall } from './onceInHistory';
import { projectSummary, withKnownFailures } from './projectSummary';
import { finishedPhase, revertedPhase } from './reverts';

/** The supervisor event of type `T`. */
type EventOf<T extends SupervisorEvent['type']> = Extract<SupervisorEvent, { type: T }>;

/** Longest project line in the session header. */
export const MAX_PROJECT_CHARS = 600;

/** Folds one supervisor event (at host time `at`) into the state. */
export function applyEvent(state: PanelState, event: SupervisorEvent, at: number): PanelState {
  switch (event.type) {
    case 'session_started':
      return sessionStarted(state, event, at);
    case 'project_profile': {
      // One compact line under the header: the project the session works in, and where that came from.
      const { summary, origin } = describeProjectProfile(event.profile, { scaffolded: event.scaffolded });
      return withSession(state, (s) => ({
        ...s,
        project: clip(redactSecrets(`${summary} — ${origin}`), MAX_PROJECT_CHARS),
        projectSummary: projectSummary(event.profile, event.scaffolded),
      }));
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
    case 'model_called':
      return modelCalled(state, event);
    case 'role_text':
    case 'role_message':
      return roleWords(state, event, at);
    case 'tool_called':
      return withToolCall(state, event, at);
    case 'test_run_finished':
      return testRunFinished(state, event, at);
    case 'reverted':
      return revertedPhase(state, event);
    case 'quality_gate_failed':
    case 'protected_paths_reverted':
    case 'red_tests_gone':
      return addAction(state, supervisorStepRecord(event, at, state.revision));
    case 'known_failures': {
      // Tests set aside are tests the session leaves out: the project line says so, beside the history's step.
      const said = withSession(state, (s) =>
        s.projectSummary ? { ...s, projectSummary: withKnownFailures(s.projectSummary, event.tests) } : s,
      );
      return addAction(said, supervisorStepRecord(event, at, state.revision));
    }
    case 'person_question':
      return withPersonQuestion(state, event, at);
    case 'commit_made':
      return commitMade(state, event);
    case 'phase_finished':
      return updateCycle(settledWords(state, event.cycle, event.role), event.cycle, (c) => finishedPhase(c, event));
    case 'cycle_finished':
      return cycleFinished(state, event);
    case 'session_finished':
      return sessionFinished(state, event, at);
    case 'error':
      return addError(state, event.error, at);
    case 'overshoot':
    case 'violation':
      return state;
  }
}

/** The session header of a session that starts (or resumes: its cycles and history stay). */
function sessionStarted(state: PanelState, event: EventOf<'session_started'>, at: number): PanelState {
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
}

/** A model call's tokens, counted for the session, the cycle and the role's phase. */
function modelCalled(state: PanelState, event: EventOf<'model_called'>): PanelState {
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

/** A test run: the cycle's counts, the baseline's as the session's, and the history's entry. */
function testRunFinished(state: PanelState, event: EventOf<'test_run_finished'>, at: number): PanelState {
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
  return withTestRun(withCycle, event, at);
}

/** A commit: the cycle's hash (its `feat:` one; a refactor's apart) and the session's counts. */
function commitMade(state: PanelState, event: EventOf<'commit_made'>): PanelState {
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

/** A cycle's end: its outcome and the counts of the tree it ended with. */
function cycleFinished(state: PanelState, event: EventOf<'cycle_finished'>): PanelState {
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
      ...(event.rolledBackTests
        ? { rolledBackTests: { passed: event.rolledBackTests.passed, failed: event.rolledBackTests.failed } }
        : {}),
      ...(event.outcome === 'kata_complete' && !c.title ? { title: 'kata complete: nothing left to test' } : {}),
    }),
  );
}

/** The session's end: its status and totals; running cycles closed; its error as a card. */
function sessionFinished(state: PanelState, event: EventOf<'session_finished'>, at: number): PanelState {
  const { summary } = event;
  const finished = withSession(state, (s) => ({
    ...s,
    status: event.status,
    branch: summary.branch || s.branch,
    phase: null,
    finishedAt: at,
    totals: {
      // The summary's count is the session's end state (its last commit's, or the baseline's), as the header's is.
      testsPassed: summary.totals.tests_passed || s.totals.testsPassed,
      testsFailed: s.totals.testsFailed,
      tokens: Math.max(summary.totals.tokens, s.totals.tokens),
      commits: summary.totals.commits,
    },
  }));
  const closed = closeRunningCycles(finished, event.status);
  return summary.error ? addError(closed, summary.error, at) : closed;
}
