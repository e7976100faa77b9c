/** Whether a path of a checkout is the repository's (tracked by git) or the person's own (untracked). */
import { realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { productGit } from '../hostGit/gitClient';

/** True when git tracks `path` itself or any file below it, in the repository `path` lies in (`git ls-files`). */
async function listedByGit(path: string): Promise<boolean> {
  // Asked from the folder the path is in, so it answers for whichever repository holds it (a subfolder of a monorepo,
  // an activated environment elsewhere); outside any repository git fails, and nothing is tracked.
  const { run } = productGit(dirname(path), { repositoryConfigOnly: true });
  const listed = await run(['ls-files', '-z', '--', basename(path)]).catch(() => '');
  return listed !== '';
}

/**
 * True when `path` (a virtual environment, an interpreter), or the folder it leads to, is tracked by git: then it is the
 * repository's code, committed by whoever wrote the repository, not the person's installation, and nothing of it may be
 * used or run as the person's environment. A path in no repository is untracked.
 */
export async function isTrackedByGit(path: string): Promise<boolean> {
  if (await listedByGit(path)) return true;
  const real = await realpath(path).catch(() => path);
  return real !== path && (await listedByGit(real));
}
