import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../errors/agentError';
import type { DangerLevel } from '../vocabulary';
import { isGitInternalPath, protectedPathReason, type PathAccess } from './protectedPaths';
import { SandboxViolationError } from './sandboxError';

/** A model-given path after the sandbox accepted it. */
export interface WorkspacePath {
  /** Absolute path to use for the file operation (inside the real workspace root). */
  absolute: string;
  /** Workspace-relative path with `/` separators (`.` for the root); use it in every message. */
  relative: string;
  /** The real workspace root (symlinks resolved). */
  root: string;
}

const NOTHING_CHANGED = 'Nothing was read or changed.';

/** Turns a path under `root` into a `/`-separated workspace-relative path (`.` for the root). */
export function toWorkspaceRelative(root: string, absolute: string): string {
  const rel = path.relative(root, absolute);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

function refuse(input: string, why: string, details: Record<string, unknown> = {}): never {
  throw new SandboxViolationError(`Refused '${input}': ${why}. ${NOTHING_CHANGED}`, { path: input, ...details });
}

function hasCode(error: unknown, ...codes: string[]): boolean {
  return typeof error === 'object' && error !== null && codes.includes((error as { code?: string }).code ?? '');
}

/**
 * The real location of `candidate`: its realpath when it exists, otherwise the realpath of its
 * nearest existing ancestor joined with the rest. A dangling symlink has no safe real location.
 */
async function realLocation(candidate: string): Promise<{ real: string; dangling: boolean }> {
  try {
    return { real: await realpath(candidate), dangling: false };
  } catch (error) {
    if (!hasCode(error, 'ENOENT', 'ENOTDIR')) throw error;
  }
  try {
    if ((await lstat(candidate)).isSymbolicLink()) return { real: candidate, dangling: true };
  } catch {
    /* does not exist at all: a new file */
  }
  const parent = path.dirname(candidate);
  if (parent === candidate) return { real: candidate, dangling: false };
  const up = await realLocation(parent);
  return { real: path.join(up.real, path.basename(candidate)), dangling: up.dangling };
}

/**
 * Confines a model-given path to the workspace without asking anyone: refuses NUL bytes, `..`
 * traversal out of the root, absolute paths outside it, and symlinks (of the file or of any folder
 * on the way) whose real path leaves it. Use {@link resolveWorkspacePath} before touching a file;
 * this lower step also serves previews, which read but never change anything.
 *
 * @throws SandboxViolationError with a workspace-relative message.
 */
export async function confineToWorkspace(
  workspaceRoot: string,
  input: string,
): Promise<WorkspacePath & { realRelative: string }> {
  if (typeof input !== 'string') refuse(String(input), 'the path must be a string');
  if (input.includes('\0')) refuse(input.replace(/\0/g, '\\0'), 'the path contains a NUL byte');
  let root: string;
  try {
    root = await realpath(workspaceRoot);
  } catch (error) {
    throw new AgentError(
      'CONFIG',
      `The workspace root is not accessible (${(error as { code?: string }).code ?? 'error'}); open an existing folder as the workspace.`,
      {},
      { cause: error },
    );
  }
  const given = input.trim() === '' ? '.' : input;

  let candidate: string;
  if (path.isAbsolute(given)) {
    candidate = path.resolve(given);
    // The host may know the root by a non-real name (e.g. /tmp vs /private/tmp): map it.
    const lexicalRoot = path.resolve(workspaceRoot);
    if (!isInside(root, candidate) && isInside(lexicalRoot, candidate)) {
      candidate = path.join(root, path.relative(lexicalRoot, candidate));
    }
    if (!isInside(root, candidate))
      refuse(input, 'it is an absolute path outside the workspace; use a path relative to the workspace root');
  } else {
    candidate = path.resolve(root, given);
    if (!isInside(root, candidate))
      refuse(input, "it leads outside the workspace through '..'; use a path inside the workspace root");
  }

  const relative = toWorkspaceRelative(root, candidate);
  let located: { real: string; dangling: boolean };
  try {
    located = await realLocation(candidate);
  } catch (error) {
    if (hasCode(error, 'ELOOP')) refuse(input, `'${relative}' goes through a loop of symbolic links`);
    throw error;
  }
  const { real, dangling } = located;
  if (dangling) refuse(input, `'${relative}' goes through a symbolic link whose target does not exist`);
  if (!isInside(root, real)) {
    refuse(input, `'${relative}' is or goes through a symbolic link whose real location is outside the workspace`);
  }
  return { absolute: candidate, relative, root, realRelative: toWorkspaceRelative(root, real) };
}

/**
 * What {@link resolveWorkspacePath} needs from its caller: the workspace root and, optionally, a way to
 * ask a person for a one-off escalation. A tool's `ToolContext` is one.
 */
export interface WorkspaceAccess {
  /** Absolute real path of the workspace root. */
  workspaceRoot: string;
  /** Resolves true when a person approves the escalation; absent means "no one to ask". */
  requestEscalation?: (level: DangerLevel, reason: string) => Promise<boolean>;
}

/**
 * Resolves a model-given path for `access` and enforces the whole sandbox policy:
 * everything `confineToWorkspace` refuses; any write or delete of the workspace root itself
 * or under `.git/` (any depth, any case, also through a symlink); and, for protected paths (see
 * `protectedPaths.ts`), a one-off escalation at HIGH through `context.requestEscalation`. No one
 * to ask, a refusal, or a failing request all refuse.
 *
 * @throws SandboxViolationError whose message says why and that nothing was changed.
 */
export async function resolveWorkspacePath(context: WorkspaceAccess, input: string, access: PathAccess): Promise<WorkspacePath> {
  const resolved = await confineToWorkspace(context.workspaceRoot, input);
  const { relative, realRelative } = resolved;
  if (access !== 'read') {
    if (relative === '.' || realRelative === '.')
      refuse(input, `it names the workspace root itself, which cannot be ${access === 'write' ? 'written' : 'deleted'}`);
    if (isGitInternalPath(relative) || isGitInternalPath(realRelative)) {
      refuse(
        input,
        `'${relative}' is inside .git; git's internal files are never ${access === 'write' ? 'written' : 'deleted'} by tools (use git_commit)`,
      );
    }
  }
  const reason = protectedPathReason(relative, access) ?? protectedPathReason(realRelative, access);
  if (reason) {
    const verb = access === 'read' ? 'Reading' : access === 'write' ? 'Writing' : 'Deleting';
    const ask = `${verb} '${relative}' needs a one-off approval at HIGH: ${reason}`;
    if (!context.requestEscalation) refuse(input, `${ask}, and there is no one to ask in this session`, { protected: true });
    let approved: boolean;
    try {
      approved = await context.requestEscalation('HIGH', ask);
    } catch {
      approved = false;
    }
    if (!approved) refuse(input, `${ask}, and it was not approved`, { protected: true });
  }
  return { absolute: resolved.absolute, relative, root: resolved.root };
}
