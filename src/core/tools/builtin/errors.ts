import { AgentError, type ErrorCode } from '../../errors/agentError';

/**
 * A built-in tool could not do what the model asked (file not found, search text absent or
 * ambiguous, nothing to commit, no test runner...). Code `TOOL_FAILED` unless the call itself was
 * malformed (`VALIDATION`). The message tells the model what to do next and whether anything changed.
 */
export class BuiltinToolError extends AgentError {
  /** The tool that failed. */
  readonly toolName: string;

  constructor(toolName: string, message: string, details: Record<string, unknown> = {}, code: ErrorCode = 'TOOL_FAILED') {
    super(code, message, { ...details, toolName });
    this.name = 'BuiltinToolError';
    this.toolName = toolName;
  }
}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'it does not exist',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  EEXIST: 'a file is in the way where a folder is needed',
  ENOSPC: 'the disk is full',
  EROFS: 'the file system is read-only',
  EBUSY: 'the file is busy',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * Runs a file-system step of a tool and turns a raw Node error (whose message holds absolute
 * paths) into a BuiltinToolError about the workspace-relative path. AgentErrors pass through.
 */
export async function withFsErrors<T>(toolName: string, verb: string, relative: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AgentError || (error as Error)?.name === 'AbortError') throw error;
    const code = (error as { code?: string }).code ?? 'UNKNOWN';
    const reason = FS_REASONS[code] ?? `file system error ${code}`;
    throw new BuiltinToolError(toolName, `Cannot ${verb} '${relative}': ${reason} (${code}).`, { path: relative, code });
  }
}
