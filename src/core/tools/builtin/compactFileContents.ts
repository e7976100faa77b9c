import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../llm/types';

/** Shorter than this, a file version stays as it is: the note would save nothing. */
const MIN_COMPACTED_CHARS = 200;

/** Where one whole version of a file sits in the conversation: a write_file call's content or a read_file result. */
interface FileVersion {
  path: string;
  message: number;
  /** The tool call (write_file) or the tool message answering it (read_file). */
  kind: 'written' | 'read';
  callId: string;
  /** The text the model has of this version (the written content, or the read result), when it is a string. */
  text?: string;
}

/** A read_file result equal to the version of its file the conversation already holds: answered with a note. */
interface UnchangedRead {
  message: number;
  path: string;
  /** The version above whose text it repeats. */
  since: FileVersion;
}

/**
 * For a tool loop's `compactMessages`: every whole version of a file the model wrote (`write_file`'s `content`) or
 * read (`read_file`'s result) that a later whole version of the same path supersedes is replaced by a one-line note
 * with its path, size and hash, so a turn does not send each earlier version of a file again in every request.
 * An `edit_file` call is small and is kept: the model needs it with the version it applies to. A `read_file` result
 * that repeats, word for word, the version of that file the conversation already holds (the file did not change since
 * the model read or wrote it) is not a new version: it is answered with a note that says so and where, and the version
 * above stays whole. Messages, tool calls and their ids all stay; only the superseded or repeated text shrinks. The
 * latest version of each path is never touched, and everything before the first superseded version is unchanged, which
 * keeps the cached prefix.
 */
export function compactFileContents(messages: ChatMessage[]): ChatMessage[] {
  const versions: FileVersion[] = [];
  const unchanged: UnchangedRead[] = [];
  const latest = new Map<string, FileVersion>();
  const add = (version: FileVersion): void => {
    versions.push(version);
    latest.set(version.path, version);
  };
  const readCalls = new Map<string, string>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        const args = fileArguments(call.function.arguments);
        if (!args?.path) continue;
        if (call.function.name === 'write_file')
          add({ path: args.path, message: index, kind: 'written', callId: call.id, text: args.content });
        else if (call.function.name === 'read_file') readCalls.set(call.id, args.path);
      }
    } else if (message.role === 'tool') {
      const path = readCalls.get(message.tool_call_id);
      if (!path) return;
      // A failed read (the executor's `Error: ...`) holds no version of the file: never called unchanged.
      const text = typeof message.content === 'string' && !message.content.startsWith('Error: ') ? message.content : undefined;
      const before = latest.get(path);
      if (text !== undefined && before?.text === text) unchanged.push({ message: index, path, since: before });
      else add({ path, message: index, kind: 'read', callId: message.tool_call_id, text });
    }
  });
  const superseded = versions.filter((v) => latest.get(v.path) !== v);
  if (superseded.length === 0 && unchanged.length === 0) return messages;

  const out = [...messages];
  for (const read of unchanged) {
    const message = out[read.message]!;
    if (message.role === 'tool') out[read.message] = { ...message, content: unchangedNote(read) };
  }
  for (const version of superseded) {
    const message = out[version.message]!;
    if (version.kind === 'read' && message.role === 'tool') {
      if (typeof message.content !== 'string' || message.content.length < MIN_COMPACTED_CHARS) continue;
      out[version.message] = { ...message, content: `[read_file result: ${note(version.path, message.content)}]` };
    } else if (version.kind === 'written' && message.role === 'assistant') {
      out[version.message] = {
        ...message,
        tool_calls: message.tool_calls?.map((call) =>
          call.id === version.callId && call.type === 'function' ? compactWrite(call) : call,
        ),
      };
    }
  }
  return out;
}

type ToolCallMessage = Extract<
  NonNullable<Extract<ChatMessage, { role: 'assistant' }>['tool_calls']>[number],
  { type: 'function' }
>;

/** A write_file call whose content is replaced by the note (still valid JSON arguments). */
function compactWrite(call: ToolCallMessage): ToolCallMessage {
  let args: { path?: unknown; content?: unknown };
  try {
    args = JSON.parse(call.function.arguments) as typeof args;
  } catch {
    return call;
  }
  if (typeof args.content !== 'string' || args.content.length < MIN_COMPACTED_CHARS || typeof args.path !== 'string') return call;
  const compacted = { ...args, content: `[${note(args.path, args.content)}]` };
  return { ...call, function: { ...call.function, arguments: JSON.stringify(compacted) } };
}

/** The one line that stands for a superseded version. */
function note(path: string, text: string): string {
  const bytes = Buffer.byteLength(text);
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return `${path}, ${bytes} bytes, sha256 ${hash}; superseded by a newer version of this file later in the conversation`;
}

/** The note that answers a read repeating the version above: the file is unchanged since then, and where that is. */
function unchangedNote(read: UnchangedRead): string {
  const since = read.since.kind === 'read' ? 'you read it' : 'you wrote it';
  return `[read_file result: ${read.path} is unchanged since ${since} at call ${read.since.callId}; its content is above, not sent again.]`;
}

/** The `path` (and `content`) arguments of a file tool's call, when its arguments are JSON with a string path. */
function fileArguments(raw: string): { path: string; content?: string } | undefined {
  if (!raw.includes('"path"')) return undefined;
  try {
    const args = JSON.parse(raw) as { path?: unknown; content?: unknown };
    if (typeof args.path !== 'string') return undefined;
    return typeof args.content === 'string' ? { path: args.path, content: args.content } : { path: args.path };
  } catch {
    return undefined;
  }
}
