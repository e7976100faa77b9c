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
}

/**
 * For a tool loop's `compactMessages`: every whole version of a file the model wrote (`write_file`'s `content`) or
 * read (`read_file`'s result) that a later whole version of the same path supersedes is replaced by a one-line note
 * with its path, size and hash, so a turn does not send each earlier version of a file again in every request.
 * An `edit_file` call is small and is kept: the model needs it with the version it applies to. Messages, tool calls
 * and their ids all stay; only the superseded text shrinks. The latest version of each path is never touched, and
 * everything before the first superseded version is unchanged, which keeps the cached prefix.
 */
export function compactFileContents(messages: ChatMessage[]): ChatMessage[] {
  const versions: FileVersion[] = [];
  const readCalls = new Map<string, string>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        const path = pathArgument(call.function.arguments);
        if (!path) continue;
        if (call.function.name === 'write_file') versions.push({ path, message: index, kind: 'written', callId: call.id });
        else if (call.function.name === 'read_file') readCalls.set(call.id, path);
      }
    } else if (message.role === 'tool') {
      const path = readCalls.get(message.tool_call_id);
      if (path) versions.push({ path, message: index, kind: 'read', callId: message.tool_call_id });
    }
  });
  const latest = new Map<string, FileVersion>();
  for (const version of versions) latest.set(version.path, version);
  const superseded = versions.filter((v) => latest.get(v.path) !== v);
  if (superseded.length === 0) return messages;

  const out = [...messages];
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

/** The `path` argument of a file tool's call, when its arguments are JSON with one. */
function pathArgument(raw: string): string | undefined {
  if (!raw.includes('"path"')) return undefined;
  try {
    const value = (JSON.parse(raw) as { path?: unknown }).path;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
