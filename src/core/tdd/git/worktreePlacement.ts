import { realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { AgentError } from '../../errors/agentError';
import type { PersonRepository } from './personRepository';

/** The real path of `path`, resolving the part that exists (a folder not created yet keeps its remaining names). */
async function realpathOfExisting(path: string): Promise<string> {
  const rest: string[] = [];
  let current = resolve(path);
  for (;;) {
    const real = await realpath(current).catch(() => undefined);
    if (real !== undefined) return join(real, ...rest.reverse());
    const parent = dirname(current);
    if (parent === current) return resolve(path);
    rest.push(basename(current));
    current = parent;
  }
}

const within = (path: string, folder: string): boolean => path === folder || path.startsWith(folder + sep);

/**
 * Refuses a folder for session worktrees inside the person's working tree or inside their repository's git
 * data (e.g. `TDD_AGENT_CACHE_DIR` set to a folder of the project): the session's files would show up in the
 * person's `git status`, their tools and their test runs, and generated code would write next to their files.
 * Throws a CONFIG AgentError before anything is created.
 */
export async function assertWorktreesRootOutside(worktreesRoot: string, repo: PersonRepository): Promise<void> {
  const real = await realpathOfExisting(worktreesRoot);
  const places: Array<[string, string]> = [
    [repo.root, 'the working tree'],
    [repo.commonDir, 'the git data'],
  ];
  // The main working tree of a repository whose checkout the person runs from a linked worktree.
  if (basename(repo.commonDir) === '.git') places.push([dirname(repo.commonDir), 'the main working tree']);
  for (const [folder, what] of places) {
    if (!within(real, folder)) continue;
    throw new AgentError(
      'CONFIG',
      `The folder for session worktrees, ${worktreesRoot}, is inside ${what} of the repository (${folder}). ` +
        'Set TDD_AGENT_CACHE_DIR (or the worktrees folder option) to a folder outside the repository. Nothing was created.',
      { worktreesRoot, repository: repo.root, inside: folder },
    );
  }
}
