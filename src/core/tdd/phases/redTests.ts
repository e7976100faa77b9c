import type { TestCaseResult, TestRunResult } from '../../testRunners/types';

/**
 * A test a Tester's red named: by its id when the runner reported it, else by its file and title (a test file that did
 * not load yet reports none of its tests).
 */
export interface RedTest {
  /** `<file>::<full name>`, when the runner reported the test. */
  id?: string;
  file?: string;
  /** The test's own title (the last part of its full name; a Python test's function name). */
  title: string;
  /** The cycle whose red it was. */
  cycle: number;
}

/** True when `test` is the red test `red` (by id, or by file and title). */
export function isRedTest(red: RedTest, test: TestCaseResult): boolean {
  if (red.id !== undefined) return test.id === red.id;
  if (red.file !== undefined && test.file !== red.file) return false;
  return test.name === red.title || test.name.endsWith(` > ${red.title}`) || test.name.endsWith(`::${red.title}`);
}

/** A red test as a person reads it: `test/x.test.js › returns Fizz (red in cycle 2)`. */
export function describeRedTest(red: RedTest): string {
  return `${red.file ? `${red.file} › ` : ''}${red.title} (red in cycle ${red.cycle})`;
}

/**
 * The tests that were red in this session and have not passed in a commit yet. A whole-suite run (or a related run of
 * their file) that reports tests one by one and lacks one of them says it is gone: its cycle was rolled back and no
 * test took its place under the same name, or its name changed (a title built from the code's output). A test that
 * passes in a committed run is settled, a gone one too (the Tester wrote it again).
 */
export class RedTestLedger {
  private open: RedTest[] = [];
  private lost: RedTest[] = [];

  /** The tests a red named: followed until they pass in a commit, or are gone. */
  add(tests: readonly RedTest[]): void {
    this.open.push(...tests);
  }

  /** The tests that are gone and did not come back: none of them is in the branch. */
  get gone(): readonly RedTest[] {
    return this.lost;
  }

  /**
   * Reads a run: the followed tests it should report and does not are gone (returned, and kept as gone). A run that
   * does not say test by test, or did not load its files, says nothing.
   */
  missingFrom(run: TestRunResult): RedTest[] {
    if (!run.tests || (run.status !== 'passed' && run.status !== 'failed')) return [];
    const tests = run.tests;
    const covers = (red: RedTest): boolean =>
      run.scope !== 'related' || (red.file !== undefined && (run.relatedFiles ?? []).includes(red.file));
    const missing = this.open.filter((red) => covers(red) && !tests.some((t) => isRedTest(red, t)));
    this.open = this.open.filter((red) => !missing.includes(red));
    this.lost.push(...missing);
    return missing;
  }

  /** A run was committed: the followed tests that pass in it are settled; returns the gone ones that came back. */
  committed(run: TestRunResult): RedTest[] {
    const passing = (run.tests ?? []).filter((t) => t.outcome === 'passed');
    const passes = (red: RedTest): boolean => passing.some((t) => isRedTest(red, t));
    this.open = this.open.filter((red) => !passes(red));
    const back = this.lost.filter(passes);
    this.lost = this.lost.filter((red) => !back.includes(red));
    return back;
  }
}
