/**
 * One history entry per fact a person cares about, where the supervisor reports it in two events: a role's question
 * to the person (`person_question` says how it ended, the `ask_person` tool call how long it took) is one entry,
 * "Answered by you"; a green run of the changed tests followed at once by the whole suite's run (the run before a
 * commit) is one test run entry that says both passed.
 */
import type { SupervisorEvent } from '../../../core/tddApi';
import type { PanelActionRecord, PanelState, TestRunRecord, ToolCallRecord } from '../../../shared/panelProtocol';
import { addAction, clip, MAX_SUMMARY_CHARS, personQuestionRecord, testRunRecord, toolCallRecord } from './history';

type EventOf<T extends SupervisorEvent['type']> = Extract<SupervisorEvent, { type: T }>;

/** A role's tool call; an `ask_person` call joins the entry of its question. */
export function withToolCall(state: PanelState, event: EventOf<'tool_called'>, at: number): PanelState {
  const call = toolCallRecord(event, at, state.revision);
  if (event.tool !== 'ask_person') return addAction(state, call);
  const index = questionIndex(state, call, (a) => a.answer !== undefined && a.id.startsWith('question-'));
  if (index < 0) return addAction(state, call);
  const question = state.actions[index] as ToolCallRecord;
  return replaceAt(state, index, { ...call, resultSummary: question.resultSummary, answer: question.answer!, at: question.at });
}

/** A role's question to the person and how it ended; it joins its `ask_person` call's entry when that came first. */
export function withPersonQuestion(state: PanelState, event: EventOf<'person_question'>, at: number): PanelState {
  const question = personQuestionRecord(event, at, state.revision);
  const index = questionIndex(state, question, (a) => a.answer === undefined);
  if (index < 0) return addAction(state, question);
  const call = state.actions[index] as ToolCallRecord;
  return replaceAt(state, index, { ...call, resultSummary: question.resultSummary, answer: question.answer! });
}

/**
 * A supervisor's test run. The whole suite's run right after the same role's green run of the changed tests (the run
 * before a commit) takes that entry's place: one entry, green, that says the changed tests passed first.
 */
export function withTestRun(state: PanelState, event: EventOf<'test_run_finished'>, at: number): PanelState {
  const run = testRunRecord(event, at);
  const last = state.actions.at(-1);
  const related =
    event.scope === 'full' &&
    last?.kind === 'testRun' &&
    last.role === run.role &&
    last.cycle === run.cycle &&
    last.status === 'passed' &&
    scopeOf(last) === 'related'
      ? last
      : undefined;
  if (!related) return addAction(state, run);
  const files = (related.params as { files?: unknown } | null)?.files;
  const first = `The changed tests passed first (${related.passed} passed${Array.isArray(files) && files.length > 0 ? `: ${files.join(', ')}` : ''}), then the whole suite ran.`;
  return replaceAt(state, state.actions.length - 1, {
    ...run,
    params: { ...(run.params as object), related: related.params },
    resultSummary: clip(`${first}\n\n${run.resultSummary}`, MAX_SUMMARY_CHARS),
    durationMs: related.durationMs + run.durationMs,
    at: related.at ?? run.at,
  } satisfies TestRunRecord);
}

function scopeOf(run: TestRunRecord): unknown {
  return (run.params as { scope?: unknown } | null)?.scope;
}

/**
 * The index of the `ask_person` entry of `record`'s role and cycle that `open` accepts: the one asking the same
 * question, else the oldest; -1 when there is none.
 */
function questionIndex(state: PanelState, record: ToolCallRecord, open: (entry: ToolCallRecord) => boolean): number {
  const asked = (entry: PanelActionRecord): entry is ToolCallRecord =>
    entry.kind === 'toolCall' &&
    entry.tool === 'ask_person' &&
    entry.role === record.role &&
    entry.cycle === record.cycle &&
    open(entry);
  const question = questionOf(record);
  const same = state.actions.findIndex((a) => asked(a) && question !== undefined && questionOf(a as ToolCallRecord) === question);
  return same >= 0 ? same : state.actions.findIndex(asked);
}

function questionOf(record: ToolCallRecord): string | undefined {
  const question = (record.params as { question?: unknown } | null)?.question;
  return typeof question === 'string' ? question.trim() : undefined;
}

function replaceAt(state: PanelState, index: number, record: PanelActionRecord): PanelState {
  const actions = state.actions.filter((a, i) => i === index || a.id !== record.id);
  const at = actions.indexOf(state.actions[index]!);
  return { ...state, actions: actions.map((a, i) => (i === at ? record : a)) };
}
