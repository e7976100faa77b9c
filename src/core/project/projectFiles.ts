import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { readTreeEntry } from '../workspaceSandbox/untrustedTree';
import { walkFiles } from '../testRunners/testFiles';

/** Largest file the profile reads (a manifest or a runner configuration is far smaller). */
export const MAX_PROJECT_FILE_BYTES = 1024 * 1024;

/**
 * A file's text, or undefined when it does not exist, is not a regular file (a FIFO is never waited on), is over 1 MiB
 * or is a link that leads out of the project. The repository is untrusted input (a clone): a `Cargo.toml` or
 * `setup.cfg` linked to `~/.aws/credentials` must not be read by the host, where what the profile takes from it could
 * reach the panel or a prompt. A link within the project (`phpunit.xml` → `config/phpunit.xml`) is followed; the file
 * it reaches is read as the untrusted tree is (`untrustedTree.ts`: no link followed on the way, `O_NOFOLLOW`).
 */
export async function readProjectFile(root: string, path: string): Promise<string | undefined> {
  try {
    const realRoot = await realpath(root);
    const inside = relative(realRoot, await realpath(join(root, path)));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
    const entry = await readTreeEntry(realRoot, inside, MAX_PROJECT_FILE_BYTES);
    return entry.kind === 'file' ? entry.content.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** True when `path` (relative to `root`) is a folder. */
export async function isProjectFolder(root: string, path: string): Promise<boolean> {
  try {
    return (await stat(join(root, path))).isDirectory();
  } catch {
    return false;
  }
}

/** The names in a folder (empty when it does not exist or cannot be read). */
export async function folderEntries(root: string, path = '.'): Promise<string[]> {
  return readdir(join(root, path)).catch(() => [] as string[]);
}

/**
 * Files of the project (relative, forward slashes), skipping dependencies, caches, build output and hidden
 * folders, at most `limit` files and 8 folders deep: enough to see where tests live, never a full scan of a
 * large repository.
 */
export async function projectFiles(root: string, limit = 2000): Promise<string[]> {
  return walkFiles(root, { limit, enter: (name) => !name.startsWith('.') && !name.endsWith('.egg-info') });
}

/**
 * True when `name` (a file at the root) is a manifest: `package.json`, `pyproject.toml`, `setup.cfg`, `setup.py`,
 * `requirements*.txt`, `go.mod`, `pom.xml`, `build.gradle(.kts)`, `composer.json`, `phpunit.xml(.dist)`.
 */
export function isManifestName(name: string): boolean {
  return /^(package\.json|pyproject\.toml|setup\.cfg|setup\.py|requirements.*\.txt|go\.mod|Cargo\.toml|pom\.xml|build\.gradle(?:\.kts)?|composer\.json|phpunit\.xml(?:\.dist)?|Gemfile|\.rspec|[^/]+\.gemspec)$/.test(
    name,
  );
}

/** The manifests at the root of `root`, sorted: a folder with one is a project, and never gets a scaffold. */
export async function projectManifests(root: string): Promise<string[]> {
  return (await folderEntries(root)).filter(isManifestName).sort();
}
