import { ensureCliBundle } from '../../support/cliBundle';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * Issue 34 ("the sandbox sees the project as the person has it"), `vitest --run --typecheck` on a Yarn 4 install with
 * the node-modules linker (test/fixtures/projects/ts-yarn-vitest-typecheck): vitest's typechecker gives tsc a
 * `tsBuildInfoFile` beside vitest's own files (`node_modules/vitest/dist/tsconfig.tmp.tsbuildinfo`), in the person's
 * node_modules, which the sandbox shows read-only. The session must complete, each commit pass `yarn test` in a fresh
 * clone, and the person's checkout (node_modules included) stay byte-identical.
 *
 * On main before the sandbox mechanism (2026-12-04), the baseline cannot run and the session fails before any request:
 *   The project's tests cannot run in the session's sandbox (`vitest --run --typecheck`): … error TS5033: Could not
 *   write file '<worktree>/node_modules/.tdd-agent/node_modules/vitest/dist/tsconfig.tmp.tsbuildinfo': EROFS:
 *   read-only file system
 */
describe('issue 34: vitest --run --typecheck on a Yarn 4 node-modules install (real yarn install, built CLI, bubblewrap)', function () {
  this.timeout(600_000); // the first run on a machine installs Yarn and the fixture once (then cached in os.tmpdir())
  before(async function () {
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('tdd-agent task: two green commits that pass yarn test in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('ts-yarn-vitest-typecheck');
  });
});
