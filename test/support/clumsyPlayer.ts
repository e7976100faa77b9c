import type { RecordedRequest, ScriptedReply } from './openaiServer';
import { scriptedKataModel, type CyclePlan, type FileWrite, type PlayedTurn, type RoleName } from './scriptedKataModel';

/**
 * A scripted model that plays the TDD roles as {@link scriptedKataModel} does, except for one realistic mistake in a
 * chosen cycle, and that then follows what the product tells it (issue 35, item 4). Each mistake is what real models
 * were seen doing; what the player does next depends only on the words it reads, as a model's would:
 * - `codeInMessage`: the Implementer answers with its code in a Markdown block and no tool call. It makes the same
 *   reply again until it is told that code in a message is not applied; then it writes the file with a tool call.
 * - `emptyReply`: the Implementer answers with nothing (no words, no call), until it is told its reply was empty.
 * - `implementerWritesTest`: the Implementer writes the right code AND a weakened copy of the test file in one
 *   message. Told in the same turn that the test write was refused, it ends its turn (its fix is written); told at a
 *   later attempt that its changes were undone, it writes its fix again.
 * - `testerWritesCode`: the Tester writes its (valid) test AND the production code in one message. Told in the same
 *   turn that the production write was refused, it ends its turn; told at a later attempt that its changes were
 *   undone, it writes its test again.
 * - `rereadsFile`: the Implementer reads the production file before editing it, and reads it again while nothing says
 *   it already has it (at most five more times); told that the file is unchanged since it read it, it writes.
 */
export type ClumsyMistake = 'codeInMessage' | 'emptyReply' | 'implementerWritesTest' | 'testerWritesCode' | 'rereadsFile';

/** The role that makes each mistake. */
export const MISTAKE_ROLE: Record<ClumsyMistake, RoleName> = {
  codeInMessage: 'implementer',
  emptyReply: 'implementer',
  implementerWritesTest: 'implementer',
  testerWritesCode: 'tester',
  rereadsFile: 'implementer',
};

/** How many times the `rereadsFile` player reads its file again when nothing stops it. */
export const MAX_REREADS = 5;

interface Message {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

const text = (m: Message | undefined): string => (typeof m?.content === 'string' ? m.content : '');

function turnOf(messages: Message[]): { role: RoleName; cycle: number; attempt: number; step: number } {
  const role = (/^agent: (\w+)\//.exec(text(messages.find((m) => m.role === 'system')))?.[1] ?? 'unknown') as RoleName;
  const user = text(messages.find((m) => m.role === 'user'));
  return {
    role,
    cycle: Number(/- cycle: (\d+)/.exec(user)?.[1] ?? 1),
    attempt: Number(/- attempt: (\d+)/.exec(user)?.[1] ?? 1),
    step: messages.filter((m) => m.role === 'assistant').length,
  };
}

let ids = 0;
const usage = { prompt_tokens: 100, completion_tokens: 20 };
const calls = (list: Array<{ name: string; arguments: Record<string, unknown> }>, words?: string): ScriptedReply => ({
  ...(words ? { text: words } : {}),
  toolCalls: list.map((c) => ({ id: `clumsy_${++ids}`, name: c.name, arguments: c.arguments })),
  usage,
});
const writesOf = (writes: readonly FileWrite[]) =>
  writes.map((w) => ({ name: 'write_file', arguments: { path: w.path, content: w.content } }));

/**
 * The clumsy player over `cycles` (e.g. `fizzbuzzJs(3)`), making `mistakes[cycle]` in that cycle. `played` lists the
 * turns as {@link scriptedKataModel} does.
 */
export function clumsyPlayer(
  cycles: CyclePlan[],
  mistakes: Record<number, ClumsyMistake>,
): { reply: (req: RecordedRequest) => ScriptedReply; played: PlayedTurn[] } {
  const competent = scriptedKataModel({ cycles });
  const played = competent.played;
  const reply = (req: RecordedRequest): ScriptedReply => {
    const messages = (req.body as { messages: Message[] }).messages;
    const turn = turnOf(messages);
    const mistake = mistakes[turn.cycle];
    const plan = cycles[turn.cycle - 1];
    if (!mistake || !plan || MISTAKE_ROLE[mistake] !== turn.role) return competent.reply(req);
    const context = text(messages.find((m) => m.role === 'user'));
    const lastTools = messages.slice(messages.map((m) => m.role).lastIndexOf('assistant') + 1).map(text);
    const mine = turn.role === 'tester' ? plan.tester : plan.implementer;
    const own = mine.writes ?? [];
    if (turn.step === 0) played.push({ role: turn.role, cycle: turn.cycle, attempt: turn.attempt });
    switch (mistake) {
      case 'codeInMessage': {
        if (turn.step > 0) return { text: plan.implementer.report, usage };
        if (/not applied/i.test(context)) return calls(writesOf(own), plan.implementer.report);
        const code = own.map((w) => `\`${w.path}\`:\n\n\`\`\`js\n${w.content}\`\`\``).join('\n\n');
        return { text: `Here is the implementation:\n\n${code}`, usage };
      }
      case 'emptyReply': {
        if (turn.step > 0) return { text: plan.implementer.report, usage };
        if (/empty/i.test(context)) return calls(writesOf(own), plan.implementer.report);
        return { text: '', usage };
      }
      case 'implementerWritesTest':
      case 'testerWritesCode': {
        if (turn.attempt > 1 && turn.step === 0) {
          // Told that its changes were undone, it writes its own files again, and only those.
          if (/undone/i.test(context)) return calls(writesOf(own), mine.report);
          return { text: mine.report, usage };
        }
        if (turn.step > 0) return { text: mine.report, usage };
        const other = mistake === 'implementerWritesTest' ? plan.tester.writes : plan.implementer.writes;
        // The Implementer's copy of the test file leaves out the newest test; the Tester's code is the next cycle's.
        const stray = (other ?? []).map((w) =>
          mistake === 'implementerWritesTest'
            ? { ...w, content: `${w.content.slice(0, w.content.lastIndexOf('\ntest('))}\n` }
            : w,
        );
        return calls(writesOf([...own, ...stray]), mine.report);
      }
      case 'rereadsFile': {
        const target = own[0]!.path;
        const reads = messages.filter((m) => m.tool_calls?.some((c) => c.function.name === 'read_file')).length;
        const wrote = messages.some((m) => m.tool_calls?.some((c) => c.function.name === 'write_file'));
        if (wrote) return { text: plan.implementer.report, usage };
        const told = lastTools.some((t) => /unchanged since you read it/i.test(t));
        if (reads === 0 || (!told && reads <= MAX_REREADS)) return calls([{ name: 'read_file', arguments: { path: target } }]);
        return calls(writesOf(own), plan.implementer.report);
      }
    }
  };
  return { reply, played };
}

/** Chat requests per `role:cycle` (all attempts), as the model received them. */
export function requestsPerTurn(requests: readonly RecordedRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const req of requests) {
    const t = turnOf((req.body as { messages: Message[] }).messages);
    const key = `${t.role}:${t.cycle}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
