import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUBY_FIZZBUZZ, RUBY_LEAP_YEAR, rubyKataCycles, rubySpecFile } from '../../../support/rubyKataPlans';
import { requireRspec } from '../../../support/rubyToolchain';
import { fileOnBranch, SessionHarness } from './sessionHarness';

/** Cycle 1's example and a new one that passes already: FizzBuzz.of(4) is "4" since cycle 1. */
const alreadyPassing = rubySpecFile(RUBY_FIZZBUZZ, 1).replace(
  /end\n$/,
  `\n  it 'says four as itself' do\n    expect(FizzBuzz.of(4)).to eq('4')\n  end\nend\n`,
);

// The bundled katas played in Ruby by the scripted model, with real rspec runs in the sandbox: the scaffold writes a
// Gemfile, .rspec and spec_helper; the Tester's first spec requires a library that does not exist yet (red: the file
// cannot be loaded, and the new example uses the class that file would define), each later red is one new failing
// example by identity, each green every example passing; an overshoot and an Implementer editing the spec are caught.
describe('TDD supervisor: katas in Ruby (RSpec), with the real toolchain in the sandbox', function () {
  this.timeout(300_000);
  const h = new SessionHarness();
  before(function () {
    requireRspec(this);
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('FizzBuzz: red then green four times, judged example by example, and complete', async () => {
    const { summary } = await h.run({ cycles: rubyKataCycles(RUBY_FIZZBUZZ) }, { kataPath: 'fizzbuzz', language: 'ruby' });
    assert.deepEqual(
      summary.cycles.map((c) => [c.outcome, c.tests.passed, c.tests.failed]),
      [
        ['green', 1, 0],
        ['green', 2, 0],
        ['green', 3, 0],
        ['green', 4, 0],
        ['kata_complete', 4, 0],
      ],
      JSON.stringify(summary.error),
    );
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.equal(await fileOnBranch(h.workspace, summary.branch, RUBY_FIZZBUZZ.source), RUBY_FIZZBUZZ.steps[3]!.impl);
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', summary.branch], { cwd: h.workspace, encoding: 'utf8' });
    assert.deepEqual(files.trim().split('\n').sort(), [
      '.rspec',
      'Gemfile',
      'lib/.gitkeep',
      'lib/fizzbuzz.rb',
      'spec/fizzbuzz_spec.rb',
      'spec/spec_helper.rb',
    ]);
    // Each commit is named after its new example, and the branch passes `rspec` in a fresh clone.
    const subjects = execFileSync('git', ['log', '--format=%s', summary.branch], { cwd: h.workspace, encoding: 'utf8' });
    assert.match(subjects, /^feat: returns the number itself$/m);
    assert.match(subjects, /^feat: says FizzBuzz for multiples of fifteen$/m);
    const clone = mkdtempSync(join(tmpdir(), 'ruby-kata-clone-'));
    try {
      execFileSync('git', ['clone', '-q', '--branch', summary.branch, h.workspace, clone]);
      const out = execFileSync('rspec', [], { cwd: clone, encoding: 'utf8' });
      assert.match(out, /^4 examples, 0 failures$/m);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it('Leap Year: three cycles green, and the untested rule named at the end', async () => {
    const { summary } = await h.run({ cycles: rubyKataCycles(RUBY_LEAP_YEAR) }, { kataPath: 'leap-year', language: 'ruby' });
    assert.deepEqual(
      summary.cycles.map((c) => [c.outcome, c.tests.passed]),
      [
        ['green', 1],
        ['green', 2],
        ['green', 3],
        ['kata_complete', 3],
      ],
      JSON.stringify(summary.error),
    );
    assert.equal(summary.status, 'incomplete');
    assert.deepEqual(summary.untested_examples, ['Every other year is a common year (2017, 2019).']);
  });

  it('catches an overshooting Tester and an Implementer editing the spec, and still completes', async () => {
    const weakened = rubySpecFile(RUBY_FIZZBUZZ, 1); // the Implementer drops the failing Fizz example
    const { summary } = await h.run(
      {
        cycles: rubyKataCycles({ ...RUBY_FIZZBUZZ, steps: RUBY_FIZZBUZZ.steps.slice(0, 2) }),
        completeAfterLastCycle: true,
        overrides: {
          'tester:2:1': {
            writes: [{ path: RUBY_FIZZBUZZ.spec, content: alreadyPassing }],
            report: 'four is itself',
            runTests: true,
          },
          'implementer:2:1': {
            writes: [{ path: RUBY_FIZZBUZZ.spec, content: weakened }],
            report: 'the Fizz example was in the way',
            runTests: true,
          },
        },
      },
      { kataPath: 'fizzbuzz', language: 'ruby', maxCycles: 3 },
    );
    assert.equal(summary.totals.overshoots, 1, JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.slice(0, 2).map((c) => c.outcome),
      ['green', 'green'],
    );
    assert.match(JSON.stringify(h.server.chatRequests()), /The Implementer may not change test files/);
    assert.equal(await fileOnBranch(h.workspace, summary.branch, RUBY_FIZZBUZZ.spec), rubySpecFile(RUBY_FIZZBUZZ, 2));
  });
});
