import { ensureCliBundle } from '../../support/cliBundle';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireCargo } from '../../support/rustToolchain';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * Issue 38, Rust: a Cargo library as its ecosystem lays it out (test/fixtures/projects/rust-crate: three modules, each
 * with its unit tests in its own `#[cfg(test)] mod tests`, integration tests in `tests/`, 27 tests, no dependencies). A
 * scripted two-cycle `tdd-agent task`, zero-config (Cargo.toml gives the language, `cargo test` and `tests/**\/*.rs`),
 * its tests in bubblewrap with the real cargo offline, must complete; the first red is the integration test binary
 * that does not compile because the new test imports `blocks` (E0432), the second a failing test by identity; each
 * commit passes `cargo test` in a fresh clone with one more passing test, and the person's checkout stays
 * byte-identical.
 */
describe('issue 38: a Cargo crate (built CLI, bubblewrap, real cargo)', function () {
  this.timeout(600_000);
  before(async function () {
    requireCargo(this);
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('two green commits that pass cargo test in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('rust-crate');
  });
});
