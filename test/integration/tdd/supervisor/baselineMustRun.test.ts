import { strict as assert } from 'node:assert';
import { access } from 'node:fs/promises';
import { AgentError } from '../../../../src/core/errors/agentError';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { git, personRepoState } from '../../../support/personRepo';
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

  it('a Python project whose interpreter lacks a declared dependency is refused by the preflight, naming it and the command to run', async () => {
    await initPersonRepo(h.workspace, {
      '.gitignore': '.venv/\n',
      'pyproject.toml':
        '[project]\nname = "mine"\nversion = "0.1.0"\ndependencies = ["tdd-agent-missing-dist>=1"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
      'src/mine/__init__.py': '',
      'tests/test_mine.py': 'def test_nothing():\n    pass\n',
    });
    const before = await personRepoState(h.workspace);
    await assert.rejects(h.run({ cycles: fizzbuzzJs(1) }, { kataPath: undefined, task: 'add a helper' }), (err: unknown) => {
      assert.ok(err instanceof AgentError, String(err));
      assert.equal(err.error_code, 'CONFIG');
      assert.match(err.message, /tdd-agent-missing-dist is not installed for [^]*python3 -m venv \.venv/);
      return true;
    });
    assert.equal(h.server.chatRequests().length, 0);
    assert.equal(git(h.workspace, 'branch', '--list', 'tdd/*'), '', 'no session branch');
    assert.deepEqual(await personRepoState(h.workspace), before);
  });

  it("pytest's addopts naming a plugin that is not installed: the refusal names it, and the command it suggests runs", async () => {
    const files = {
      'pyproject.toml':
        '[project]\nname = "sl"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\naddopts = "--cov=sl --cov-report=term-missing"\n',
      'sl/__init__.py': '',
      'sl/core.py': 'def first(xs):\n    return xs[0]\n',
      'tests/test_core.py': 'from sl.core import first\n\n\ndef test_first():\n    assert first([2]) == 2\n',
    };
    await initPersonRepo(h.workspace, files);
    const task = { kataPath: undefined, task: 'Add last(xs)', maxCycles: 1 };
    const refused = await h.run({ cycles: [] }, task);
    assert.equal(refused.summary.error?.error_code, 'CONFIG');
    const message = refused.summary.error!.message;
    assert.match(message, /the pytest plugin pytest-cov is not installed — error: unrecognized arguments: --cov=sl/);
    assert.match(message, /Next step: install pytest-cov in the project's environment \(`python3 -m pip install pytest-cov`\)/);
    const override = /--test-command "([^"]+)"/.exec(message)?.[1];
    assert.equal(override, "python3 -m pytest -o addopts=''");
    assert.doesNotMatch(message, /run the same command in your checkout/);
    assert.equal(h.server.chatRequests().length, 0);

    // The suggested command, as the person would pass it: the session runs (through the sandbox) and reaches green.
    const last = 'def test_last():\n    assert last([1, 2]) == 2\n';
    const run = await h.run(
      {
        cycles: [
          {
            tester: {
              edits: [
                {
                  path: 'tests/test_core.py',
                  edits: [
                    { search: 'import first\n', replace: 'import first, last\n' },
                    { search: '== 2\n', replace: `== 2\n\n\n${last}` },
                  ],
                },
              ],
              report: 'last',
            },
            implementer: {
              edits: [
                { path: 'sl/core.py', edits: [{ search: 'xs[0]\n', replace: 'xs[0]\n\n\ndef last(xs):\n    return xs[-1]\n' }] },
              ],
              report: 'last',
            },
          },
        ],
      },
      { ...task, project: { testCommand: override! } },
    );
    assert.equal(run.summary.status, 'max_cycles', JSON.stringify(run.summary.error));
    assert.equal(run.summary.totals.commits, 1);
    assert.equal(run.summary.totals.tests_passed, 2);
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
