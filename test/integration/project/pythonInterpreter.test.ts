/**
 * Which Python interpreter a project's tests run with: an activated virtual environment's, else the project's own
 * `.venv`, else python3. Each environment found is checked against `git ls-files` (a committed one is the repository's,
 * not the person's), so the detection runs git.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { describeProjectProfile, detectProjectProfile } from '../../../src/core/project';
import { fakeVenv, ProjectFixtures } from '../../unit/project/projectFixtures';

/** No activated virtual environment, whatever the machine running the tests has. */
const ENV = { PATH: process.env.PATH };

describe('project profile: the Python interpreter', () => {
  const fx = new ProjectFixtures();
  after(() => fx.cleanup());

  it("an activated virtual environment's interpreter runs the tests; else one in the project; else python3", async () => {
    const project = { 'pyproject.toml': '[project]\nname = "v"\n' };
    const elsewhere = await fx.make();
    const activated = await fakeVenv(join(elsewhere, 'env with space'));
    const root = await fx.make(project);
    const p = await detectProjectProfile(root, { env: { ...ENV, VIRTUAL_ENV: join(elsewhere, 'env with space') } });
    assert.deepEqual(p.python, { interpreter: activated, venv: join(elsewhere, 'env with space'), activated: true });
    assert.equal(p.testCommand, `'${activated}' -m pytest`, 'a path with a space is quoted for the shell');

    const inProject = await fx.make(project);
    const local = await fakeVenv(join(inProject, '.venv'));
    const q = await detectProjectProfile(inProject, { env: ENV });
    assert.deepEqual(q.python, { interpreter: local, venv: join(inProject, '.venv'), activated: false });
    assert.equal(q.testCommand, `${local} -m pytest`);
    assert.match(describeProjectProfile(q).summary, /virtual environment .*\.venv/);

    const gone = await detectProjectProfile(await fx.make(project), { env: { ...ENV, VIRTUAL_ENV: join(elsewhere, 'missing') } });
    assert.equal(gone.python?.interpreter, 'python3', 'a VIRTUAL_ENV without an interpreter is not used');
  });
});
