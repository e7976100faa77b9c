import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import { CommandTestRunner } from '../../../src/core/testRunners/commandTestRunner';
import { detectProjectProfile } from '../../../src/core/project/detectProjectProfile';
import { requireRspec } from '../../support/rubyToolchain';
import { createWorktree, requireBubblewrap } from '../osSandbox/fixture';

/** The project recorded in test/fixtures/rspec-json: passing, failing, pending and raising examples. */
const PROJECT = resolve('test/fixtures/rspec-json/project');

describe('rspec in the sandbox, with the real toolchain', function () {
  this.timeout(120_000);

  before(async function () {
    requireRspec(this);
    await requireBubblewrap(this);
  });

  it('runs in the bubblewrap sandbox and judges each example by identity, the console as a person reads it', async () => {
    const fixture = createWorktree();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      writeFileSync(join(fixture.worktree, '.rspec'), '--require fizzbuzz\n');
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      assert.equal(runner.kind, 'rspec');
      const result = await runner.run();
      assert.equal(result.status, 'failed', result.output);
      assert.equal(result.command, 'rspec');
      assert.deepEqual([result.passed, result.failed, result.total], [3, 2, 6]);
      assert.deepEqual(
        result.tests?.map((t) => `${t.id} ${t.outcome}`),
        [
          'spec/fizzbuzz_spec.rb::FizzBuzz > says the number itself passed',
          'spec/fizzbuzz_spec.rb::FizzBuzz > says Fizz for multiples of three passed',
          'spec/fizzbuzz_spec.rb::FizzBuzz > says Buzz for multiples of five failed',
          'spec/fizzbuzz_spec.rb::FizzBuzz > says FizzBuzz for multiples of fifteen skipped',
          'spec/fizzbuzz_spec.rb::FizzBuzz with numbers past a hundred > still says the number passed',
          'spec/words_spec.rb::FizzBuzz.of > raises on a string failed',
        ],
      );
      assert.match(result.output, /^6 examples, 2 failures, 1 pending$/m);
      assert.doesNotMatch(result.output, /"examples":/);
    } finally {
      fixture.cleanup();
    }
  });

  it('a new spec naming a class nobody defines is a missing name; one that does not parse a syntax error', async () => {
    const fixture = createWorktree();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      writeFileSync(join(fixture.worktree, '.rspec'), '');
      writeFileSync(
        join(fixture.worktree, 'spec/leap_year_spec.rb'),
        "require 'leap_year'\n\nRSpec.describe LeapYear do\n  it 'is a leap year every fourth year' do\n    expect(LeapYear.leap?(1996)).to be(true)\n  end\nend\n",
      );
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      const missingFile = await runner.run();
      assert.deepEqual(
        [missingFile.status, missingFile.errorKind, missingFile.missingName],
        ['error', 'missing_module', 'leap_year'],
        missingFile.output,
      );
      writeFileSync(join(fixture.worktree, 'lib/leap_year.rb'), '# not yet\n');
      const missingName = await runner.run();
      assert.deepEqual(
        [missingName.status, missingName.errorKind, missingName.missingName],
        ['error', 'missing_export', 'LeapYear'],
      );
      assert.match(
        missingName.reason ?? '',
        /'LeapYear' is not defined — spec\/leap_year_spec\.rb: NameError: uninitialized constant LeapYear/,
      );
      writeFileSync(
        join(fixture.worktree, 'spec/leap_year_spec.rb'),
        "RSpec.describe 'x' do\n  it 'y' do\n    expect(1).to eq(1\n  end\nend\n",
      );
      const broken = await runner.run();
      assert.deepEqual([broken.status, broken.errorKind], ['error', 'syntax'], broken.output);
    } finally {
      fixture.cleanup();
    }
  });

  it("finds a gem the person installed under the hidden HOME, read-only, and never reads HOME's other files", async () => {
    const fixture = createWorktree();
    try {
      const gems = join(fixture.home, '.local/share/gem/ruby');
      const version = readdirSync('/usr/lib/ruby').find((d) => /^\d+\.\d+\.\d+$/.test(d)) ?? '3.1.0';
      const gemDir = join(gems, version);
      mkdirSync(join(gemDir, 'specifications'), { recursive: true });
      mkdirSync(join(gemDir, 'gems/greet-1.0.0/lib'), { recursive: true });
      writeFileSync(
        join(gemDir, 'specifications/greet-1.0.0.gemspec'),
        'Gem::Specification.new do |s|\n  s.name = "greet"\n  s.version = "1.0.0"\n  s.summary = "Greets."\n  s.authors = ["Ada"]\n  s.files = ["lib/greet.rb"]\n  s.require_paths = ["lib"]\nend\n',
      );
      writeFileSync(
        join(gemDir, 'gems/greet-1.0.0/lib/greet.rb'),
        'module Greet\n  def self.hello(name) = "hello #{name}"\nend\n',
      );
      const ws = fixture.worktree;
      writeFileSync(join(ws, 'Gemfile'), 'source "https://rubygems.org"\ngem "greet"\ngem "rspec"\n');
      mkdirSync(join(ws, 'spec'));
      writeFileSync(
        join(ws, 'spec/greet_spec.rb'),
        [
          "require 'greet'",
          '',
          "RSpec.describe 'the gems' do",
          "  it 'loads greet from the person’s gems' do",
          "    expect(Greet.hello('ruby')).to eq('hello ruby')",
          '  end',
          '',
          "  it 'cannot write into them' do",
          "    dir = Gem.loaded_specs['greet'].full_gem_path",
          "    expect { File.write(File.join(dir, 'planted.rb'), '') }.to raise_error(SystemCallError)",
          '  end',
          '',
          "  it 'cannot read the person’s key' do",
          "    expect(File.exist?(File.join(Dir.home, '.ssh', 'id_ed25519'))).to be(false)",
          '  end',
          'end',
          '',
        ].join('\n'),
      );
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(ws, { sandbox, env: { HOME: fixture.home } });
      const result = await runner.run();
      assert.equal(result.status, 'passed', result.output);
      assert.deepEqual(
        result.tests?.map((t) => `${t.id} ${t.outcome}`),
        [
          'spec/greet_spec.rb::the gems > loads greet from the person’s gems passed',
          'spec/greet_spec.rb::the gems > cannot write into them passed',
          'spec/greet_spec.rb::the gems > cannot read the person’s key passed',
        ],
      );
    } finally {
      fixture.cleanup();
    }
  });

  it("a minitest project without RSpec or a Rakefile: its profile's command runs in the sandbox, each test by identity", async () => {
    const fixture = createWorktree();
    try {
      const ws = fixture.worktree;
      writeFileSync(join(ws, 'Gemfile'), 'source "https://rubygems.org"\ngem "minitest"\n');
      mkdirSync(join(ws, 'lib'));
      mkdirSync(join(ws, 'test'));
      writeFileSync(join(ws, 'lib/leap.rb'), 'module Leap\n  def self.leap?(year) = (year % 4).zero?\nend\n');
      writeFileSync(
        join(ws, 'test/leap_test.rb'),
        'require "minitest/autorun"\nrequire "leap"\n\nclass LeapTest < Minitest::Test\n  def test_fourth_year\n    assert Leap.leap?(1996)\n  end\n\n  def test_century\n    refute Leap.leap?(1900)\n  end\nend\n',
      );
      const profile = await detectProjectProfile(ws);
      assert.equal(profile.language, 'ruby');
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = new CommandTestRunner({ workspace: ws, kind: profile.testRunner, command: profile.testCommand, sandbox });
      const result = await runner.run();
      assert.deepEqual([result.status, result.passed, result.failed, result.total], ['failed', 1, 1, 2], result.output);
      assert.deepEqual(
        result.tests?.map((t) => `${t.id} ${t.outcome}`).sort(),
        ['test/leap_test.rb::LeapTest > test_century failed', 'test/leap_test.rb::LeapTest > test_fourth_year passed'],
        'minitest is read test by test, from the reporting plugin (see minitestRuns.test.ts)',
      );
    } finally {
      fixture.cleanup();
    }
  });
});
