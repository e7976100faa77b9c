import { ensureCliBundle } from '../../support/cliBundle';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * A JavaScript runner the session reads by its console counts only, on a library whose tests read the colour
 * environment (test/fixtures/projects/js-uvu-colors, in lukeed/kleur's shape: uvu, `npm ci`, 20 tests, one of them
 * `colours are on by default`). Found on kleur, which the product had not seen: the sandbox set NO_COLOR=1 and
 * FORCE_COLOR=0 for every run, so that test failed there and passed for the person, and uvu's summary was not read.
 * A scripted two-cycle `tdd-agent task`, zero-config, must complete: the baseline green as the person has it, each
 * red one more failing test by uvu's counts, each commit passing `npm test` in a fresh clone with one more test.
 */
describe('a uvu library whose tests read the colour environment (built CLI, bubblewrap, real uvu)', function () {
  this.timeout(600_000);
  before(async function () {
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('two green commits that pass npm test in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('js-uvu-colors');
  });
});
