import type { ChangedFile } from '../git/changedFiles';
import { ROLE_TITLES, type Role } from '../../vocabulary';
import { isTestFile, type TestFileRules } from './isTestFile';

/** One of the three TDD roles (the list is `ROLES` in the core's vocabulary). */
export type TddRole = Role;

/** Files a test run's toolchain writes itself (cargo's `Cargo.lock`): no role's change, whoever's turn it was. */
const TOOLCHAIN_WRITTEN = /(?:^|\/)Cargo\.lock$/;

/** Which rule a change broke. */
export type BoundaryRule =
  | 'tester_changed_production'
  | 'implementer_changed_tests'
  | 'refactorer_deleted_tests'
  | 'tests_decreased'
  /** Judged test by test (the runner reports each test): tests that passed before fail after the Tester's turn. */
  | 'tester_broke_tests'
  /** Judged test by test: more than one new test fails after the Tester's turn. */
  | 'tester_added_several_failing';

/** One broken rule, with the path involved (if any) and a sentence the role can act on. */
export interface BoundaryViolation {
  rule: BoundaryRule;
  path?: string;
  message: string;
}

/** Test counts around the role's turn (totals from the supervisor's own runs); omitted when unknown. */
export interface BoundaryTestCounts {
  testsBefore?: number;
  testsAfter?: number;
  /** To recognise test files: the kata's test_dir and source_dir, and the project profile's test file patterns. */
  kata?: TestFileRules;
}

/**
 * Checks a role's changes (from the diff, never from its report) against the TDD rules:
 * - the Tester may change only test files — creating a production file, even an empty stub, is a
 *   violation (a test that fails because the module does not exist yet is the intended red);
 * - the Implementer may not add, modify or delete test files;
 * - the Refactorer may restructure code and tests but not delete a test file;
 * - in a code file with tests inside it (a change with `regions`), the Tester may change only those tests and the
 *   Implementer only the code around them;
 * - for every role, the number of tests never goes down.
 * Returns every violation (empty when the turn is within bounds).
 */
export function checkRoleBoundary(
  role: TddRole,
  changes: readonly ChangedFile[],
  counts: BoundaryTestCounts = {},
): BoundaryViolation[] {
  const violations: BoundaryViolation[] = [];
  const who = ROLE_TITLES[role];
  for (const change of changes) {
    if (TOOLCHAIN_WRITTEN.test(change.path)) continue;
    if (change.regions && !isTestFile(change.path, counts.kata)) {
      const broken = regionViolation(role, change.path, change.regions);
      if (broken) violations.push(broken);
      continue;
    }
    const test = isTestFile(change.path, counts.kata);
    if (role === 'tester' && !test) {
      const patterns = counts.kata?.testFilePatterns;
      const which = patterns?.length ? ` Test files are those matching ${patterns.join(', ')}.` : '';
      violations.push({
        rule: 'tester_changed_production',
        path: change.path,
        message: `The ${who} may only change test files, but ${change.path} (production code) was ${change.change}.${which} Write the failing test only; the Implementer writes the code.`,
      });
    } else if (role === 'implementer' && test) {
      violations.push({
        rule: 'implementer_changed_tests',
        path: change.path,
        message: `The ${who} may not change test files, but ${change.path} was ${change.change}. Make the tests pass by changing production code only.`,
      });
    } else if (role === 'refactorer' && test && change.change === 'deleted') {
      violations.push({
        rule: 'refactorer_deleted_tests',
        path: change.path,
        message: `The ${who} may not delete test files, but ${change.path} was deleted. Refactoring keeps every test.`,
      });
    }
  }
  const { testsBefore, testsAfter } = counts;
  if (testsBefore !== undefined && testsAfter !== undefined && testsAfter < testsBefore) {
    violations.push({
      rule: 'tests_decreased',
      message: `The number of tests went down from ${testsBefore} to ${testsAfter}; no role may remove tests.`,
    });
  }
  return violations;
}

/**
 * The rule for a code file with tests inside it (Rust's `#[cfg(test)] mod tests`): the Tester may change only its test
 * regions, the Implementer only the code around them; the Refactorer may change both.
 */
function regionViolation(
  role: TddRole,
  path: string,
  regions: NonNullable<ChangedFile['regions']>,
): BoundaryViolation | undefined {
  const who = ROLE_TITLES[role];
  if (role === 'tester' && regions.code)
    return {
      rule: 'tester_changed_production',
      path,
      message: `The ${who} may change only the tests inside ${path} (its test module), but the code outside them changed. Write the failing test only; the Implementer writes the code.`,
    };
  if (role === 'implementer' && regions.tests)
    return {
      rule: 'implementer_changed_tests',
      path,
      message: `The ${who} may not change the tests inside ${path} (its test module), but they changed. Make the tests pass by changing the code outside that module only.`,
    };
  return undefined;
}

/**
 * The violations as one hint for the role's next attempt. With `undone`, only those paths were put back (the rest of
 * the attempt stands) and the hint names them; without it, the whole attempt was undone.
 */
export function describeViolations(
  violations: readonly Pick<BoundaryViolation, 'message'>[],
  undone?: readonly string[],
): string {
  if (violations.length === 0) return '';
  const what = !undone
    ? 'Your changes were undone because they broke the role rules'
    : undone.length === 1
      ? `Your change to ${undone[0]} was undone because it broke the role rules (your other changes stand)`
      : `Your changes to ${undone.join(', ')} were undone because they broke the role rules (your other changes stand)`;
  return `${what}:\n${violations.map((v) => `- ${v.message}`).join('\n')}`;
}
