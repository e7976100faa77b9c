import path from 'node:path';
import type { LlmToolCall } from '../../llm/types';
import type { AgentToolbox, ToolCallResult } from '../../tools/types';

/** Default of `maxFilesPerTurn`: distinct files one role turn may write. */
export const DEFAULT_MAX_FILES_PER_TURN = 50;

/** The tools that write a file named by their `path` parameter. */
const WRITING_TOOLS = new Set(['write_file', 'edit_file']);

/**
 * A toolbox around `toolbox` through which at most `maxFiles` distinct files can be written with
 * `write_file` / `edit_file`. Writing a file already written (or edited) again is always allowed; a call
 * that would touch one file more is refused before it reaches the tools — nothing is written — and its
 * result tells the model why and what to do instead. A write that fails frees its slot again. Other tools
 * pass through untouched. Make one per role turn: the count lives in the wrapper.
 */
export function limitFilesWritten(toolbox: AgentToolbox, maxFiles: number): AgentToolbox {
  const written = new Set<string>();
  return {
    toolSpecs: () => toolbox.toolSpecs(),
    async executeCall(call, options) {
      if (!WRITING_TOOLS.has(call.name)) return toolbox.executeCall(call, options);
      // The tool loop hands over the arguments it already parsed: a whole file's content is not parsed again here.
      const args = options?.parsedArguments ?? safeParse(call.arguments);
      const target = pathArgument(args);
      if (target === undefined) return toolbox.executeCall(call, options);
      const key = normalizeWorkspacePath(target);
      const isNew = !written.has(key);
      if (isNew && written.size >= maxFiles) {
        const refusal = (): Promise<ToolCallResult> => Promise.resolve(refuse(call, target, maxFiles));
        return options?.wrap ? options.wrap(call.name, refusal, args) : refusal();
      }
      if (isNew) written.add(key);
      const result = await toolbox.executeCall(call, options);
      if (!result.ok && isNew) written.delete(key);
      return result;
    },
  };
}

function refuse(call: LlmToolCall, target: string, maxFiles: number): ToolCallResult {
  const content =
    `Not executed: one turn may write at most ${maxFiles} different files, and this turn has already written ${maxFiles}; ` +
    `'${target.slice(0, 200)}' would be one more. Nothing was written. Change only the files you have already written, ` +
    `or end your turn with your report.`;
  return {
    toolName: call.name,
    callId: call.id,
    ok: false,
    content,
    error: { error_code: 'TOOL_DENIED', message: content },
    approval: 'policy_denied',
    durationMs: 0,
  };
}

/** The `path` argument of a call's arguments, or undefined when they have no string `path` (the tool reports that). */
function pathArgument(args: unknown): string | undefined {
  const value = args && typeof args === 'object' ? (args as { path?: unknown }).path : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** One spelling per file: forward slashes, no `./`, no `a/../`. */
function normalizeWorkspacePath(raw: string): string {
  return path.posix
    .normalize(raw.trim().replace(/\\/g, '/'))
    .replace(/^(?:\.\/)+/, '')
    .replace(/\/+$/, '');
}

function safeParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
