import { strict as assert } from 'node:assert';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  prepareProject,
  projectProfileEvent,
  projectRunnerOptions,
  resolveSessionKata,
} from '../../../src/core/tdd/supervisor/workspaceSetup';
import { json, ProjectFixtures } from './projectFixtures';

const ENV = { PATH: process.env.PATH };

describe('a session’s kata fitted to the project (workspaceSetup)', () => {
  const fx = new ProjectFixtures();
  after(() => fx.cleanup());
  const pythonLibrary = {
    'pyproject.toml': '[project]\nname = "sqlhelpers"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    'src/sqlhelpers/__init__.py': '',
    'tests/test_keys.py': '',
  };

  it('a bundled kata without language: on a Python project it runs in Python, in its folders', async () => {
    const root = await fx.make(pythonLibrary);
    const kata = await resolveSessionKata({ workspace: root, kataPath: 'fizzbuzz', env: ENV });
    assert.equal(kata.slug, 'fizzbuzz');
    assert.equal(kata.language, 'python');
    assert.equal(kata.sourceDir, 'src/sqlhelpers');
    assert.equal(kata.testDir, 'tests');
    assert.deepEqual(kata.testFilePatterns, ['tests/**']);
    assert.equal(kata.testCommand, undefined);
    assert.equal(kata.project?.fields.language, 'detected');
  });

  it('a bundled kata on an empty folder keeps the JavaScript defaults', async () => {
    const kata = await resolveSessionKata({ workspace: await fx.make(), kataPath: 'fizzbuzz', env: ENV });
    assert.equal(kata.language, 'javascript');
    assert.equal(kata.sourceDir, 'src');
    assert.equal(kata.testDir, 'test');
  });

  it('a task takes the language and folders from the profile; --language and flags win', async () => {
    const root = await fx.make(pythonLibrary);
    const task = await resolveSessionKata({ workspace: root, task: 'Add a foreign_key helper', env: ENV });
    assert.equal(task.title, 'Add a foreign_key helper');
    assert.equal(task.slug, 'add-a-foreign-key-helper');
    assert.equal(task.language, 'python');
    assert.equal(task.task, true);
    const flagged = await resolveSessionKata({
      workspace: root,
      task: { text: 'Add a helper', context: 'File: a.py' },
      language: 'javascript',
      project: { testCommand: 'node --test', sourceDir: 'js', testFilePatterns: ['js/**/*.test.js'] },
      env: ENV,
    });
    assert.equal(flagged.language, 'javascript');
    assert.equal(flagged.testCommand, 'node --test');
    assert.equal(flagged.sourceDir, 'js');
    assert.deepEqual(flagged.testFilePatterns, ['js/**/*.test.js']);
    assert.equal(flagged.description, 'Add a helper\n\nFile: a.py');
    assert.equal(flagged.project?.fields.testCommand, 'flag');
    await assert.rejects(resolveSessionKata({ workspace: root, env: ENV }), /Nothing to run/);
  });

  it('no scaffold is ever written into a folder with a manifest; an empty folder gets one', async () => {
    for (const manifest of [
      'package.json',
      'pyproject.toml',
      'setup.cfg',
      'setup.py',
      'requirements.txt',
      'requirements-dev.txt',
    ]) {
      const root = await fx.make({ [manifest]: manifest === 'package.json' ? json({ name: 'x' }) : '' });
      const kata = await resolveSessionKata({ workspace: root, kataPath: 'fizzbuzz', env: ENV });
      assert.equal(await prepareProject(root, kata), false, manifest);
      assert.deepEqual(await readdir(root), [manifest], `${manifest}: nothing was written`);
    }
    const empty = await fx.make({ 'README.md': '# mine\n' });
    const kata = await resolveSessionKata({ workspace: empty, kataPath: 'fizzbuzz', env: ENV });
    assert.equal(await prepareProject(empty, kata), true);
    assert.deepEqual((await readdir(empty)).sort(), ['.gitignore', 'README.md', 'package.json', 'src', 'test']);
  });

  it('what the runner detection gets: a detected script is found again; a Python src/ layout imports from the worktree', async () => {
    const vitest = await fx.make({
      'package.json': json({ name: 'v', scripts: { test: 'vitest run' }, devDependencies: { vitest: '^2' } }),
    });
    const js = await resolveSessionKata({ workspace: vitest, kataPath: 'fizzbuzz', env: ENV });
    assert.deepEqual(projectRunnerOptions(js, '/wt', false), { testCommand: undefined });

    const py = await resolveSessionKata({ workspace: await fx.make(pythonLibrary), kataPath: 'fizzbuzz', env: ENV });
    const options = projectRunnerOptions(py, '/wt', false);
    assert.equal(options.testCommand, 'python3 -m pytest');
    assert.match(options.env!.PYTHONPATH!, /^\/wt\/src(:|$)/);

    const empty = await resolveSessionKata({ workspace: await fx.make(), kataPath: 'fizzbuzz', language: 'python', env: ENV });
    assert.deepEqual(
      projectRunnerOptions(empty, '/wt', true).testCommand,
      undefined,
      "a scaffolded project runs the scaffold's command",
    );
  });

  it('the project_profile event carries the command that actually runs', async () => {
    const kata = await resolveSessionKata({ workspace: await fx.make(), kataPath: 'fizzbuzz', language: 'typescript', env: ENV });
    const event = projectProfileEvent(kata, { command: "tsx --test $(find test -name '*.test.ts')", name: 'node-test' }, true);
    assert.equal(event?.type, 'project_profile');
    assert.equal(event?.profile.testCommand, "tsx --test $(find test -name '*.test.ts')");
    assert.equal(event?.profile.testRunner, 'node-test');
    assert.equal(event?.scaffolded, true);
    assert.equal(event?.task, false);
    assert.equal(event?.profile.root, join(kata.project!.root));
  });
});
