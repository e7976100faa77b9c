import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Folders never searched for tests nor shown to the roles (dependencies, VCS data, caches, build output, the session's own state). */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.tdd',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  'dist',
  'build',
  'coverage',
  'vendor', // Composer's (and Go's vendored) dependencies
  'target', // Maven's (and cargo's) build output
]);

const TEST_FILE_NAME =
  /(\.(test|spec)\.[cm]?[jt]sx?$)|(^test\.[cm]?[jt]s$)|(^test_.*\.py$)|(_test\.py$)|(^test-.*\.[cm]?js$)|(-test\.[cm]?js$)|(_test\.[cm]?js$)|(_test\.go$)|(\wTest\.php$)|(\w(?:Test|Tests|TestCase)\.java$)|(^Test\w+\.java$)|(_spec\.rb$)|(_test\.rb$)|(^test_.*\.rb$)/;
/** An integration test of a Cargo crate: a `.rs` file right under its `tests/` folder. */
const CARGO_TEST_TARGET = /(?:^|\/)tests\/[^/]+\.rs$/;
/** A path inside a `test/`, `tests/` or `__tests__/` folder (forward slashes). */
export const TEST_DIR = /(^|\/)(tests?|__tests__)\//;
const SOURCE_EXT = /\.([cm]?[jt]sx?|py|rb|java)$/;

/**
 * True when a workspace-relative path looks like a test file by the usual conventions of node:test,
 * mocha, jest, vitest, pytest, go test, RSpec and PHPUnit: `*.test.*`, `*.spec.*`, `test.js`, `test_*.py`, `*_test.py`, `*_test.go`,
 * RSpec's `*_spec.rb`, minitest's `*_test.rb` and `test_*.rb`, PHPUnit's `*Test.php`, Surefire's `*Test.java`, `*Tests.java`,
 * `*TestCase.java` and `Test*.java`, or a source file
 * under `test/`, `tests/` or `__tests__/`. (The kata's own test_dir is added by the TDD boundaries.)
 */
export function looksLikeTestFile(path: string): boolean {
  const normalized = path.split(sep).join('/').replace(/^\.\//, '');
  const name = normalized.slice(normalized.lastIndexOf('/') + 1);
  if (TEST_FILE_NAME.test(name)) return true;
  return TEST_DIR.test(normalized) && SOURCE_EXT.test(name) && name !== 'conftest.py' && name !== '__init__.py';
}

/**
 * True when a path's file name is a test file's by the runners' naming conventions (`*.test.*`, `*.spec.*`, `test.js`,
 * `test_*.py`, `*_test.py`, `test-*.js`, `*-test.js`, `*_test.js`), wherever it lies: a file a runner runs as tests.
 * A file that only lies in a test folder (a helper, a fixture, `conftest.py`) is test support code, not a test file.
 */
export function hasTestFileName(path: string): boolean {
  const normalized = path.split(sep).join('/');
  // Cargo builds each `.rs` file right under a crate's `tests/` as a test binary (`tests/common/mod.rs` is support code).
  if (CARGO_TEST_TARGET.test(normalized)) return true;
  return TEST_FILE_NAME.test(normalized.slice(normalized.lastIndexOf('/') + 1));
}

/** What {@link walkFiles} looks at: which folders it enters, which files it keeps, how many. */
export interface WalkFilesOptions {
  /** Files kept at most; the walk stops there. */
  limit: number;
  /** False for a folder (by name) not to enter; {@link SKIPPED_DIRS} are never entered. */
  enter?: (name: string) => boolean;
  /** False for a file (workspace-relative, forward slashes) not to keep. */
  keep?: (path: string) => boolean;
}

/**
 * Files below `root` (relative, forward slashes, in name order), at most `limit` and 8 folders deep, skipping
 * dependencies and caches: enough to see where tests live, never a full scan of a large repository. Regular files
 * only; links are neither followed nor listed.
 */
export async function walkFiles(root: string, options: WalkFilesOptions): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (found.length >= options.limit || depth > 8) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (found.length >= options.limit) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && (options.enter?.(entry.name) ?? true)) await walk(path, depth + 1);
      } else if (entry.isFile()) {
        const rel = relative(root, path).split(sep).join('/');
        if (options.keep?.(rel) ?? true) found.push(rel);
      }
    }
  };
  await walk(root, 0);
  return found;
}

/** Test files in a workspace (relative paths), skipping dependencies and caches; stops after `limit`. */
export async function findTestFiles(workspace: string, limit = 50): Promise<string[]> {
  return (await walkFiles(workspace, { limit, keep: looksLikeTestFile })).sort();
}
