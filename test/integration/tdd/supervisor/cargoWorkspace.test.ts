import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { requireCargo } from '../../../support/rustToolchain';
import { requireBubblewrap } from '../../osSandbox/fixture';
import { fileOnBranch, initPersonRepo, SessionHarness } from './sessionHarness';

const WORKSPACE = resolve(__dirname, '../../../fixtures/cargo-test-output/workspace');
const FILES = [
  'Cargo.toml',
  'Cargo.lock',
  'crates/count/Cargo.toml',
  'crates/count/src/lib.rs',
  'crates/count/src/tally/mod.rs',
  'crates/shout-words/Cargo.toml',
  'crates/shout-words/src/lib.rs',
  'crates/shout-words/tests/basic.rs',
];
const COUNT = 'crates/count/src/lib.rs';
const TESTS_END = '        assert_eq!(super::words("a b c"), 3);\n    }\n';

/**
 * A Cargo workspace at the session's root (a virtual manifest, `members = ["crates/*"]`): cargo names each test
 * binary's file relative to its member, and the session places each test in its member's file. The Tester's new test
 * in a member's `mod tests` is red by its identity (the member does not compile: the function is not written yet), the
 * Implementer's function makes it green, and the whole workspace's tests are counted, each with its file — in
 * bubblewrap, with the real cargo offline.
 */
describe('TDD supervisor: a Cargo workspace root, each test in its member’s file (real cargo in the sandbox)', function () {
  this.timeout(400_000);
  const h = new SessionHarness();
  before(async function () {
    requireCargo(this);
    await requireBubblewrap(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('a new test in crates/count is red by identity, then green; every member’s test has its file', async () => {
    const files = Object.fromEntries(FILES.map((f) => [f, readFileSync(join(WORKSPACE, f), 'utf8')]));
    // The fixture's recorded failures, fixed: the person's workspace is green.
    files['crates/count/src/tally/mod.rs'] = files['crates/count/src/tally/mod.rs']!.replace('tally(&[]), 1)', 'tally(&[]), 0)');
    files['crates/shout-words/src/lib.rs'] = files['crates/shout-words/src/lib.rs']!.replace('shout(""), "!")', 'shout(""), "")');
    await initPersonRepo(h.workspace, { ...files, '.gitignore': '/target\n' });
    const test = `${TESTS_END}\n    #[test]\n    fn counts_lines() {\n        assert_eq!(super::lines("a\\nb"), 2);\n    }\n`;
    const code = 'pub fn words(text: &str) -> usize {';
    const { summary, events } = await h.run(
      {
        cycles: [
          {
            tester: { edits: [{ path: COUNT, edits: [{ search: TESTS_END, replace: test }] }], report: 'counts lines' },
            implementer: {
              edits: [
                {
                  path: COUNT,
                  edits: [
                    { search: code, replace: `pub fn lines(text: &str) -> usize {\n    text.lines().count()\n}\n\n${code}` },
                  ],
                },
              ],
              report: 'lines',
            },
          },
        ],
      },
      { kataPath: undefined, task: 'Add lines(text): how many lines a text has', maxCycles: 2, testTimeoutMs: 240_000 },
    );
    assert.deepEqual(
      summary.cycles.map((c) => [c.outcome, c.tests.passed, c.tests.failed]),
      [
        ['green', 7, 0],
        ['kata_complete', 7, 0],
      ],
      JSON.stringify(summary.error),
    );
    assert.match((await fileOnBranch(h.workspace, summary.branch, COUNT)) ?? '', /pub fn lines/);
    const runs = events.flatMap((e) => (e.type === 'test_run_finished' && e.testCases ? [e] : []));
    const last = runs.at(-1)!.testCases!;
    assert.deepEqual(
      last.map((t) => t.file).sort(),
      [
        'crates/count/src/lib.rs',
        'crates/count/src/lib.rs',
        'crates/count/src/tally/mod.rs',
        'crates/shout-words/src/lib.rs',
        'crates/shout-words/src/lib.rs',
        'crates/shout-words/src/lib.rs',
        'crates/shout-words/tests/basic.rs',
      ],
      'every test has its member’s file (the doc-test too)',
    );
    assert.ok(last.some((t) => t.id === 'crates/count/src/lib.rs::tests > counts_lines' && t.outcome === 'passed'));
  });
});
