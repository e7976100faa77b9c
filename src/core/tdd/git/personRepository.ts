import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { projectManifests } from '../../project/projectFiles';
import { AgentError } from '../../errors/agentError';
import { productGit, type GitRun } from '../../hostGit/gitClient';

/**
 * What a session needs to know about the person's repository, read without changing anything: no
 * index refresh, no lock, no hook. `commonDir` is where the session keeps its own records.
 */
export interface PersonRepository {
  /** The person's working tree root (a real path). */
  root: string;
  /** The repository's common git dir (`.git` of the main worktree), absolute. */
  commonDir: string;
  /** The checked-out commit, or null when the branch has no commit yet. */
  head: string | null;
  /** The checked-out branch, or null when HEAD is detached. */
  branch: string | null;
}

/** The folder a session was asked to run in, before anything was created. */
export type WorkspaceFacts =
  | { kind: 'missing'; path: string }
  | { kind: 'folder'; path: string }
  | {
      kind: 'repository';
      path: string;
      repository: PersonRepository;
      /**
       * The project's folder inside the repository when the person named one with a manifest of its own (a workspace
       * package: `packages/app`), relative to the root with forward slashes; absent at the root.
       */
      folder?: string;
    };

async function gitOutput(run: GitRun, args: string[]): Promise<string> {
  return (await run(args).catch(() => '')).trim();
}

/**
 * Reads the facts of the person's repository at `dir`. A folder inside a repository is a session on that folder's
 * project when it has a manifest of its own (a workspace package of a monorepo): the session's worktree is the whole
 * repository's, its tests run in that folder (`folder`). Any other folder inside a repository is refused (the session
 * would work on a whole repository the person did not name).
 */
export async function inspectWorkspace(dir: string, env?: NodeJS.ProcessEnv): Promise<WorkspaceFacts> {
  const given = resolve(dir);
  const info = await stat(given).catch(() => undefined);
  if (!info) return { kind: 'missing', path: given };
  if (!info.isDirectory()) throw new AgentError('VALIDATION', `Workspace ${given} is not a folder.`, { workspace: given });
  const root = await realpath(given); // git reports real paths (e.g. /private/tmp on macOS)
  const { git, run } = productGit(root, { env });
  if (!(await git.checkIsRepo())) return { kind: 'folder', path: root };
  const top = await realpath(await gitOutput(run, ['rev-parse', '--show-toplevel'])).catch(() => '');
  if (top && top !== root && (await projectManifests(root)).length > 0) {
    return {
      kind: 'repository',
      path: root,
      repository: await readRepository(top, env),
      folder: relative(top, root).split(sep).join('/'),
    };
  }
  if (top !== root) {
    throw new AgentError(
      'CONFIG',
      `Workspace ${root} is inside the git repository at ${top || '(unknown)'} but is not its root, and has no manifest of its own (package.json, pyproject.toml, …). Use ${top || 'the repository root'} or a project folder inside it as the workspace, or a folder outside any repository.`,
      { workspace: root, repository: top },
    );
  }
  return { kind: 'repository', path: root, repository: await readRepository(root, env) };
}

/** The facts of an existing repository whose root is `root`. */
export async function readRepository(root: string, env?: NodeJS.ProcessEnv): Promise<PersonRepository> {
  const { run } = productGit(root, { env });
  const common = await gitOutput(run, ['rev-parse', '--git-common-dir']);
  const commonDir = await realpath(isAbsolute(common) ? common : join(root, common));
  const head = (await gitOutput(run, ['rev-parse', '--verify', '-q', 'HEAD^{commit}'])) || null;
  const branch = (await gitOutput(run, ['symbolic-ref', '--short', '-q', 'HEAD'])) || null;
  return { root, commonDir, head, branch };
}

/** `git init` in a folder that is not a repository yet (only once the preflight has passed). */
export async function initRepository(root: string, env?: NodeJS.ProcessEnv): Promise<PersonRepository> {
  const { run } = productGit(root, { env });
  await run(['init', '-q', '-b', 'main']);
  return readRepository(root, env);
}
