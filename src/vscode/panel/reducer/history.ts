/**
 * The action history's part of the panel reducer: each supervisor event that is a history entry (a role's tool call
 * or words, a supervisor's test run or own step) as an entry of its kind, bounded and redacted.
 */
import { redactSecrets, redactValue } from '../../../core';
import type { SupervisorEvent } from '../../../core/tddApi';
import type { MessageRecord, PanelActionRecord, PanelState, TestRunRecord, ToolCallRecord } from '../../../shared/panelProtocol';

/** Most recent tool calls kept in the action history. */
export const MAX_ACTIONS = 200;
/** Longest JSON text of one tool call's parameters kept in the history (the rest is cut with a marker). */
export const MAX_PARAMS_CHARS = 4000;
/** Longest tail of a test run's output shown in the history (the rest is one click away). */
export const MAX_TEST_EXCERPT_CHARS = 1200;
/** Longest result summary kept per tool call. */
export const MAX_SUMMARY_CHARS = 2000;
/** Longest text of one role message kept in the history (the rest is cut with a marker). */
export const MAX_MESSAGE_CHARS = 8000;
/** Failing tests a test run's entry names. */
const MAX_FAILING_TESTS = 10;
/** Longest name of a failing test kept. */
const MAX_TEST_NAME_CHARS = 200;

/** Why a role's question got no answer, in a person's words. */
const QUESTION_OUTCOME_WORDS = {
  answered: 'answered',
  declined: 'no one could answer',
  timeout: 'no answer in time',
  cancelled: 'the question was withdrawn',
} as const;

type EventOf<T extends SupervisorEvent['type']> = Extract<SupervisorEvent, { type: T }>;

/** `text` cut at `max` characters, with a marker saying how much more there was. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
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

/** The entry added (or replacing the one with its id) at the end of the history, which keeps its newest {@link MAX_ACTIONS}. */
export function addAction(state: PanelState, record: PanelActionRecord): PanelState {
  return { ...state, actions: [...state.actions.filter((a) => a.id !== record.id), record].slice(-MAX_ACTIONS) };
}

const cycleOf = (cycle: number): number | undefined => (cycle > 0 ? cycle : undefined);

/** A role's tool call. */
export function toolCallRecord(event: EventOf<'tool_called'>, at: number, revision: number): ToolCallRecord {
  return {
    kind: 'toolCall',
    id: event.callId || `call-${revision}`,
    role: event.role,
    tool: event.tool,
    params: boundedParams(event.params),
    resultSummary: clip(redactSecrets(event.summary), MAX_SUMMARY_CHARS),
    ok: event.ok,
    approval: event.approval,
    durationMs: Math.max(0, Math.round(event.durationMs)),
    cycle: cycleOf(event.cycle),
    at,
  };
}

/** A role's question to the person and how it ended (shown like its `ask_person` call). */
export function personQuestionRecord(event: EventOf<'person_question'>, at: number, revision: number): ToolCallRecord {
  return {
    kind: 'toolCall',
    id: `question-${event.cycle}-${revision}`,
    role: event.role,
    tool: 'ask_person',
    params: { question: event.question },
    resultSummary: clip(
      event.outcome === 'answered'
        ? `You answered: ${event.answer ?? ''}`
        : `No answer (${QUESTION_OUTCOME_WORDS[event.outcome]}); the ${event.role} decided by itself`,
      MAX_SUMMARY_CHARS,
    ),
    // No answer is no failure: the role was told so and decided itself.
    ok: true,
    approval: 'auto',
    durationMs: 0,
    cycle: cycleOf(event.cycle),
    at,
    answer: event.outcome === 'answered' ? 'person' : 'nobody',
  };
}

/**
 * A step the supervisor took itself: a failed quality gate, protected files put back, failures known before the session,
 * tests that were red in the session and are gone.
 */
export function supervisorStepRecord(
  event: EventOf<'quality_gate_failed' | 'protected_paths_reverted' | 'known_failures' | 'red_tests_gone'>,
  at: number,
  revision: number,
): PanelActionRecord {
  const base = { kind: 'supervisorStep', role: 'supervisor', cycle: cycleOf(event.cycle), at } as const;
  switch (event.type) {
    case 'quality_gate_failed':
      return {
        ...base,
        id: `gate-${event.cycle}-${revision}`,
        step: 'quality_gate',
        params: { command: event.command },
        resultSummary: clip(redactSecrets(event.output), MAX_SUMMARY_CHARS),
        ok: false,
      };
    case 'protected_paths_reverted':
      return {
        ...base,
        id: `protected-${event.cycle}-${revision}`,
        step: 'revert_protected_paths',
        params: { paths: event.paths.slice(0, 50) },
        resultSummary: clip(
          redactSecrets(
            `${event.count} protected file(s) put back: ${event.paths.join(', ')}${event.count > event.paths.length ? ', …' : ''} (${event.reason})`,
          ),
          MAX_SUMMARY_CHARS,
        ),
        ok: false,
      };
    case 'known_failures':
      return {
        ...base,
        id: `known-failures-${event.cycle}-${revision}`,
        step: 'known_failures',
        params: { tests: event.tests.slice(0, 50) },
        resultSummary: clip(
          redactSecrets(`${event.tests.length} test(s) already failed before the session; set aside: ${event.tests.join(', ')}`),
          MAX_SUMMARY_CHARS,
        ),
        ok: true,
      };
    case 'red_tests_gone':
      return {
        ...base,
        id: `red-gone-${event.cycle}-${revision}`,
        step: 'red_tests_gone',
        params: { tests: event.tests.slice(0, 50) },
        resultSummary: clip(
          redactSecrets(
            `${event.tests.length} test(s) that were red in this session are gone (no test of theirs is in the branch): ${event.tests.join(', ')}`,
          ),
          MAX_SUMMARY_CHARS,
        ),
        ok: false,
      };
  }
}

/** The id of the history entry of a supervisor test run (the host keys the run's full output by it). */
export function testRunId(event: EventOf<'test_run_finished'>, at: number): string {
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

/** A supervisor's test run: counts, failing tests and the output's tail. */
export function testRunRecord(event: EventOf<'test_run_finished'>, at: number): TestRunRecord {
  const { status, passed, failed } = event.tests;
  const output = redactSecrets(event.output ?? '');
  const failures = status === 'passed' ? [] : failureLines(output);
  const counts = `${status}: ${passed} passed, ${failed} failed${event.reason ? ` (${event.reason})` : ''}`;
  const excerpt = output.length > MAX_TEST_EXCERPT_CHARS ? `… ${output.slice(-MAX_TEST_EXCERPT_CHARS)}` : output;
  const summary = [counts, failures.length > 0 ? `Failing:\n${failures.join('\n')}` : '', excerpt ? `Output:\n${excerpt}` : '']
    .filter(Boolean)
    .join('\n\n');
  const expectedRed = event.role === 'tester' && status !== 'passed';
  const failing = (event.testCases ?? [])
    .filter((test) => test.outcome === 'failed')
    .slice(0, MAX_FAILING_TESTS)
    .map((test) => clip(redactSecrets(test.name), MAX_TEST_NAME_CHARS));
  return {
    kind: 'testRun',
    id: testRunId(event, at),
    role: event.role,
    params: {
      ...(event.command ? { command: redactSecrets(event.command) } : {}),
      ...(event.scope ? { scope: event.scope } : {}),
      ...(event.files ? { files: event.files.slice(0, 20).map(redactSecrets) } : {}),
    },
    resultSummary: clip(summary, MAX_SUMMARY_CHARS),
    ok: status === 'passed' || expectedRed,
    durationMs: Math.max(0, Math.round(event.durationMs)),
    cycle: cycleOf(event.cycle),
    at,
    status,
    passed,
    failed,
    expectedRed,
    hasOutput: output !== '',
    ...(failing.length > 0 ? { failingTests: failing } : {}),
  };
}

/**
 * A role's words of one model call: streamed (`role_text`, appended) or whole (`role_message`). Words said beside a tool
 * call keep their place before it when the same message comes again whole, or as the turn's report.
 */
export function roleWords(state: PanelState, event: EventOf<'role_text' | 'role_message'>, at: number): PanelState {
  const id = `message-${event.cycle}-${event.role}-${event.attempt}-${event.message}`;
  const existing = state.actions.find((a): a is MessageRecord => a.id === id && a.kind === 'message');
  const place = (record: MessageRecord): PanelState =>
    existing ? { ...state, actions: state.actions.map((a) => (a === existing ? record : a)) } : addAction(state, record);
  if (event.type === 'role_text') {
    const sofar = existing?.text ?? '';
    if (sofar.length >= MAX_MESSAGE_CHARS) return state;
    return place(messageRecord(id, event, existing?.at ?? at, sofar + event.delta, false, true));
  }
  return place(messageRecord(id, event, existing?.at ?? at, event.text, event.final, false));
}

/**
 * The role's words of cycle `cycle` no longer streaming once its phase ended: a model call whose words streamed but
 * that ended without its whole message (it failed, it was stopped) keeps what it said.
 */
export function settledWords(state: PanelState, cycle: number, role: string): PanelState {
  const open = (a: PanelActionRecord): boolean =>
    a.kind === 'message' && a.streaming && a.role === role && a.cycle === cycleOf(cycle);
  if (!state.actions.some(open)) return state;
  return { ...state, actions: state.actions.map((a) => (open(a) ? { ...a, streaming: false } : a)) };
}

function messageRecord(
  id: string,
  event: { cycle: number; role: string },
  at: number,
  text: string,
  final: boolean,
  streaming: boolean,
): MessageRecord {
  return {
    kind: 'message',
    id,
    role: event.role,
    cycle: cycleOf(event.cycle),
    at,
    text: clip(redactSecrets(text), MAX_MESSAGE_CHARS),
    final,
    streaming,
  };
}

/** The change a `write_file` / `edit_file` call (history entry `id`) made, as its compact diff. */
export function withFileChange(state: PanelState, id: string, path: string, diff: string): PanelState {
  if (!state.actions.some((a) => a.id === id && a.kind === 'toolCall')) return state;
  const fileChange = { path, diff: clip(redactSecrets(diff), MAX_PARAMS_CHARS) };
  return { ...state, actions: state.actions.map((a) => (a.id === id && a.kind === 'toolCall' ? { ...a, fileChange } : a)) };
}

/** The counts of the last supervisor run of the whole suite in the history (a related run counts only some tests). */
export function lastFullRun(state: PanelState): { passed: number; failed: number } | undefined {
  for (let i = state.actions.length - 1; i >= 0; i--) {
    const action = state.actions[i]!;
    if (action.kind !== 'testRun') continue;
    const scope = (action.params as { scope?: unknown } | null)?.scope;
    if (scope !== 'related') return { passed: action.passed, failed: action.failed };
  }
  return undefined;
}
