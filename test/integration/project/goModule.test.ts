import { ensureCliBundle } from '../../support/cliBundle';
import { requireGo } from '../../support/goToolchain';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * Issue 38, Go: a Go module as its ecosystem lays it out (test/fixtures/projects/go-module: one package, `sizes/`, with
 * its `_test.go` files beside the code, 33 tests, the standard library only). A scripted two-cycle `tdd-agent task`,
 * zero-config (go.mod gives the language, `go test ./...` and `*_test.go`), its tests in bubblewrap with the real go
 * toolchain offline, must complete; the first red is the package that does not build because the new test calls
 * `Blocks`, the second a failing test by identity; each commit passes `go test -v ./...` in a fresh clone with one
 * more passing test, and the person's checkout stays byte-identical.
 */
describe('issue 38: a Go module (built CLI, bubblewrap, real go)', function () {
  this.timeout(600_000);
  before(async function () {
    requireGo(this);
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('two green commits that pass go test ./... in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('go-module');
  });
});
