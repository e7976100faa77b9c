import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireRspec } from '../../../support/rubyToolchain';
import { requireBubblewrap } from '../../osSandbox/fixture';
import { initPersonRepo, SessionHarness } from './sessionHarness';

const TEST = 'test/words_test.rb';
const CODE = 'lib/words.rb';
const TEST_END = '  def test_counts_words\n    assert_equal 3, Words.count("a b c")\n  end\n';
const CODE_END = '  def self.count(text)\n    text.split.size\n  end\n';

/**
 * A gem tested with minitest through `rake test` (no RSpec): each test is judged by identity from the report our
 * minitest plugin writes, in bubblewrap with the real ruby. The Tester's new test calls a method not written yet (an
 * errored test: red by its identity), the Implementer writes it (green), and a second cycle's new failing test is red
 * the same way; the branch passes `rake test` in a fresh clone.
 */
describe('TDD supervisor: a minitest gem, judged test by test (real ruby and rake in the sandbox)', function () {
  this.timeout(300_000);
  const h = new SessionHarness();
  before(async function () {
    requireRspec(this); // ruby with its minitest and rake
    await requireBubblewrap(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('two cycles red by identity then green, each new test named in the red run; rake test passes in a fresh clone', async () => {
    await initPersonRepo(h.workspace, {
      Gemfile: 'source "https://rubygems.org"\n\ngem "minitest"\ngem "rake"\n',
      Rakefile:
        'require "rake/testtask"\n\nRake::TestTask.new(:test) do |t|\n  t.libs << "lib" << "test"\n  t.pattern = "test/**/*_test.rb"\nend\n\ntask default: :test\n',
      [CODE]: `module Words\n${CODE_END}end\n`,
      [TEST]: `require "minitest/autorun"\nrequire "words"\n\nclass WordsTest < Minitest::Test\n${TEST_END}end\n`,
    });
    const first = '  def test_longest_of_one_word\n    assert_equal "word", Words.longest("word")\n  end\n';
    const second = '  def test_longest_of_several_words\n    assert_equal "three", Words.longest("one three two")\n  end\n';
    const { summary, events } = await h.run(
      {
        cycles: [
          {
            tester: {
              edits: [{ path: TEST, edits: [{ search: TEST_END, replace: `${TEST_END}\n${first}` }] }],
              report: 'one word',
            },
            implementer: {
              edits: [
                {
                  path: CODE,
                  edits: [{ search: CODE_END, replace: `${CODE_END}\n  def self.longest(text)\n    text\n  end\n` }],
                },
              ],
              report: 'the text itself',
            },
          },
          {
            tester: { edits: [{ path: TEST, edits: [{ search: first, replace: `${first}\n${second}` }] }], report: 'several' },
            implementer: {
              edits: [
                { path: CODE, edits: [{ search: '    text\n  end\n', replace: '    text.split.max_by(&:size)\n  end\n' }] },
              ],
              report: 'the longest',
            },
          },
        ],
      },
      { kataPath: undefined, task: 'Add Words.longest(text): the longest word of a text', maxCycles: 3, testTimeoutMs: 120_000 },
    );
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.map((c) => [c.outcome, c.tests.passed, c.tests.failed]),
      [
        ['green', 2, 0],
        ['green', 3, 0],
        ['kata_complete', 3, 0],
      ],
    );
    // Each red run named the Tester's new test by its file, class and name, from the plugin's report.
    const reds = events.flatMap((e) =>
      e.type === 'test_run_finished' && e.role === 'tester' && e.testCases
        ? [e.testCases.filter((t) => t.outcome === 'failed').map((t) => t.id)]
        : [],
    );
    assert.deepEqual(reds, [
      ['test/words_test.rb::WordsTest > test_longest_of_one_word'],
      ['test/words_test.rb::WordsTest > test_longest_of_several_words'],
    ]);
    const clone = mkdtempSync(join(tmpdir(), 'minitest-clone-'));
    try {
      execFileSync('git', ['clone', '-q', '--branch', summary.branch, h.workspace, clone]);
      assert.match(
        execFileSync('rake', ['test'], { cwd: clone, encoding: 'utf8' }),
        /^3 runs, 3 assertions, 0 failures, 0 errors, 0 skips$/m,
      );
      assert.equal(execFileSync('git', ['ls-files', '.tdd'], { cwd: clone, encoding: 'utf8' }), '', 'no plugin in a commit');
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });
});
