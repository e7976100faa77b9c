import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describeProjectProfile } from '../../../src/core/project/describeProfile';
import { detectProjectProfile, resolveProjectProfile } from '../../../src/core/project/detectProjectProfile';
import { MINITEST_COMMAND } from '../../../src/core/project/rubyProject';
import { sandboxEnvironment } from '../../../src/core/osSandbox/sandboxEnvironment';
import { toolchainsUnderHome } from '../../../src/core/osSandbox/policyPaths';
import { isTestFile } from '../../../src/core/tdd/boundaries/isTestFile';
import { parseKata } from '../../../src/core/tdd/kata/parseKata';
import { scaffoldPlan } from '../../../src/core/tdd/scaffold/scaffoldFiles';
import { checkTestRunner } from '../../../src/core/tdd/supervisor/preflight';

describe('a Ruby project: its profile, its scaffold, its gems in the sandbox', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ruby-profile-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a Rakefile linked out of the repository is not read (a hostile clone); one linked within it is', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'ruby-outside-'));
    try {
      await writeFile(join(outside, 'Rakefile'), 'require "rake/testtask"\nRake::TestTask.new\n');
      await writeFile(join(dir, 'Gemfile'), 'source "https://rubygems.org"\n');
      await mkdir(join(dir, 'test'));
      await symlink(join(outside, 'Rakefile'), join(dir, 'Rakefile'));
      assert.equal((await detectProjectProfile(dir)).testCommand, MINITEST_COMMAND, 'the Rakefile out of the clone was not read');
      // A relative link that climbs out is the same.
      await rm(join(dir, 'Rakefile'));
      await symlink(relative(dir, join(outside, 'Rakefile')), join(dir, 'Rakefile'));
      assert.equal((await detectProjectProfile(dir)).testCommand, MINITEST_COMMAND);
      // Within the repository, the link is followed.
      await rm(join(dir, 'Rakefile'));
      await mkdir(join(dir, 'tasks'));
      await writeFile(join(dir, 'tasks/Rakefile'), 'require "rake/testtask"\nRake::TestTask.new\n');
      await symlink('tasks/Rakefile', join(dir, 'Rakefile'));
      assert.equal((await detectProjectProfile(dir)).testCommand, 'rake test');
      // A folder on the way that is a link out of the repository is not followed either.
      await rm(join(dir, 'Rakefile'));
      await rm(join(dir, 'tasks'), { recursive: true });
      await symlink(outside, join(dir, 'tasks'));
      await symlink('tasks/Rakefile', join(dir, 'Rakefile'));
      assert.equal((await detectProjectProfile(dir)).testCommand, MINITEST_COMMAND);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('a gem with RSpec: language ruby, `rspec`, spec/**/*_spec.rb and the rest of spec/, lib/ as source', async () => {
    await writeFile(join(dir, 'Gemfile'), 'source "https://rubygems.org"\ngemspec\n');
    await writeFile(
      join(dir, 'sizes.gemspec'),
      'Gem::Specification.new do |s|\n  s.add_development_dependency "rspec", "~> 3.12"\nend\n',
    );
    await writeFile(join(dir, '.rspec'), '--require spec_helper\n');
    await mkdir(join(dir, 'lib'));
    await mkdir(join(dir, 'spec'));
    await writeFile(join(dir, 'spec/spec_helper.rb'), '');
    const profile = await detectProjectProfile(dir);
    assert.equal(profile.language, 'ruby');
    assert.deepEqual(profile.languages, ['ruby']);
    assert.equal(profile.testRunner, 'rspec');
    assert.equal(profile.testCommand, 'rspec');
    assert.deepEqual(profile.testFilePatterns, ['spec/**/*_spec.rb', 'spec/**']);
    assert.deepEqual(profile.sourceRoots, ['lib']);
    assert.equal(profile.testDir, 'spec');
    assert.equal(profile.testsBesideSource, false);
    assert.deepEqual(profile.manifests, ['.rspec', 'Gemfile', 'sizes.gemspec']);
    assert.match(describeProjectProfile(profile).summary, /^Ruby, RSpec \(`rspec`\)/);
    const rules = { testDir: profile.testDir, sourceDir: profile.sourceRoots[0], testFilePatterns: profile.testFilePatterns };
    assert.ok(isTestFile('spec/sizes/parse_spec.rb', rules));
    assert.ok(isTestFile('spec/spec_helper.rb', rules));
    assert.ok(!isTestFile('lib/sizes/parse.rb', rules));
  });

  it('a minitest project: `rake test` with a Rakefile, ruby requiring each test file without one', async () => {
    await writeFile(join(dir, 'Gemfile'), 'source "https://rubygems.org"\ngem "minitest"\n');
    await mkdir(join(dir, 'test'));
    await mkdir(join(dir, 'lib'));
    let profile = await detectProjectProfile(dir);
    assert.equal(profile.language, 'ruby');
    assert.equal(profile.testCommand, MINITEST_COMMAND);
    assert.equal(profile.testRunner, 'minitest');
    assert.equal(profile.testDir, 'test');
    assert.deepEqual(profile.testFilePatterns, ['test/**/*_test.rb', 'test/**/test_*.rb', 'test/**']);
    await writeFile(join(dir, 'Rakefile'), 'require "rake/testtask"\nRake::TestTask.new(:test)\n');
    profile = await detectProjectProfile(dir);
    assert.equal(profile.testCommand, 'rake test');
    assert.equal(profile.testRunner, 'minitest');
  });

  it('is overridable as any profile: a flag names `bundle exec rspec`', async () => {
    await writeFile(join(dir, '.rspec'), '');
    const profile = await resolveProjectProfile(dir, { overrides: { testCommand: 'bundle exec rspec' }, readConfigFile: false });
    assert.equal(profile.testCommand, 'bundle exec rspec');
    assert.equal(profile.fields.testCommand, 'flag');
    assert.equal(profile.testRunner, 'rspec');
  });

  it('a kata in Ruby gets a Gemfile, .rspec and a spec_helper, and runs rspec', () => {
    const plan = scaffoldPlan('ruby', { slug: 'fizzbuzz', title: 'FizzBuzz', sourceDir: 'lib', testDir: 'spec' });
    assert.deepEqual(Object.keys(plan.files).sort(), ['.rspec', 'Gemfile', 'lib/.gitkeep', 'spec/spec_helper.rb']);
    assert.equal(plan.testCommand, 'rspec');
  });

  it('a machine without rspec says so in one line, and what to install', async () => {
    const kata = parseKata(readFileSync('katas/fizzbuzz.md', 'utf8'), { fileName: 'fizzbuzz.md', language: 'ruby' });
    assert.deepEqual([kata.sourceDir, kata.testDir], ['lib', 'spec']);
    await assert.rejects(checkTestRunner(kata, { env: { PATH: dir } }), (e: Error) => {
      assert.equal(
        e.message,
        "The tests run with 'rspec', but 'rspec' is not installed or not on PATH. Install Ruby and RSpec (Debian and Ubuntu: apt-get install ruby ruby-rspec; macOS: brew install ruby, then gem install rspec), or name another test command (testCommand in tdd-agent.json), then start again.",
      );
      return true;
    });
  });

  it("shows the person's gems under the hidden HOME read-only, never ~/.gem's credentials, and passes GEM_* in", async () => {
    const home = dir;
    await mkdir(join(home, '.gem/ruby/3.1.0/gems'), { recursive: true });
    await writeFile(join(home, '.gem/credentials'), '---\n:rubygems_api_key: rubygems_0123\n');
    await mkdir(join(home, 'gems/bundle'), { recursive: true });
    const shown = toolchainsUnderHome({ GEM_HOME: join(home, 'gems/bundle'), PATH: '/usr/bin' }, home);
    assert.deepEqual(shown.sort(), [join(home, '.gem/ruby'), join(home, 'gems/bundle')].sort());
    assert.deepEqual(toolchainsUnderHome({ GEM_HOME: join(home, '.gem'), PATH: '' }, home), [join(home, '.gem/ruby')]);
    const inside = sandboxEnvironment({
      PATH: '/usr/bin',
      GEM_HOME: '/opt/gems',
      GEM_PATH: '/opt/gems:/usr/lib/ruby/gems',
      RUBYOPT: '-rbundler/setup',
    });
    assert.equal(inside.GEM_HOME, '/opt/gems');
    assert.equal(inside.GEM_PATH, '/opt/gems:/usr/lib/ruby/gems');
    assert.equal(inside.RUBYOPT, undefined);
  });
});
