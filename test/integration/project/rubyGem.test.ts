import { ensureCliBundle } from '../../support/cliBundle';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireRspec } from '../../support/rubyToolchain';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * Issue 38, Ruby: a gem as its ecosystem lays it out (test/fixtures/projects/ruby-gem: a gemspec, a Gemfile naming it,
 * `.rspec`, `lib/durations/*.rb`, `spec/durations/*_spec.rb` with a spec_helper, 33 examples, no runtime dependency).
 * A scripted two-cycle `tdd-agent task`, zero-config (the Gemfile, gemspec and .rspec give the language, `rspec` and
 * `spec/`), its examples run by the real rspec in bubblewrap, must complete; each red is a failing example by identity
 * (the first calls `Durations.whole`, not defined yet: a NoMethodError inside the example), each commit passes `rspec`
 * in a fresh clone with one more passing example, and the person's checkout stays byte-identical.
 */
describe('issue 38: a Ruby gem with RSpec (built CLI, bubblewrap, real rspec)', function () {
  this.timeout(600_000);
  before(async function () {
    requireRspec(this);
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('two green commits that pass rspec in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('ruby-gem');
  });
});
