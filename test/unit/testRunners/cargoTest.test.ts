import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeProblem, diagnoseLoadError } from '../../../src/core/testRunners/diagnoseLoadError';
import { cargoTestCounts } from '../../../src/core/testRunners/parsers/cargoTestOutput';
import { packageOfBinary } from '../../../src/core/testRunners/reports/cargoPackages';
import { parseCargoTestReport } from '../../../src/core/testRunners/reports/cargoTestReport';
import { reportingCommand, runnerCall } from '../../../src/core/testRunners/reports/reportCommand';
import { RUNNER_REPORTS } from '../../../src/core/testRunners/reports/runnerReports';
import { identifyRunner } from '../../../src/core/testRunners/runnerKinds';
import { addedTests, seesPackageNames, testsInSource, usesName } from '../../../src/core/tdd/phases/addedTests';
import { testTitlesIn } from '../../../src/core/testRunners/testTitles';

/** Real `cargo test` output of cargo 1.95, recorded in test/fixtures/cargo-test-output (see its README). */
const FIXTURES = resolve('test/fixtures/cargo-test-output');
const recorded = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const ctx = (output: string, workspace = join(FIXTURES, 'crate')) => ({ workspace, realWorkspace: workspace, output });

describe('cargo test: the runner, its console output read test by test, its compile errors', () => {
  it('names `cargo test` as its runner and adds --no-fail-fast right after `test`', () => {
    assert.equal(identifyRunner('cargo test'), 'cargo-test');
    assert.equal(identifyRunner('RUST_LOG=debug cargo +stable test --workspace'), 'cargo-test');
    assert.equal(identifyRunner('cargo build'), 'custom');
    assert.equal(runnerCall('cargo test --all-features')?.kind, 'cargo-test');
    const flags = (): string[] => ['--no-fail-fast'];
    assert.equal(reportingCommand('cargo test', undefined, flags)?.command, 'cargo test --no-fail-fast');
    assert.equal(reportingCommand('cargo test --release', undefined, flags)?.command, 'cargo test --no-fail-fast --release');
    // -q prints a dot per test instead of its name: the command runs as written, and only its counts are read.
    assert.equal(reportingCommand('cargo test -q', undefined, flags), undefined);
  });

  it("runs cargo with its stderr in its stdout's pipe: a binary's header (stderr) stays before its tests (stdout)", () => {
    const files = { report: 'r.json', absoluteReport: '/w/r.json', reporter: 'r.cjs' };
    const adapter = RUNNER_REPORTS['cargo-test'];
    assert.equal(adapter.source, 'output');
    assert.equal(
      reportingCommand('cargo test', undefined, () => adapter.flags(files))?.command,
      'cargo test --no-fail-fast 2>&1',
    );
    assert.equal(
      reportingCommand('cargo test --workspace', undefined, () => adapter.flags(files))?.command,
      'cargo test --no-fail-fast 2>&1 --workspace',
    );
  });

  it('reads each unit, integration and doc-test by the file its module path leads to, with what a failing one printed', async () => {
    const text = recorded('mixed.txt');
    const { tests, counts } = await parseCargoTestReport(text, ctx(text));
    assert.deepEqual(
      tests.map((t) => [t.id, t.outcome]),
      [
        ['src/counting.rs::tests > counts_words', 'passed'],
        ['src/lib.rs::tests > shouts_a_word', 'passed'],
        ['src/counting.rs::tests > prints_then_fails', 'failed'],
        ['src/lib.rs::tests > shouts_an_empty_word', 'failed'],
        ['src/lib.rs::tests > shouts_in_greek', 'skipped'],
        ['tests/shouting.rs::shouts_twice', 'passed'],
        ['tests/shouting.rs::nested > panics_with_a_message', 'failed'],
        ['src/lib.rs::doc-test > shout', 'passed'],
      ],
    );
    const byId = new Map(tests.map((t) => [t.id, t]));
    assert.match(
      byId.get('src/lib.rs::tests > shouts_an_empty_word')!.message!,
      /^thread 'tests::shouts_an_empty_word' \(\d+\) panicked at src\/lib\.rs:25:9:\nassertion `left == right` failed\n {2}left: "!"\n right: "\?"$/,
    );
    assert.match(
      byId.get('src/counting.rs::tests > prints_then_fails')!.message!,
      /^counting 'x y'\n\nthread .* panicked at src\/counting\.rs:18:9:\nexpected more than two words$/,
    );
    assert.match(
      byId.get('tests/shouting.rs::nested > panics_with_a_message')!.message!,
      /panicked at tests\/shouting\.rs:11:9:\nboom$/,
    );
    assert.equal(byId.get('src/lib.rs::doc-test > shout')!.line, 7);
    // The counts are the sum of every binary's `test result:` line: ignored tests count in the total, as skipped.
    assert.deepEqual(counts, { passed: 4, failed: 3, total: 8 });
    assert.deepEqual(cargoTestCounts(text), counts);
  });

  it("a workspace root: each test is placed in its member's file (cargo names the file relative to the member, and the binary)", async () => {
    const text = recorded('workspace.txt');
    const { tests, counts } = await parseCargoTestReport(text, ctx(text, join(FIXTURES, 'workspace')));
    const seen = tests.map((t) => [t.id, t.outcome]);
    assert.deepEqual(seen, [
      ['crates/count/src/tally/mod.rs::tests > tallies_nothing', 'failed'],
      ['crates/count/src/lib.rs::tests > counts_words', 'passed'],
      ['crates/shout-words/src/lib.rs::tests > shouts_a_word', 'passed'],
      ['crates/shout-words/src/lib.rs::tests > shouts_an_empty_word', 'failed'],
      ['crates/shout-words/tests/basic.rs::shouts_from_outside', 'passed'],
      ['crates/shout-words/src/lib.rs::doc-test > shout', 'passed'],
    ]);
    assert.match(tests[0]!.message!, /left: 0\n\s*right: 1/);
    assert.deepEqual(counts, { passed: 4, failed: 2, total: 6 });
  });

  it('a member is told by the file cargo names, else by the binary named after its crate; two that fit are none', async () => {
    const packages = [
      { dir: 'crates/a', crate: 'a' },
      { dir: 'crates/b', crate: 'b' },
    ];
    const files = new Set([
      'crates/a/src/lib.rs',
      'crates/b/src/lib.rs',
      'crates/a/tests/basic.rs',
      'crates/b/tests/basic.rs',
      'crates/b/tests/only.rs',
    ]);
    const exists = async (file: string) => files.has(file);
    assert.equal((await packageOfBinary(packages, 'tests/only.rs', 'only', exists))?.dir, 'crates/b');
    assert.equal((await packageOfBinary(packages, 'src/lib.rs', 'a', exists))?.dir, 'crates/a');
    assert.equal(await packageOfBinary(packages, 'tests/basic.rs', 'basic', exists), undefined);
    assert.equal(await packageOfBinary(packages, 'src/main.rs', 'a', exists), undefined);
  });

  it('a folder without a Cargo.toml: no package is known, so its tests keep their binary and file in their name', async () => {
    const text = recorded('mixed.txt');
    const { tests } = await parseCargoTestReport(text, ctx(text, join(FIXTURES, 'no-such-workspace')));
    assert.ok(tests.every((t) => t.file === undefined));
    assert.ok(tests.some((t) => t.name === 'words (src/lib.rs) > counting > tests > counts_words'));
  });

  it('a new test calling a function the crate does not have: its name is missing (E0425, E0599, E0432), and red', async () => {
    for (const [file, line] of [
      ['undefined.txt', 'src/lib.rs: error[E0425]: cannot find function `whisper` in this scope'],
      ['method.txt', 'src/lib.rs: error[E0599]: no method named `whisper` found for struct `String` in the current scope'],
      ['import.txt', 'tests/whispering.rs: error[E0432]: unresolved import `words::whisper`'],
    ] as const) {
      const problem = diagnoseLoadError(recorded(file), 'cargo-test');
      assert.deepEqual(problem, { kind: 'missing_export', line, module: 'whisper' }, file);
      assert.match(describeProblem(problem!), /^'whisper' does not exist yet — /);
      await assert.rejects(parseCargoTestReport(recorded(file), ctx(recorded(file))), /names no test binary/);
    }
    // The new test is found in the file's test module, and it uses the missing name.
    const before = readFileSync(join(FIXTURES, 'crate/src/lib.rs'), 'utf8');
    const after = before.replace(
      '    #[test]\n    fn shouts_an_empty_word',
      '    #[test]\n    fn whispers_a_word() {\n        assert_eq!(whisper("HEY"), "hey...");\n    }\n\n    #[test]\n    fn shouts_an_empty_word',
    );
    const added = addedTests('src/lib.rs', before, after);
    assert.deepEqual(
      added.map((t) => t.title),
      ['whispers_a_word'],
    );
    assert.ok(seesPackageNames('src/lib.rs') && usesName(added[0]!.body, 'whisper'));
    assert.deepEqual(
      testsInSource('src/lib.rs', before).map((t) => t.title),
      ['shouts_a_word', 'shouts_an_empty_word', 'shouts_in_greek'],
    );
    assert.deepEqual(testTitlesIn('tests/shouting.rs', readFileSync(join(FIXTURES, 'crate/tests/shouting.rs'), 'utf8')), [
      'shouts_twice',
      'panics_with_a_message',
    ]);
  });

  it('a test that does not parse (rustc’s error without a code) is a syntax error: back to the Tester', () => {
    assert.deepEqual(diagnoseLoadError(recorded('syntax.txt'), 'cargo-test'), {
      kind: 'syntax',
      line: 'src/lib.rs: error: mismatched closing delimiter: `}`',
    });
    // A run whose tests ran, failing or not, is no load error.
    assert.equal(diagnoseLoadError(recorded('mixed.txt'), 'cargo-test'), undefined);
  });
});
