import { posix } from 'node:path';
import { readTreeEntry } from '../../workspaceSandbox/untrustedTree';
import { TestReportError } from '../errors';
import { cargoTestCounts, RESULT_LINE } from '../parsers/cargoTestOutput';
import { stripAnsi, type TestCounts } from '../parsers/testCounts';
import type { TestCaseOutcome, TestCaseResult } from '../types';
import { cargoPackages, packageOfBinary } from './cargoPackages';
import { failureMessage, onePerId, testCase, type ParsedReport, type ReportContext } from './reportedTest';

/**
 * `cargo test` on a stable toolchain has no machine-readable report: libtest's `--format json` needs nightly
 * (`-Z unstable-options`), and RUSTC_BOOTSTRAP is not ours to set. What it prints is regular enough to read test by
 * test, and is read here:
 * - a header per test binary names the file it was built from: `Running unittests src/lib.rs (target/…/words-…)` (a
 *   crate's unit tests), `Running tests/shouting.rs (…)` (an integration test file), `Doc-tests words` (the crate's
 *   doc-tests, each named `src/lib.rs - shout (line 7)`);
 * - then one line per test, `test counting::tests::counts_words ... ok` (`FAILED`, `ignored`, `ignored, <reason>`),
 *   its name the module path inside the binary's crate;
 * - a failed test's output in its own section, `---- counting::tests::counts_words stdout ----`, up to the next
 *   section or the `failures:` list;
 * - `test result: FAILED. 2 passed; 2 failed; 1 ignored; …` per binary.
 * `--no-fail-fast` is added so that every binary runs when one fails (cargo stops at the first otherwise).
 */

const RUNNING = /^\s*Running (?:unittests )?(\S+) \((.+)\)\s*$/;
const DOC_TESTS = /^\s*Doc-tests (\S+)\s*$/;
const TEST_LINE = /^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?)\s*$/;
const SECTION = /^---- (.+?) std(?:out|err) ----\s*$/;
const DOC_TEST_NAME = /^(\S+\.rs) - (.+?)(?: \(line (\d+)\))?(?: - (?:compile fail|should panic))?$/;

/** One test line as read, with the binary it ran in. */
interface CargoTestLine {
  /** The file the binary was built from (`src/lib.rs`, `tests/shouting.rs`), relative to its package. */
  target: string;
  /** The binary's name without its hash (`words`, `shouting`); for doc-tests, the crate's name. */
  binary: string;
  doc: boolean;
  name: string;
  outcome: TestCaseOutcome;
}

/** A module's folder for its own `mod x;` declarations: a crate root's or `mod.rs`'s own folder, else `<file stem>/`. */
function moduleFolder(file: string, root: boolean): string {
  const dir = posix.dirname(file);
  if (root || posix.basename(file) === 'mod.rs') return dir;
  return posix.join(dir, posix.basename(file, '.rs'));
}

/**
 * The file a test's module path leads to from its binary's crate root: each leading module is `<folder>/<name>.rs` or
 * `<folder>/<name>/mod.rs` while one exists (`counting::tests::counts_words` from `src/lib.rs` → `src/counting.rs`),
 * and the first module with no file of its own is inline (`mod tests { … }`), where the walk stops. `#[path]` is not
 * read. Returns the file and the rest of the path, inside it.
 */
async function placeTest(
  root: string,
  segments: readonly string[],
  exists: (file: string) => Promise<boolean>,
): Promise<{ file: string; path: string[] }> {
  let file = root;
  let folder = moduleFolder(root, true);
  let i = 0;
  for (; i < segments.length - 1; i++) {
    const name = segments[i]!;
    const flat = posix.join(folder, `${name}.rs`);
    const nested = posix.join(folder, name, 'mod.rs');
    const next = (await exists(flat)) ? flat : (await exists(nested)) ? nested : undefined;
    if (!next) break;
    file = next;
    folder = moduleFolder(next, false);
  }
  return { file, path: segments.slice(i) };
}

/** What the run printed per test: the test lines, in order, and each failed test's section. */
function readLines(text: string): { tests: CargoTestLine[]; sections: Map<string, string[]> } {
  const tests: CargoTestLine[] = [];
  const sections = new Map<string, string[]>();
  let target: string | undefined;
  let binary = '';
  let doc = false;
  let section: string[] | undefined;
  for (const line of stripAnsi(text).replace(/\r\n/g, '\n').split('\n')) {
    const running = RUNNING.exec(line);
    const docTests = DOC_TESTS.exec(line);
    if (running || docTests) {
      section = undefined;
      target = running ? running[1]! : '';
      binary = running ? posix.basename(running[2]!).replace(/-[0-9a-f]{8,}$/, '') : docTests![1]!;
      doc = !running;
      continue;
    }
    const head = SECTION.exec(line);
    if (head && target !== undefined) {
      section = [];
      sections.set(`${binary}\0${doc}\0${head[1]}`, section);
      continue;
    }
    if (section && (/^(?:failures|successes):\s*$/.test(line) || RESULT_LINE.test(line))) {
      section = undefined;
      continue;
    }
    if (section) {
      if (section.length < 200) section.push(line);
      continue;
    }
    const test = TEST_LINE.exec(line);
    if (test && target !== undefined) {
      const word = test[2]!;
      const outcome: TestCaseOutcome = word === 'ok' ? 'passed' : word === 'FAILED' ? 'failed' : 'skipped';
      tests.push({ target, binary, doc, name: test[1]!.replace(/ - should panic$/, ''), outcome });
    }
  }
  return { tests, sections };
}

/**
 * Reads `cargo test`'s console output test by test (see above). Each test's file is the one its module path leads to
 * from its binary's source file (unit tests in an inline `mod tests` are tests of the file that holds the module), its
 * name the rest of the path (`src/counting.rs::tests > counts_words`); an integration test's file is its
 * `tests/*.rs`; a doc-test is `doc-test > <item>` of the file it is written in. In a workspace cargo names each
 * binary's file relative to its member, not which member: the member is the one that has that file (or, when several
 * have it, the one whose crate the binary is named after, see {@link packageOfBinary}); a test whose member cannot be
 * told keeps its binary and file in its name, with no file. Throws {@link TestReportError} when the output names no test
 * binary at all (the build failed, or this is not cargo's output).
 */
export async function parseCargoTestReport(text: string, ctx: ReportContext): Promise<ParsedReport> {
  const { tests: lines, sections } = readLines(text);
  const counts = cargoTestCounts(text);
  if (!counts && lines.length === 0)
    throw new TestReportError('The cargo test output names no test binary.', { runner: 'cargo-test' });
  const packages = await cargoPackages(ctx.workspace);
  const known = new Map<string, boolean>();
  const exists = async (file: string): Promise<boolean> => {
    if (!known.has(file)) {
      const entry = await readTreeEntry(ctx.workspace, file, 0).catch(() => undefined);
      known.set(file, entry?.kind === 'file' || entry?.kind === 'too_large');
    }
    return known.get(file)!;
  };
  const tests: TestCaseResult[] = [];
  for (const line of lines) {
    const output = sections.get(`${line.binary}\0${line.doc}\0${line.name}`);
    const message = line.outcome === 'failed' ? (failureText(output ?? []) ?? 'failed') : undefined;
    if (line.doc) {
      const m = DOC_TEST_NAME.exec(line.name);
      // Doc-tests are named by their file relative to the workspace (`crates/words/src/lib.rs - shout (line 3)`).
      const file = m && packages.length > 0 && (await exists(m[1]!)) ? m[1]! : undefined;
      const item = m ? m[2]! : line.name;
      tests.push(
        testCase({
          path: file ? ['doc-test', item] : [line.binary, 'doc-test', m ? `${m[1]} - ${item}` : item],
          file,
          outcome: line.outcome,
          message,
          line: m?.[3] ? Number(m[3]) : undefined,
        }),
      );
      continue;
    }
    const segments = line.name.split('::');
    const pkg = await packageOfBinary(packages, line.target, line.binary, exists);
    if (!pkg) {
      tests.push(testCase({ path: [`${line.binary} (${line.target})`, ...segments], outcome: line.outcome, message }));
      continue;
    }
    const placed = await placeTest(posix.join(pkg.dir, line.target), segments, exists);
    tests.push(testCase({ path: placed.path, file: placed.file, outcome: line.outcome, message }));
  }
  const unique = onePerId(tests);
  return { tests: unique, counts: counts ?? countsOf(lines) };
}

function countsOf(lines: readonly CargoTestLine[]): TestCounts {
  return {
    passed: lines.filter((l) => l.outcome === 'passed').length,
    failed: lines.filter((l) => l.outcome === 'failed').length,
    total: lines.length,
  };
}

/** A failed test's message: its section without the blank lines around it and the backtrace note. */
function failureText(lines: readonly string[]): string | undefined {
  const kept = lines.filter((l) => !/^note: run with `RUST_BACKTRACE=/.test(l));
  return failureMessage(kept.join('\n').trim());
}
