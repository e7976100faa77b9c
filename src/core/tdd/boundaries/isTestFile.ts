import { matchesTestPattern } from '../../project/testFilePatterns';
import { looksLikeTestFile, TEST_DIR } from '../../testRunners/testFiles';
import type { Kata } from '../kata/kataSchema';

/** What tells test files from production files: the kata's folders and, from the project profile, test file patterns. */
export type TestFileRules = Pick<Kata, 'testDir'> & Partial<Pick<Kata, 'sourceDir' | 'testFilePatterns'>>;

/** A jest or vitest snapshot (`src/__snapshots__/a.test.ts.snap`): the expected values of the test beside it. */
const SNAPSHOT = /(^|\/)__snapshots__\/[^/]+\.snap$/;

function normalize(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/**
 * The kata's test folder when it is a folder of the tests' own: not the root, and neither holding nor inside the
 * source folder (with `test_dir: src` the tests sit beside the code, and `src/index.ts` is still production code).
 */
function dedicatedTestDir(rules?: TestFileRules): string | undefined {
  const testDir = rules ? normalize(rules.testDir) : '';
  if (!testDir || testDir === '.') return undefined;
  const sourceDir = rules?.sourceDir !== undefined ? normalize(rules.sourceDir) : '';
  const overlaps = sourceDir !== '' && sourceDir !== '.' && (within(testDir, sourceDir) || within(sourceDir, testDir));
  return overlaps ? undefined : testDir;
}

/**
 * True when a workspace-relative path belongs to the tests. With the project profile's `testFilePatterns`
 * (`src/**\/*.test.ts`, `tests/**`, `test_*.py`): a file matching one of them; without: the usual naming
 * conventions (`*.test.*`, `*.spec.*`, `test_*.py`, `*_test.py`, files under `test/`, `tests/`, `__tests__/`).
 * Either way pytest's `conftest.py` (test support code), jest's and vitest's snapshots (`__snapshots__/*.snap`, the
 * expected values the Tester writes) and anything under the kata's own test folder — unless
 * that folder is the source folder too (tests beside the code) — count. Everything else is production.
 */
export function isTestFile(path: string, rules?: TestFileRules): boolean {
  const p = normalize(path);
  const name = p.slice(p.lastIndexOf('/') + 1);
  if (name === 'conftest.py' || SNAPSHOT.test(p)) return true;
  const testDir = dedicatedTestDir(rules);
  if (testDir && within(p, testDir)) return true;
  if (rules?.testFilePatterns && rules.testFilePatterns.length > 0) return matchesTestPattern(p, rules.testFilePatterns);
  if (TEST_DIR.test(p)) return true; // any file there, not only source files (fixtures, data)
  return looksLikeTestFile(p);
}
