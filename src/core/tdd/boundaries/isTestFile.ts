import { looksLikeTestFile, TEST_DIR } from '../../testRunners/testFiles';
import type { Kata } from '../kata/kataSchema';

function normalize(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

/**
 * True when a workspace-relative path belongs to the tests: anything under the kata's `testDir`, the
 * usual naming conventions (`*.test.*`, `*.spec.*`, `test_*.py`, `*_test.py`, files under `test/`,
 * `tests/`, `__tests__/`), and pytest's `conftest.py` (test support code). Everything else is production.
 */
export function isTestFile(path: string, kata?: Pick<Kata, 'testDir'>): boolean {
  const p = normalize(path);
  const testDir = kata ? normalize(kata.testDir) : '';
  if (testDir && testDir !== '.' && (p === testDir || p.startsWith(`${testDir}/`))) return true;
  const name = p.slice(p.lastIndexOf('/') + 1);
  if (name === 'conftest.py') return true;
  if (TEST_DIR.test(p)) return true; // any file there, not only source files (fixtures, data)
  return looksLikeTestFile(p);
}
