import { ensureCliBundle } from '../../support/cliBundle';
import { assertTaskOnShape } from '../../support/projectShapeSession';
import { requireBubblewrap } from '../osSandbox/fixture';

/**
 * Issue 34 ("the sandbox sees the project as the person has it"), pytest with the Python on PATH and no virtual
 * environment (test/fixtures/projects/py-flat-pytest): a flat project declaring python-dateutil, which the person
 * installed for their python3 with pytest (this machine's pyenv Python has both; else Debian's python3 with
 * python3-dateutil and python3-pytest is put first on PATH). The session must complete, each commit pass
 * `python3 -m pytest` in a fresh clone, and the person's checkout stay byte-identical; the same for the project as a
 * setup.py-only one.
 *
 * On main before the sandbox mechanism (2026-12-04), both are refused before anything is created:
 *   The session's tests need the project's dependencies, which it cannot find or install. In <person>, run:
 *     python3 -m venv .venv && .venv/bin/pip install -e . pytest    (the project declares Python dependencies and
 *     <person> has no virtual environment (.venv, venv or VIRTUAL_ENV))
 */
describe('issue 34: pytest with the python3 on PATH, no virtual environment (built CLI, bubblewrap)', function () {
  this.timeout(600_000);
  before(async function () {
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  it('a pyproject.toml project: two green commits that pass python3 -m pytest in a fresh clone; the checkout untouched', async () => {
    await assertTaskOnShape('py-flat-pytest');
  });

  it('a setup.py-only project: the same', async () => {
    await assertTaskOnShape('py-flat-pytest', { setupPy: true });
  });
});
