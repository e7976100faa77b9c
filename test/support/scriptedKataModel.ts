import type { RecordedRequest, ScriptedReply } from './openaiServer';

/**
 * A deterministic stand-in for a model playing the three TDD roles, for the loopback server.
 * It reads what a real model would read — the `agent: <role>/v1` line, the cycle and attempt in
 * the context message, how far the conversation has gone — and answers with real tool calls
 * (every write_file of a turn in one message, then run_tests when the plan says, then a final report; a turn whose
 * writes reach its goal ends at the first message, as the supervisor ends it). Scenarios override single turns to
 * misbehave.
 */

export type RoleName = 'tester' | 'implementer' | 'refactorer';

/** One file write. */
export interface FileWrite {
  path: string;
  content: string;
}

/** An edit_file call: exact search/replace blocks in one existing file. */
export interface FileEdit {
  path: string;
  edits: Array<{ search: string; replace: string }>;
}

/** What a role does in one turn: the files it writes and edits (in order, in one message), then its final report. */
export interface TurnPlan {
  /** A question for the person (ask_person), asked in the turn's first message, before any write. */
  ask?: string;
  writes?: FileWrite[];
  edits?: FileEdit[];
  report: string;
  /** Call run_tests once before reporting, as a careful model would. */
  runTests?: boolean;
}

/** The plan of one cycle: each role's turn; `refactorer` absent = NO_REFACTOR. */
export interface CyclePlan {
  tester: TurnPlan;
  implementer: TurnPlan;
  refactorer?: TurnPlan;
}

export interface KataScript {
  cycles: CyclePlan[];
  /** Turn overrides keyed `role:cycle:attempt` (e.g. `implementer:2:1`). */
  overrides?: Record<string, TurnPlan>;
  /** When set, the tester answers KATA_COMPLETE after the last planned cycle. Default true. */
  completeAfterLastCycle?: boolean;
  /**
   * Play a local model served without a tool parser: the tool calls are written into the message's content (after
   * its words, if any) instead of `tool_calls`, in one of the formats such models use (see {@link TextCallFormat}).
   */
  textCalls?: TextCallFormat;
}

/**
 * How a model without a tool parser writes its calls, each with a variant seen in the wild:
 * - `hermes`: Hermes/Qwen `<tool_call>{"name", "arguments"}</tool_call>` per call, arguments as a JSON string;
 * - `json`: a bare `{"name", "parameters"}` object per call, on lines of its own;
 * - `fenced`: one ```json fence per call, the name written `Write-File` (case and separators differ);
 * - `list`: one JSON list of every call, names in camelCase (`writeFile`), no ids anywhere.
 */
export type TextCallFormat = 'hermes' | 'json' | 'fenced' | 'list';

/** One message's calls as a model without a tool parser writes them into its text. */
export function writeCallsAsText(
  calls: Array<{ name: string; arguments: Record<string, unknown> }>,
  format: TextCallFormat,
): string {
  switch (format) {
    case 'hermes':
      return calls
        .map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: JSON.stringify(c.arguments) })}\n</tool_call>`)
        .join('\n');
    case 'json':
      return calls.map((c) => JSON.stringify({ name: c.name, parameters: c.arguments })).join('\n');
    case 'fenced':
      return calls
        .map((c) => '```json\n' + JSON.stringify({ name: kebabTitle(c.name), arguments: c.arguments }, null, 2) + '\n```')
        .join('\n\n');
    case 'list':
      return JSON.stringify(calls.map((c) => ({ name: camel(c.name), arguments: c.arguments })));
  }
}

function kebabTitle(name: string): string {
  return name
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('-');
}

function camel(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The turns the model actually played, in order, for assertions. */
export interface PlayedTurn {
  role: RoleName;
  cycle: number;
  attempt: number;
}

function textOf(message: { content?: unknown } | undefined): string {
  if (!message) return '';
  return typeof message.content === 'string' ? message.content : '';
}

/** Parses `- cycle: N` and `- attempt: A` from the context message (the turn lines of the role context). */
function turnOf(body: { messages: Array<{ role: string; content?: unknown }> }): {
  role: RoleName;
  cycle: number;
  attempt: number;
  step: number;
} {
  const system = textOf(body.messages.find((m) => m.role === 'system'));
  const role = (/^agent: (\w+)\//.exec(system)?.[1] ?? 'unknown') as RoleName;
  const user = textOf(body.messages.find((m) => m.role === 'user'));
  const cycle = Number(/- cycle: (\d+)/.exec(user)?.[1] ?? 1);
  const attempt = Number(/- attempt: (\d+)/.exec(user)?.[1] ?? 1);
  const step = body.messages.filter((m) => m.role === 'assistant').length;
  return { role, cycle, attempt, step };
}

let callCounter = 0;

/** Returns a reply function for `server.setFallback(...)`, and the list of turns it played. */
export function scriptedKataModel(script: KataScript): { reply: (req: RecordedRequest) => ScriptedReply; played: PlayedTurn[] } {
  const played: PlayedTurn[] = [];
  const reply = (req: RecordedRequest): ScriptedReply => {
    const { role, cycle, attempt, step } = turnOf(req.body);
    const plan = planFor(script, role, cycle, attempt);
    if (step === 0) played.push({ role, cycle, attempt });
    // Every write in one message (parallel tool calls, as models send them), then run_tests, then the report.
    const rounds: Array<Array<{ name: string; arguments: Record<string, unknown> }>> = [];
    const changes = [
      ...(plan.writes ?? []).map((w) => ({ name: 'write_file', arguments: { path: w.path, content: w.content } })),
      ...(plan.edits ?? []).map((e) => ({ name: 'edit_file', arguments: { path: e.path, edits: e.edits } })),
    ];
    if (plan.ask) rounds.push([{ name: 'ask_person', arguments: { question: plan.ask } }]);
    if (changes.length) rounds.push(changes);
    if (plan.runTests) rounds.push([{ name: 'run_tests', arguments: {} }]);
    const round = rounds[step];
    if (round && script.textCalls) {
      const words = round === rounds.find((r) => r[0]?.name !== 'ask_person' && r[0]?.name !== 'run_tests') ? plan.report : '';
      const calls = writeCallsAsText(round, script.textCalls);
      return { text: words ? `${words}\n\n${calls}` : calls, usage: { prompt_tokens: 100, completion_tokens: 20 } };
    }
    if (round)
      return {
        // A model says what it does beside its calls: when the writes reach the goal, these are its last words.
        ...(round === rounds.find((r) => r[0]?.name !== 'ask_person' && r[0]?.name !== 'run_tests') ? { text: plan.report } : {}),
        toolCalls: round.map((action) => ({ id: `call_${++callCounter}`, name: action.name, arguments: action.arguments })),
        usage: { prompt_tokens: 100, completion_tokens: 20 },
      };
    return { text: plan.report, usage: { prompt_tokens: 100, completion_tokens: 10 } };
  };
  return { reply, played };
}

function planFor(script: KataScript, role: RoleName, cycle: number, attempt: number): TurnPlan {
  const override = script.overrides?.[`${role}:${cycle}:${attempt}`];
  if (override) return override;
  const c = script.cycles[cycle - 1];
  if (!c) {
    if (role === 'tester' && script.completeAfterLastCycle !== false)
      return { writes: [], report: 'KATA_COMPLETE\nEvery behaviour is covered.' };
    return { writes: [], report: 'NO_REFACTOR' };
  }
  if (role === 'refactorer') return c.refactorer ?? { writes: [], report: 'NO_REFACTOR' };
  if (role === 'tester' || role === 'implementer') return c[role];
  throw new Error(`scriptedKataModel: unknown role '${String(role)}'`);
}
