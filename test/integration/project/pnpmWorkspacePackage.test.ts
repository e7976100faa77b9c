import { ensureCliBundle } from '../../support/cliBundle';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * Issue 34 ("the sandbox sees the project as the person has it"), a pnpm workspace package: the person runs
 * `tdd-agent task` in `packages/table` of a pnpm monorepo (test/fixtures/projects/ts-pnpm-workspace), whose vitest tests
 * import `strip-ansi`, a dependency declared by that package only: pnpm links it into `packages/table/node_modules`,
 * not the root's, where vitest is. The session must complete, each commit pass `pnpm test` in a fresh clone, and the
 * person's checkout stay byte-identical.
 *
 * The session's worktree is the whole repository's; the person's `packages/table/node_modules` is shown there by the
 * project view, and the tests run in `packages/table` (with the root's `node_modules/.bin` on PATH, as pnpm does).
 *
 * On main before the sandbox mechanism (2026-12-04), the session is refused before it starts:
 *   Workspace …/person/packages/table is inside the git repository at …/person but is not its root.
 * (Started at the root instead, with --test-command 'vitest run', packages/table's tests fail on "Cannot find package
 * '@textkit/width'": the scope folder `@textkit` of packages/table/node_modules is linked into the read-only mount,
 * where pnpm's relative link `width -> ../../../width` no longer reaches packages/width.)
 */
describe('issue 34: a session in a pnpm workspace package whose tests import that package’s own dependency (real pnpm install, built CLI, bubblewrap)', function () {
  this.timeout(600_000); // the first run on a machine installs the fixture once (then cached in os.tmpdir())
  before(async function () {
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('tdd-agent task in packages/table: two green commits that pass pnpm test in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('ts-pnpm-workspace');
  });
});
