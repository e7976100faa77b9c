import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readNamedText } from '../namedFiles/readNamedFile';
import { walkFiles } from '../testRunners/testFiles';

/** Largest file the profile reads (a manifest or a runner configuration is far smaller). */
export const MAX_PROJECT_FILE_BYTES = 1024 * 1024;

/**
 * A file's text, or undefined when it does not exist, is not a regular file (a FIFO is never waited on) or is over
 * 1 MiB: read as every named file is (`readNamedFile.ts`).
 */
export async function readProjectFile(root: string, path: string): Promise<string | undefined> {
  return readNamedText(join(root, path), { maxBytes: MAX_PROJECT_FILE_BYTES }).catch(() => undefined);
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
