import type { TestCaseResult, TestRunResult } from '../../testRunners/types';

/**
 * What the supervisor knows of the suite at the last green state, test by test: which tests passed, and which
 * already failed before the session started (the baseline's known failures, never blamed on a role). Empty sets
 * with `identified: false` when the runner gave counts only.
 */
export interface SuiteState {
  identified: boolean;
  /** Ids of the tests that passed at the last green state. */
  passing: ReadonlySet<string>;
  /** Ids of every test the last green state ran. */
  known: ReadonlySet<string>;
  /** Ids of the tests that failed at the baseline run, before any role's turn. */
  knownFailures: ReadonlySet<string>;
}

/** The suite as a run left it: its passing tests become the ones that must keep passing. */
export function suiteStateOf(run: TestRunResult, knownFailures: ReadonlySet<string> = new Set()): SuiteState {
  if (!run.tests) return { identified: false, passing: new Set(), known: new Set(), knownFailures };
  return {
    identified: true,
    passing: new Set(run.tests.filter((t) => t.outcome === 'passed').map((t) => t.id)),
    known: new Set(run.tests.map((t) => t.id)),
    knownFailures,
  };
}

/** The baseline's failing tests: listed to the person, then excluded from judgement. */
export function failingTests(run: TestRunResult): TestCaseResult[] {
  return (run.tests ?? []).filter((t) => t.outcome === 'failed');
}

/** How a Tester's turn left the suite, judged test by test. */
export type RedVerdict =
  /** Exactly one new test fails and every test that passed before still passes. */
  | { kind: 'red'; test: TestCaseResult }
  /** No test fails beyond the known failures: the new test passed without production code. */
  | { kind: 'overshoot' }
  /** More than one new test fails: one behaviour per cycle. */
  | { kind: 'too_many'; tests: TestCaseResult[] }
  /** Tests that passed before fail now: the Implementer may not touch tests, so it could never mend them. */
  | { kind: 'broke_old'; tests: TestCaseResult[] }
  /** The runner gave no per-test results: judge by counts as before. */
  | { kind: 'unidentified' };

/**
 * Red by identity: the failing tests of `after` that are not known failures are either new (not in the last green
 * run, or in it without having passed) or old tests that passed there. Broken old tests are reported first, since
 * fixing them is the Tester's job; then more than one new failure; then none at all (an overshoot).
 */
export function judgeRed(before: SuiteState, after: TestRunResult): RedVerdict {
  if (!before.identified || !after.tests) return { kind: 'unidentified' };
  // A test file that did not load is no test: node:test reports it as one failed "test" named after the file.
  const unexpected = failingTests(after).filter((t) => !before.knownFailures.has(t.id) && !isFileEntry(t));
  const brokeOld = unexpected.filter((t) => before.passing.has(t.id));
  if (brokeOld.length > 0) return { kind: 'broke_old', tests: brokeOld };
  if (unexpected.length > 1) return { kind: 'too_many', tests: unexpected };
  if (unexpected.length === 0) return { kind: 'overshoot' };
  return { kind: 'red', test: unexpected[0]! };
}

/**
 * A run's entry for a whole test file rather than a test: node:test reports a file that failed to load as one failed
 * test named after the file (in a session of a repository's folder, the file carries the folder in front). Only a
 * script can fail to load: pytest names a text file's doctest (`docs/index.rst::index.rst`) after its file too, and
 * that is a test.
 */
export function isFileEntry(test: TestCaseResult): boolean {
  return (
    test.file !== undefined && SCRIPT_FILE.test(test.file) && (test.name === test.file || test.file.endsWith(`/${test.name}`))
  );
}

/** A JavaScript or TypeScript file: what node:test reports as a file entry when it does not load. */
const SCRIPT_FILE = /\.[cm]?[jt]sx?$/;

/** Kinds of `error` runs in which test files did not load (a name or module missing, an import or collection error). */
const LOAD_ERRORS: ReadonlySet<string> = new Set(['missing_module', 'missing_export', 'import', 'collection', 'crash']);

/** A run in which test files did not load, so that some tests (or all) did not run. */
export interface LoadFailure {
  /** The test files the run says did not load; empty when it does not say (pytest and mocha stop the whole run). */
  files: string[];
  /**
   * The ids of the tests that passed at the last green state, in the files the run covered, and did not run now;
   * undefined when the run does not say test by test.
   */
  notRun?: string[];
  /** Why, in one line (the runner's diagnosis, or the failing file's message). */
  reason: string;
  /** What was missing, when the runner said: a name a module does not export, or a module. */
  missing?: { kind: 'name' | 'module'; name: string };
}

/**
 * The load failure of a run, if it had one: an `error` run that could not load test files (a missing module or name,
 * an import or collection error), or a failed run that reports a whole file as failed (node:test's file entry).
 */
export function loadFailureOf(before: SuiteState, run: TestRunResult): LoadFailure | undefined {
  const fileEntries = (run.tests ?? []).filter((t) => t.outcome === 'failed' && isFileEntry(t));
  const errored = run.status === 'error' && run.errorKind !== undefined && LOAD_ERRORS.has(run.errorKind);
  if (!errored && fileEntries.length === 0) return undefined;
  const missing =
    run.missingName && (run.errorKind === 'missing_export' || run.errorKind === 'missing_module')
      ? { kind: run.errorKind === 'missing_export' ? ('name' as const) : ('module' as const), name: run.missingName }
      : undefined;
  return {
    files: fileEntries.map((t) => t.file!),
    notRun: testsNotRun(before, run),
    reason: run.reason ?? fileEntries[0]?.message ?? 'a test file did not load',
    ...(missing ? { missing } : {}),
  };
}

/**
 * The tests that passed at the last green state, in the files the run covered (all of them for a whole-suite run), and
 * that the run does not report: they did not run. Undefined when either run does not say test by test.
 */
export function testsNotRun(before: SuiteState, run: TestRunResult): string[] | undefined {
  if (!before.identified || !run.tests) return undefined;
  const reported = new Set(run.tests.map((t) => t.id));
  const files = run.scope === 'related' ? run.relatedFiles : undefined;
  const inScope = (id: string): boolean => !files || files.some((f) => id.startsWith(`${f}::`));
  return [...before.passing].filter((id) => inScope(id) && !reported.has(id));
}

/**
 * Green by identity: every test passes except the baseline's known failures. Undefined when the run has no per-test
 * results (then its status decides, as before).
 */
export function stillFailing(before: SuiteState, after: TestRunResult): TestCaseResult[] | undefined {
  if (!after.tests) return undefined;
  return failingTests(after).filter((t) => !before.knownFailures.has(t.id));
}

/** Names for a person and a role: `test/x.test.ts › parses "1EB" as exabytes`, one per line, at most `max`. */
export function testNames(tests: readonly TestCaseResult[], max = 10): string {
  const lines = tests
    .slice(0, max)
    .map((t) => `- ${t.file ? `${t.file} › ` : ''}${t.name}${t.message ? `: ${firstLine(t.message)}` : ''}`);
  if (tests.length > max) lines.push(`- and ${tests.length - max} more`);
  return lines.join('\n');
}

/** The behaviour a test names, for a commit subject: its own title (the last part of its full name), on one line. */
export function behaviourOf(test: TestCaseResult): string {
  const title = firstLine(test.name.split(' > ').at(-1) ?? test.name);
  // Go: `TestBuzzForMultiplesOfFive` is "buzz for multiples of five"; PHPUnit's `testBuzzForMultiplesOfFive` too.
  // JUnit: `buzzForMultiplesOfFive` (a parameterized invocation `fizz(int)[1]` is its method's) likewise.
  const java = JAVA_TEST_NAME.exec(title);
  const camel = GO_TEST_NAME.test(title) || PHP_TEST_NAME.test(title) ? title.slice(4) : java ? java[1]! : undefined;
  const words =
    camel !== undefined
      ? camel
          .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
          .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
          .toLowerCase()
      : title;
  return (
    words
      .replace(/^(test_|test |it |should )/i, '')
      .replace(/_/g, ' ')
      .trim() || test.name
  );
}

/** A Go test function's name: `Test` and a word that does not start with a lower-case letter. */
const GO_TEST_NAME = /^Test[A-Z0-9_]\w*$/;
/** A PHPUnit test method's name in camel case: `test` and a word that starts with a capital (`testFizzForThree`). */
const PHP_TEST_NAME = /^test[A-Z0-9]\w*$/;
/** A JUnit test method in camel case (`fizzForThree`), and a parameterized test's invocation (`fizz(int)[1]`). */
const JAVA_TEST_NAME = /^([a-z][a-z0-9]*[A-Z]\w*|[a-z]\w*(?=\())(?:\([\w.,\s<>[\]]*\)\[\d+\])?$/;

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim().slice(0, 200);
}
