import type { RunnerKind } from '../testRunners';
import { LANGUAGES, type Language } from '../vocabulary';

/**
 * How a language's acceptance file runs on a checkout: the folder it is copied to (`.`: the module's root, beside the
 * code, for a file in the code's own package), the command (given the file's name) and the runner that reads its
 * report. The file's own tests are told apart by name where the command may run others (`ownTests`: Go's
 * `TestAcceptance<Function>`, in a package that also holds the session's tests).
 */
export interface AcceptanceRun {
  folder: string;
  kind: RunnerKind;
  command(fileName: string): string;
  ownTests?: RegExp;
}

/** The languages whose acceptance files the eval can run, and how. A language without a row has no eval set yet. */
export const ACCEPTANCE_RUNS: Partial<Record<Language, AcceptanceRun>> = {
  javascript: { folder: 'acceptance', kind: 'node-test', command: (file) => `node --test acceptance/${file}` },
  // tsx resolves the JavaScript tests' `../src/<module>.js` to the `.ts` file.
  typescript: { folder: 'acceptance', kind: 'node-test', command: (file) => `tsx --test acceptance/${file}` },
  python: { folder: 'acceptance', kind: 'pytest', command: () => 'python3 -m pytest acceptance -p no:cacheprovider' },
  go: { folder: '.', kind: 'go-test', command: () => "go test -run '^TestAcceptance' .", ownTests: /^TestAcceptance\w*( > |$)/ },
  // rspec adds --format json itself (reportCommand); the file's examples are the cases, loading lib/ as the session's do.
  ruby: { folder: 'acceptance', kind: 'rspec', command: (file) => `rspec acceptance/${file}` },
  // phpunit adds --log-junit itself (reportCommand); each data set is a case, the class loaded from src/ by require_once.
  php: { folder: 'acceptance', kind: 'phpunit', command: (file) => `phpunit acceptance/${file}` },
  // The class goes in the kata's package beside the session's code; the folder is emptied first, so a test class of the
  // session's there is neither compiled with it (one that does not compile, or has its name, cannot decide the count)
  // nor run, and -Dtest makes Surefire run this class alone. mvn gets -o -B from reportCommand; a case is a @Test method.
  java: {
    folder: 'src/test/java/kata',
    kind: 'maven',
    command: (file) => `mvn test -Dtest=${file.replace(/\.java$/, '')}`,
  },
  // An integration test, tests/<crate>.rs, built and run alone by --test: the session's own tests (inline or in the
  // checkout's tests/, which is cleared for it) are not built, and --no-fail-fast is added by reportCommand.
  rust: { folder: 'tests', kind: 'cargo-test', command: (file) => `cargo test --test ${file.replace(/\.rs$/, '')}` },
};

/** The languages the eval can judge a session in (those with a way to run acceptance tests), in LANGUAGES' order. */
export function acceptanceLanguages(): Language[] {
  return LANGUAGES.filter((l) => ACCEPTANCE_RUNS[l] !== undefined);
}
