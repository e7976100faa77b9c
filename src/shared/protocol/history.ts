/**
 * The action history's entries: a discriminated union on `kind`, one shape per kind of entry, so nothing is told
 * apart by which optional field happens to be there. Part of the panel protocol; browser-safe (zod/mini only).
 */
import * as z from 'zod/mini';
import { count, epochMs, nonEmpty, text } from './primitives';
import { APPROVAL_OUTCOMES } from '../../core/vocabulary';

/** Who answered a role's question to the person (`ask_person`): the person, or nobody (the role decided itself). */
export const QUESTION_ANSWERS = ['person', 'nobody'] as const;

/** What every history entry has: its id, who it is from, its cycle (none before the first) and when it happened. */
const entry = {
  id: nonEmpty,
  /** Who it is from: a TDD role, `supervisor`, or another agent's name (e.g. `qa/v1`). */
  role: text,
  cycle: z.optional(z.int().check(z.positive())),
  at: z.optional(epochMs),
};

/** A role's tool call: the tool, its parameters, how it went and who allowed it. */
export const ToolCallRecordSchema = z.object({
  kind: z.literal('toolCall'),
  ...entry,
  tool: text,
  /** The call's parameters as JSON (host truncates large values). */
  params: z.unknown(),
  /** Short, redacted summary of the result shown when expanded. */
  resultSummary: text,
  ok: z.boolean(),
  approval: z.enum(APPROVAL_OUTCOMES),
  durationMs: count,
  /** A `write_file` / `edit_file` call's change: the worktree-relative path and a compact unified diff ("Open diff" shows all of it). */
  fileChange: z.optional(z.object({ path: text, diff: text })),
  /** An `ask_person` call's question: answered by the person, or by nobody (the role decided itself). */
  answer: z.optional(z.enum(QUESTION_ANSWERS)),
});

/** A test run of the supervisor's: its command, result, and whether the host holds its full output ("Open full output"). */
export const TestRunRecordSchema = z.object({
  kind: z.literal('testRun'),
  ...entry,
  /** The command, scope (`related`: only some tests) and files of the run. */
  params: z.unknown(),
  /** Counts, failing tests and the output's tail. */
  resultSummary: text,
  /** Passed, or red as the role should leave it (the Tester's new failing test). */
  ok: z.boolean(),
  durationMs: count,
  status: text,
  passed: count,
  failed: count,
  /** True when the red is what the role should leave (the Tester's new failing test). */
  expectedRed: z.boolean(),
  hasOutput: z.boolean(),
  /** The names of the tests that failed, when the runner's report said (at most ten). */
  failingTests: z.optional(z.array(text)),
});

/** A step the supervisor took itself (a quality gate, protected files put back, failures known before the session). */
export const SupervisorStepRecordSchema = z.object({
  kind: z.literal('supervisorStep'),
  ...entry,
  /** What the supervisor did (`quality_gate`, `revert_protected_paths`, `known_failures`). */
  step: text,
  params: z.unknown(),
  resultSummary: text,
  ok: z.boolean(),
});

/** A role's own words: its text of one model call (Markdown); `final` for its report; `streaming` while it arrives. */
export const MessageRecordSchema = z.object({
  kind: z.literal('message'),
  ...entry,
  text,
  final: z.boolean(),
  streaming: z.boolean(),
});

/** The kinds of history entry. */
export const HISTORY_ENTRY_KINDS = ['toolCall', 'testRun', 'supervisorStep', 'message'] as const;

/**
 * A history entry saved before entries had a `kind` (a window's persisted state from an older version) in today's
 * shape: told apart by the fields that used to mark it. Anything else passes through to the schema unchanged.
 */
function fromUntypedRecord(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || 'kind' in value) return value;
  const { testRun, fileChange, message, tool, approval, durationMs, ...rest } = value as Record<string, unknown>;
  const base = { id: rest.id, role: rest.role, cycle: rest.cycle, at: rest.at };
  if (message && typeof message === 'object') return { kind: 'message', ...base, ...message };
  if (testRun && typeof testRun === 'object')
    return {
      kind: 'testRun',
      ...base,
      params: rest.params,
      resultSummary: rest.resultSummary,
      ok: rest.ok,
      durationMs,
      ...testRun,
    };
  if (rest.role === 'supervisor')
    return { kind: 'supervisorStep', ...base, step: tool, params: rest.params, resultSummary: rest.resultSummary, ok: rest.ok };
  return { kind: 'toolCall', ...rest, tool, approval, durationMs, ...(fileChange ? { fileChange } : {}) };
}

/** One entry of the action history. */
export const PanelActionRecordSchema = z.pipe(
  z.transform(fromUntypedRecord),
  z.discriminatedUnion('kind', [ToolCallRecordSchema, TestRunRecordSchema, SupervisorStepRecordSchema, MessageRecordSchema]),
);

/** A role's tool call in the history. */
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;
/** A supervisor's test run in the history. */
export type TestRunRecord = z.infer<typeof TestRunRecordSchema>;
/** A supervisor's own step in the history. */
export type SupervisorStepRecord = z.infer<typeof SupervisorStepRecordSchema>;
/** A role's words in the history. */
export type MessageRecord = z.infer<typeof MessageRecordSchema>;
/** One entry of the action history (`kind` tells which). */
export type PanelActionRecord = z.infer<typeof PanelActionRecordSchema>;
