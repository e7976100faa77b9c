import type { RecordedRequest, ScriptedReply, ScriptedToolCall } from './openaiServer';

/**
 * A careful player (issue 35): before it edits a file, it makes sure it has seen that file whole. It plays a scripted
 * model (`scriptedKataModel(...).reply`, whose turns write and edit files with the exact text they expect to find),
 * and when a message of that model would edit or overwrite an existing file that is not whole in the turn's context
 * (its `## <path>` block absent, or cut to fit the budget) and that the turn has not read yet, it first answers with
 * `read_file` calls for those files, one round, as a model that reads before it edits does; the scripted turn then
 * goes on as planned. What a real model pays for a file it cannot see: one more request, and the file in the
 * conversation anyway.
 *
 * `reads` lists every file it had to read, by role, cycle and attempt.
 */
export function readingPlayer(play: (req: RecordedRequest) => ScriptedReply): {
  reply: (req: RecordedRequest) => ScriptedReply;
  reads: FileRead[];
} {
  const reads: FileRead[] = [];
  let counter = 0;
  const reply = (req: RecordedRequest): ScriptedReply => {
    const messages = (req.body?.messages ?? []) as ChatMessage[];
    // The scripted model counts its rounds by the assistant messages of the turn: it is shown the turn without the
    // player's own reading rounds, so its plan goes on where it stood.
    const readIds = new Set<string>();
    const read = new Set<string>();
    const kept: ChatMessage[] = [];
    for (const m of messages) {
      const calls = m.role === 'assistant' ? (m.tool_calls ?? []) : [];
      if (calls.length > 0 && calls.every((c) => c.function?.name === 'read_file')) {
        for (const c of calls) {
          readIds.add(c.id);
          read.add(pathOf(c.function?.arguments));
        }
        continue;
      }
      if (m.role === 'tool' && m.tool_call_id !== undefined && readIds.has(m.tool_call_id)) continue;
      kept.push(m);
    }
    const answer = play({ ...req, body: { ...req.body, messages: kept } });
    if (!('toolCalls' in answer)) return answer;
    const context = messages
      .filter((m) => m.role === 'user')
      .map((m) => (typeof m.content === 'string' ? m.content : ''))
      .join('\n');
    const unseen = new Set<string>();
    for (const call of answer.toolCalls) {
      const path = pathOf(call.arguments);
      if (!path || read.has(path) || wholeInContext(context, path)) continue;
      // An edit needs the file; a write_file overwrites one the context names (a new file has nothing to read).
      if (call.name === 'edit_file' || (call.name === 'write_file' && context.includes(path))) unseen.add(path);
    }
    if (unseen.size === 0) return answer;
    const { role, cycle, attempt } = turnOf(messages);
    for (const path of unseen) reads.push({ role, cycle, attempt, path });
    const calls: ScriptedToolCall[] = [...unseen].map((path) => ({
      id: `read_${++counter}`,
      name: 'read_file',
      arguments: { path },
    }));
    return { toolCalls: calls, usage: { prompt_tokens: 100, completion_tokens: 10 } };
  };
  return { reply, reads };
}

/** A file the player read before editing it, because its turn's context did not show it whole. */
export interface FileRead {
  role: string;
  cycle: number;
  attempt: number;
  path: string;
}

/** True when the context shows `path` whole: its `## <path>` block is there and was not cut to fit the budget. */
export function wholeInContext(context: string, path: string): boolean {
  const head = `## ${path}\n\`\`\`\n`;
  const start = context.indexOf(head);
  if (start < 0) return false;
  const body = context.slice(start + head.length);
  const block = body.slice(0, body.indexOf('\n```'));
  return !/…\[\d+ characters cut to fit the context budget/.test(block);
}

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function?: { name?: string; arguments?: string } }>;
}

function pathOf(args: unknown): string {
  const value = typeof args === 'string' ? (JSON.parse(args) as unknown) : args;
  const path = (value as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : '';
}

function turnOf(messages: ChatMessage[]): { role: string; cycle: number; attempt: number } {
  const text = (m?: ChatMessage): string => (typeof m?.content === 'string' ? m.content : '');
  const user = text(messages.find((m) => m.role === 'user'));
  return {
    role: /^agent: (\w+)\//.exec(text(messages.find((m) => m.role === 'system')))?.[1] ?? 'unknown',
    cycle: Number(/- cycle: (\d+)/.exec(user)?.[1] ?? 0),
    attempt: Number(/- attempt: (\d+)/.exec(user)?.[1] ?? 0),
  };
}
