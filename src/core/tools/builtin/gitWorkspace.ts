import { realpath } from 'node:fs/promises';
import { simpleGit, type SimpleGit } from 'simple-git';
import { gitEnvironment } from '../../hostGit/gitEnvironment';
import type { ToolContext } from '../types';
import { BuiltinToolError } from './errors';

/** A simple-git handle on the workspace, plus its real root. */
export interface WorkspaceGit {
  git: SimpleGit;
  root: string;
}

/** A simple-git handle on `root` with the scrubbed git environment and `signal`; `config` adds `-c key=value` pairs. */
export function workspaceGit(root: string, signal: AbortSignal, config: string[] = []): SimpleGit {
  const { env, allow } = gitEnvironment();
  return simpleGit({ baseDir: root, abort: signal, config, allowEnvironment: allow }).env(env);
}

/**
 * Opens git on the workspace root with a scrubbed environment and the call's abort signal.
 * Throws a clear BuiltinToolError when the workspace is not inside a git repository.
 */
export async function openWorkspaceGit(context: ToolContext, toolName: string): Promise<WorkspaceGit> {
  const root = await realpath(context.workspaceRoot);
  const git = workspaceGit(root, context.signal);
  const isRepo = await git.checkIsRepo().catch(() => false);
  if (!isRepo) {
    throw new BuiltinToolError(toolName, 'The workspace is not a git repository (run `git init` first). Nothing was changed.');
  }
  return { git, root };
}

/** Wraps a git failure in a BuiltinToolError that says what failed and what did not happen. */
export function gitFailure(toolName: string, what: string, error: unknown, consequence: string): BuiltinToolError {
  const message = error instanceof Error ? error.message.trim() : String(error);
  return new BuiltinToolError(toolName, `${what} failed: ${message}. ${consequence}`);
}
