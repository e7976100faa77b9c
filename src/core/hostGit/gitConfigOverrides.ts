/** The null device: an empty file for settings that name a file git would otherwise read (global config, attributes). */
export const NULL_DEVICE = process.platform === 'win32' ? 'NUL' : '/dev/null';

/** Where hooks are looked for in every git call of the product: nowhere, so no hook of the repository ever runs. */
export const NO_HOOKS_PATH = NULL_DEVICE;

/**
 * `name=value` settings given as `-c` to every git call of the product, in the person's repository and in a
 * session's worktree: no configured program runs. Hooks point nowhere; no fsmonitor hook or daemon; no pager
 * (`cat` means none); no editor (`:` means none); no external diff (an empty one fails instead of running);
 * no signing or signature check (gpg); no credential helper or askpass program; no automatic gc or maintenance
 * (a child `git gc` on the person's objects, started by how many files generated code wrote).
 */
export const PROGRAM_OVERRIDES: readonly string[] = [
  `core.hooksPath=${NO_HOOKS_PATH}`,
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.editor=:',
  'sequence.editor=:',
  'diff.external=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'log.showSignature=false',
  'credential.helper=',
  'core.askPass=',
  'gc.auto=0',
  'maintenance.auto=false',
];

/**
 * More `-c` settings for git calls on a session's worktree, whose every byte generated code may have written:
 * nested repositories are never entered as submodules (their config would be read and their fsmonitor run),
 * no attributes file outside the repository is read, and no transport is allowed (a lazy fetch of a partial
 * clone would start ssh or a credential helper). Only the repository's own config is read besides these
 * (see `repositoryConfigOnly` of `productGit`).
 */
export const UNTRUSTED_WORKTREE_OVERRIDES: readonly string[] = [
  'submodule.recurse=false',
  'status.submoduleSummary=false',
  'diff.ignoreSubmodules=all',
  `core.attributesFile=${NULL_DEVICE}`,
  'protocol.allow=never',
  'advice.addEmbeddedRepo=false',
];

/** The settings of a driver kind that name a program, and the value that turns each off (verified against git 2.39). */
const DRIVER_PROGRAM_KEYS: Record<'filter' | 'diff' | 'merge', ReadonlyArray<[key: string, off: string]>> = {
  // An empty clean/smudge/process runs nothing; `required=false` keeps git from failing for want of a filter.
  filter: [
    ['clean', ''],
    ['smudge', ''],
    ['process', ''],
    ['required', 'false'],
  ],
  // An empty textconv or command fails the diff ("cannot run") instead of running anything.
  diff: [
    ['textconv', ''],
    ['command', ''],
  ],
  // An empty driver fails the merge of that file instead of running anything.
  merge: [['driver', '']],
};

/** A driver of the repository's config that `-c` cannot turn off (its name contains `=` or a line break). */
export class DriverOverrideError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DriverOverrideError';
  }
}

/**
 * `-c` settings that turn off every filter, diff and merge driver named in `configNames` (the output of
 * `git config --name-only --list`): a `.gitattributes` file in the worktree can select any driver the repository's
 * config defines (`* filter=lfs`), and git would run its program on the worktree's files. Throws for a driver name
 * that `-c` cannot express (a DriverOverrideError), so that it is never left running.
 */
export function driverOverrides(configNames: readonly string[]): string[] {
  const drivers = new Map<string, 'filter' | 'diff' | 'merge'>();
  for (const name of configNames) {
    const first = name.indexOf('.');
    const last = name.lastIndexOf('.');
    if (first < 0 || last <= first) continue; // a two-level key such as diff.external: no driver
    const section = name.slice(0, first).toLowerCase();
    if (section !== 'filter' && section !== 'diff' && section !== 'merge') continue;
    const driver = name.slice(first + 1, last);
    if (driver.includes('=') || driver.includes('\n'))
      throw new DriverOverrideError(
        `The ${section} driver '${driver}' in the repository's config cannot be turned off on git's command line.`,
      );
    drivers.set(`${section}.${driver}`, section);
  }
  const overrides: string[] = [];
  for (const [prefix, section] of drivers)
    for (const [key, off] of DRIVER_PROGRAM_KEYS[section]) overrides.push(`${prefix}.${key}=${off}`);
  return overrides;
}

/** `-c` arguments for `name=value` settings: `['-c', s1, '-c', s2, …]`. */
export function configArgs(settings: readonly string[]): string[] {
  return settings.flatMap((setting) => ['-c', setting]);
}
