import { ensureCliBundle } from '../../support/cliBundle';
import { requirePhpunit } from '../../support/phpToolchain';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * Issue 38, PHP: a Composer package as its ecosystem lays it out (test/fixtures/projects/php-composer: PSR-4 `src/`,
 * `tests/*Test.php`, `phpunit.xml.dist` naming a bootstrap that maps composer.json's autoload when there is no
 * `vendor/`, 33 tests, no runtime dependency). A scripted two-cycle `tdd-agent task`, zero-config (composer.json and
 * phpunit.xml.dist give the language, `phpunit`, `*Test.php` in `tests/`), its tests in bubblewrap with the real
 * phpunit, must complete; the first red is a new test calling `Slug::limit`, which does not exist yet (an errored test,
 * by identity), the second a failing test; each commit passes `phpunit` in a fresh clone with one more passing test, and
 * the person's checkout stays byte-identical.
 */
describe('issue 38: a Composer package (built CLI, bubblewrap, real phpunit)', function () {
  this.timeout(600_000);
  before(async function () {
    requirePhpunit(this);
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('two green commits that pass phpunit in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('php-composer');
  });
});
