/** Where a session's install reads the project's manifests: a commit the agents cannot have changed, never the worktree. */
import { AgentError } from '../../errors/agentError';
import { productGit } from '../../hostGit/gitClient';
import type { SessionGitInfo } from '../git/sessionGitInfo';
import type { Kata } from '../kata';
import { scaffoldPlan } from '../scaffold';

/** The files npm reads to know what to install; nothing else of the project reaches the install. */
export const MANIFEST_FILES = ['package.json', 'package-lock.json', 'npm-shrinkwrap.json'] as const;

/** Where the install reads the project's manifests: a commit the agents cannot have changed, never the worktree's files. */
export interface ManifestSource {
  /** For messages: what is read (`commit 1a2b3c4`, `the kata's scaffold`). */
  description: string;
  /** A manifest's content (`package.json`, `package-lock.json`, `npm-shrinkwrap.json`), or null when there is none. */
  read(path: string): Promise<string | null>;
}

/**
 * The manifests a session installs from: at the session's HEAD right after the scaffold commit for a fresh session
 * (call it before any agent turn); on resume, the commit the session started from, or, when that has no package.json,
 * what the kata's scaffold wrote (the scaffold commit holds exactly that), so files the agents changed never count.
 */
export async function sessionManifests(
  info: SessionGitInfo,
  options: { resumed: boolean; kata: Pick<Kata, 'language' | 'slug' | 'title' | 'sourceDir' | 'testDir'> },
): Promise<ManifestSource> {
  const { run } = productGit(info.worktree, { gitDir: info.worktreeGitDir, workTree: info.worktree });
  const at = async (rev: string): Promise<ManifestSource> => {
    const commit = (await run(['rev-parse', '--verify', '-q', `${rev}^{commit}`])).trim();
    if (!/^[0-9a-f]{40,64}$/.test(commit))
      throw new AgentError('CONFIG', `The session's commit ${rev} cannot be read, so its package.json cannot be either.`, {
        rev,
      });
    return {
      description: `commit ${commit.slice(0, 10)}`,
      read: (path) => run(['cat-file', 'blob', `${commit}:${path}`]).catch(() => null),
    };
  };
  if (!options.resumed) return at('HEAD');
  const base = await at(info.baseCommit);
  if ((await base.read('package.json')) !== null) return base;
  const files: Record<string, string> = scaffoldPlan(options.kata.language, options.kata).files;
  return { description: "the kata's scaffold", read: (path) => Promise.resolve(files[path] ?? null) };
}
