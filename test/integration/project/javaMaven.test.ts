import { ensureCliBundle } from '../../support/cliBundle';
import { requireMaven } from '../../support/javaToolchain';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * Issue 38, Java: a Maven project as its ecosystem lays it out (test/fixtures/projects/java-maven: com.acme:textcase,
 * `src/main/java/com/acme/textcase`, JUnit 5 tests in `src/test/java` through Surefire, 36 tests with parameterized
 * ones, no runtime dependency, `target/` ignored). A scripted two-cycle `tdd-agent task`, zero-config (pom.xml gives the
 * language, `mvn -o -B test`, the tests in `src/test/`), its tests in bubblewrap with the real mvn building offline
 * from ~/.m2, must complete; the first red is a new test calling `CaseFormat.kebab`, which does not exist yet (a
 * compile error, judged by identity), the second a failing test; each commit passes `mvn -o -B test` in a fresh clone
 * with one more passing test, `target/` in neither, and the person's checkout stays byte-identical.
 */
describe('issue 38: a Maven project (built CLI, bubblewrap, real mvn)', function () {
  this.timeout(600_000);
  before(async function () {
    requireMaven(this);
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('two green commits that pass mvn -o test in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('java-maven');
  });
});
