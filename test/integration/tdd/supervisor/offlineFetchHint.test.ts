import { strict as assert } from 'node:assert';
import { personRepoState } from '../../../support/personRepo';
import { requireCargo } from '../../../support/rustToolchain';
import { requireGo } from '../../../support/goToolchain';
import { requireRspec } from '../../../support/rubyToolchain';
import { initPersonRepo, SessionHarness } from './sessionHarness';

/**
 * A session builds offline, from the caches the person's own runs filled. A project whose dependencies were never
 * fetched on this machine stops at the baseline (no model request), and the refusal names the one command that
 * fetches them in the person's checkout — not "run the same command and fix what it reports", which would pass there.
 */
describe('TDD supervisor: dependencies missing from the offline caches name the fetch command (real go, cargo and ruby in the sandbox)', function () {
  this.timeout(240_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  async function refusal(files: Record<string, string>): Promise<string> {
    await initPersonRepo(h.workspace, files);
    const before = await personRepoState(h.workspace);
    const refused = await h.run({ cycles: [] }, { kataPath: undefined, task: 'add a helper', maxCycles: 1 });
    assert.equal(refused.summary.error?.error_code, 'CONFIG', JSON.stringify(refused.summary.error));
    const message = refused.summary.error!.message;
    assert.equal(h.server.chatRequests().length, 0, 'no model request');
    assert.deepEqual(await personRepoState(h.workspace), before, 'the checkout is untouched');
    return message;
  }

  it('a Go module requiring a module that is not in the module cache: `go mod download`', async function () {
    requireGo(this);
    const message = await refusal({
      'go.mod': 'module example.com/shop\n\ngo 1.19\n\nrequire example.com/tdd-agent-never-fetched v1.0.0\n',
      'shop.go':
        'package shop\n\nimport "example.com/tdd-agent-never-fetched/dep"\n\nfunc Twice(n int) int { return dep.Add(n, n) }\n',
      'shop_test.go':
        'package shop\n\nimport "testing"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(2) != 4 {\n\t\tt.Fatal("twice")\n\t}\n}\n',
    });
    assert.match(message, /module lookup disabled by GOPROXY=off/);
    assert.match(message, /Next step: [^\n]*Go's module cache[^\n]*run `go mod download` once in your checkout/);
    assert.doesNotMatch(message, /run the same command in your checkout/);
  });

  it('a Cargo crate depending on a crate that is not in the registry cache: `cargo fetch`', async function () {
    requireCargo(this);
    const message = await refusal({
      '.gitignore': '/target\n',
      'Cargo.toml':
        '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ntdd-agent-never-fetched = "1"\n',
      'src/lib.rs':
        'pub fn twice(n: i32) -> i32 {\n    n * 2\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn twice() {\n        assert_eq!(super::twice(2), 4);\n    }\n}\n',
    });
    assert.match(message, /no matching package named `tdd-agent-never-fetched` found/);
    assert.match(message, /Next step: [^\n]*cargo's registry cache[^\n]*run `cargo fetch` once in your checkout/);
  });

  it('a gem whose test helper requires a gem not installed for this ruby (ruby/ostruct without bundle install): `bundle install`', async function () {
    requireRspec(this);
    const message = await refusal({
      Gemfile: 'source "https://rubygems.org"\ngem "tdd_agent_never_installed"\n',
      Rakefile: 'require "rake/testtask"\nRake::TestTask.new(:test) { |t| t.libs << "test/lib"; t.ruby_opts << "-rhelper" }\n',
      'lib/shop.rb': 'module Shop\n  def self.twice(n) = n * 2\nend\n',
      'test/lib/helper.rb': 'require "tdd_agent_never_installed"\nrequire "minitest/autorun"\n',
      'test/shop_test.rb':
        'require "shop"\nclass ShopTest < Minitest::Test\n  def test_twice = assert_equal(4, Shop.twice(2))\nend\n',
    });
    assert.match(message, /cannot load such file -- tdd_agent_never_installed/);
    assert.match(message, /Next step: [^\n]*\(tdd_agent_never_installed\)[^\n]*run `bundle install` once in your checkout/);
  });
});
