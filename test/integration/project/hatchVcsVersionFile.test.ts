import { ensureCliBundle } from '../../support/cliBundle';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * Issue 34 ("the sandbox sees the project as the person has it"), a hatch-vcs `src/` project
 * (test/fixtures/projects/py-hatch-vcs): hatchling takes the version from the git tag and writes it at install to
 * `src/reqpin/_version.py`, which git ignores, and `reqpin/__init__.py` imports it; the project is installed editable
 * into `.venv` (Debian's python3 with python3-hatchling, python3-hatch-vcs and python3-pytest, offline). The session's
 * worktree has no `_version.py`. The session must complete, each commit pass `.venv/bin/python -m pytest` in a fresh
 * clone installed the same way, and the person's checkout (.venv and _version.py included) stay byte-identical.
 *
 * On main before the sandbox mechanism (2026-12-04), the baseline cannot run and the session fails before any request:
 *   The project's tests cannot run in the session's sandbox (`<person>/.venv/bin/python -m pytest`): module
 *   'reqpin._version' cannot be found — ModuleNotFoundError: No module named 'reqpin._version'
 */
describe('issue 34: a hatch-vcs src/ project whose version file is written at install (editable .venv, built CLI, bubblewrap)', function () {
  this.timeout(600_000);
  before(async function () {
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('tdd-agent task: two green commits that pass the venv’s pytest in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('py-hatch-vcs');
  });
});
