import { strict as assert } from 'node:assert';
import { access } from 'node:fs/promises';
import { AgentError } from '../../../src/core/errors/agentError';
import { fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { git, personRepoState } from '../../support/personRepo';
import { initPersonRepo, SessionHarness } from './sessionHarness';

/**
 * The baseline run comes before any model request, in the session's sandbox: a project whose tests cannot run stops
 * there, with the runner's own words and a next step, instead of spending model requests on a suite that never ran.
 */
describe('TDD supervisor: the baseline must run (real node --test in the sandbox)', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('a Python project without its virtual environment is refused by the preflight, naming the command to run', async () => {
    await initPersonRepo(h.workspace, {
      '.gitignore': '.venv/\n',
      'pyproject.toml':
        '[project]\nname = "mine"\nversion = "0.1.0"\ndependencies = ["packaging>=23"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
      'src/mine/__init__.py': '',
      'tests/test_mine.py': 'def test_nothing():\n    pass\n',
    });
    const before = await personRepoState(h.workspace);
    await assert.rejects(h.run({ cycles: fizzbuzzJs(1) }, { kataPath: undefined, task: 'add a helper' }), (err: unknown) => {
      assert.ok(err instanceof AgentError, String(err));
      assert.equal(err.error_code, 'CONFIG');
      assert.match(err.message, /need the project's dependencies[^]*python3 -m venv \.venv[^]*Nothing was created/);
      return true;
    });
    assert.equal(h.server.chatRequests().length, 0);
    assert.equal(git(h.workspace, 'branch', '--list', 'tdd/*'), '', 'no session branch');
    assert.deepEqual(await personRepoState(h.workspace), before);
  });

  it('a suite that cannot load a dependency stops the session before any model request, in the runner’s words', async () => {
    await initPersonRepo(h.workspace, {
      'package.json': JSON.stringify({ name: 'mine', type: 'module', scripts: { test: 'node --test' } }, null, 2),
      'src/pad.js': "import leftPad from 'left-pad';\nexport const pad = (s) => leftPad(s, 5);\n",
      'test/pad.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { pad } from '../src/pad.js';\ntest('pads', () => assert.equal(pad('a'), '    a'));\n",
    });
    const before = await personRepoState(h.workspace);
    const { summary } = await h.run({ cycles: fizzbuzzJs(2) });
    assert.equal(summary.status, 'failed');
    assert.equal(summary.error?.error_code, 'CONFIG');
    assert.match(summary.error!.message, /cannot run in the session's sandbox \(`node --test`\)/);
    assert.match(summary.error!.message, /left-pad/, 'the runner’s own message');
    assert.match(summary.error!.message, /Next step: install the project's dependencies/);
    assert.match(summary.error!.message, /No model request was made/);
    assert.equal(h.server.chatRequests().length, 0, 'no model request');
    assert.deepEqual(await personRepoState(h.workspace), before);
    // A failed session leaves no worktree behind; its branch stays.
    await assert.rejects(access(h.worktree), 'the failed session’s worktree was removed');
    assert.ok(git(h.workspace, 'branch', '--list', summary.branch), 'its branch stays');
  });
});
