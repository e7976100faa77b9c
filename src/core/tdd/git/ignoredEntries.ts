/** What git ignores in the person's checkout: the entries a session's project view shows. */
import { untrustedTreeGit } from '../../hostGit/untrustedTreeGit';

/**
 * The ignored, untracked entries of the person's working tree (`git ls-files --others --ignored --exclude-standard
 * --directory`): a wholly ignored folder once, ending in `/` (`node_modules/`, `.venv/`, `packages/app/node_modules/`),
 * an ignored file by itself (`src/pkg/_version.py`). Read with git's drivers and programs off (the checkout is the
 * person's, but its config came with the repository); an error lists nothing.
 */
export async function ignoredEntries(checkout: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  try {
    const run = await untrustedTreeGit(checkout, { env });
    const out = await run([
      'ls-files',
      '--others',
      '--ignored',
      '--exclude-standard',
      '--directory',
      '--no-empty-directory',
      '-z',
    ]);
    return out.split('\0').filter(Boolean);
  } catch {
    return [];
  }
}
