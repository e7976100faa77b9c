import { realpath } from 'node:fs/promises';
import { simpleGit, type SimpleGit } from 'simple-git';
import { scrubEnv } from '../../process/scrubEnv';
import type { ToolContext } from '../types';
import { BuiltinToolError } from './errors';

/** Author used for commits when git has no `user.name`/`user.email` (e.g. a fresh CI machine). */
export const FALLBACK_AUTHOR = { name: 'TDD Agent', email: 'tdd-agent@localhost' } as const;

// Variables simple-git's environment guard rejects when passed explicitly (they can make git run programs).
const GUARDED_ENV = new Set(['editor', 'pager', 'prefix', 'ssh_askpass', 'visual']);

/**
 * The environment for git: credentials scrubbed (commit hooks must not read API keys), and no
 * `GIT_*`/editor/pager variables, which could redirect git or make it run another program.
 */
export function gitEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(scrubEnv(env))) {
    const key = name.toLowerCase();
    if (value === undefined || key.startsWith('git') || GUARDED_ENV.has(key)) continue;
    clean[name] = value;
  }
  return clean;
}

/** A simple-git handle on the workspace, plus its real root. */
export interface WorkspaceGit {
  git: SimpleGit;
  root: string;
}

/**
 * Opens git on the workspace root with a scrubbed environment and the call's abort signal.
 * `config` adds `-c key=value` pairs. Throws a clear BuiltinToolError when the workspace is not
 * inside a git repository.
 */
export async function openWorkspaceGit(context: ToolContext, toolName: string, config: string[] = []): Promise<WorkspaceGit> {
  const root = await realpath(context.workspaceRoot);
  const git = simpleGit({ baseDir: root, abort: context.signal, config }).env(gitEnvironment());
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
