/** A commit's root as a dependency plan reads it: through git, never the worktree's files, which may be the agents'. */
import type { GitRun } from '../../hostGit/gitClient';

/** A commit's root entries (name → `blob` / `tree`), a reader of its files, and git's ignore check where it is checked out. */
export interface CommitTree {
  entries: Map<string, string>;
  read: (path: string) => Promise<string | null>;
  ignored: (path: string) => Promise<boolean>;
  /** The folders below the root whose `package.json` the commit holds (workspace packages), outside any node_modules. */
  packageFolders: () => Promise<string[]>;
}

/** The root of `commit` read through `run` (files through git: a worktree's files may be the agents'). */
export async function commitTree(run: GitRun, commit: string): Promise<CommitTree> {
  const listing = await run(['ls-tree', '-z', commit]).catch(() => '');
  const entries = new Map<string, string>();
  for (const line of listing.split('\0')) {
    const m = /^\d+ (\w+) [0-9a-f]+\t(.+)$/.exec(line);
    if (m) entries.set(m[2]!, m[1]!);
  }
  return {
    entries,
    read: (path) =>
      entries.get(path) === 'blob' ? run(['cat-file', 'blob', `${commit}:${path}`]).catch(() => null) : Promise.resolve(null),
    packageFolders: async () =>
      (await run(['ls-tree', '-r', '-z', '--name-only', commit]).catch(() => ''))
        .split('\0')
        .filter((path) => path.endsWith('/package.json') && !/(^|\/)node_modules\//.test(path))
        .map((path) => path.slice(0, -'/package.json'.length)),
    // check-ignore prints the path when it is ignored (its exit code 1 without output reads as success here).
    ignored: (path) =>
      run(['check-ignore', '--', path]).then(
        (out) => out.trim() !== '',
        () => false,
      ),
  };
}
