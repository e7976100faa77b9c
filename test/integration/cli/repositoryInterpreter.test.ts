import { strict as assert } from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import { access, chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PYTHON_KATAS, pythonKataCycles } from '../../support/pythonKataPlans';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { isolatedEnv, useCliSession } from './cliHarness';

const run = promisify(execFile);
const CLI = join(resolve(__dirname, '..', '..', '..'), 'dist', 'cli.js');
const LEAP = PYTHON_KATAS.find((k) => k.slug === 'leap-year')!;
const TASK = 'Add is_leap_year(year) for the Gregorian calendar';

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** A person's repository: `files` committed on branch `main` (an executable file when its text starts with `#!`). */
async function personRepo(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
    if (content.startsWith('#!')) await chmod(join(dir, path), 0o755);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('add', '-A', '-f');
  git('-c', 'user.name=p', '-c', 'user.email=p@example.com', 'commit', '-q', '-m', 'the library as it is');
}

/** Runs the built `tdd-agent` (its exit code, stdout and stderr; a non-zero exit is not thrown). */
async function tddAgent(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [CLI, ...args], { env, timeout: 110_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** A pytest library's files (src/ layout), with these manifests. */
const library = (manifests: Record<string, string>): Record<string, string> => ({
  ...manifests,
  'src/helpers.py': 'import attrs\n\n\ndef double(n):\n    return 2 * n\n',
  'tests/test_helpers.py': 'from helpers import double\n\n\ndef test_double():\n    assert double(2) == 4\n',
  '.gitignore': '__pycache__/\n',
});

const PYPROJECT = (dependencies: string[]) =>
  `[project]\nname = "calendar-tools"\nversion = "0.1.0"\ndependencies = [${dependencies.map((d) => `"${d}"`).join(', ')}]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n`;

// Issue 34: the preflight ran the interpreter the project named (a committed .venv/bin/python) on the host, as a child
// of the CLI, which holds the API key; and a project whose tests pass with `python3 -m pytest` (PATH, pyenv, no virtual
// environment) was refused for having no virtual environment.
describe('tdd-agent task: the person’s interpreter, never the repository’s, and never on the host (built CLI)', function () {
  this.timeout(120_000);
  // The PATH python3 of this machine must have pytest (and attrs, which the libraries below need).
  before(() => execFileSync('python3', ['-c', 'import pytest, attrs']));
  const session = useCliSession('cli-interpreter-', { bundle: true });
  let elsewhere: string;
  beforeEach(async () => (elsewhere = await session.tempDir('cli-interpreter-host-')));
  const modelArgs = (): string[] => ['--base-url', session.server.baseURL, '--model', 'test-model', '--yes'];
  const env = (): NodeJS.ProcessEnv =>
    isolatedEnv({ OPENAI_API_KEY: 'sk-test-key-the-repository-must-not-read', PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' });

  it('a committed .venv/bin/python never runs on the host: the session runs python3 from PATH in the sandbox', async () => {
    const marker = join(elsewhere, 'interpreter-ran-on-the-host');
    const environ = join(elsewhere, 'cli-environ');
    await personRepo(session.dir, {
      ...library({ 'pyproject.toml': PYPROJECT(['attrs']) }),
      // What a hostile repository commits: an "interpreter" that reads its parent's (the CLI's) environment.
      '.venv/bin/python': `#!/bin/sh\necho ran > '${marker}'\ncat /proc/$PPID/environ > '${environ}' 2>/dev/null\nexec python3 "$@"\n`,
      '.venv/pyvenv.cfg': 'home = /run\n',
    });
    session.server.setFallback(scriptedKataModel({ cycles: pythonKataCycles(LEAP).slice(0, 1) }).reply);
    const r = await tddAgent(['task', TASK, '--workspace', session.dir, ...modelArgs(), '--json'], env());
    assert.equal(await exists(marker), false, 'the repository’s interpreter never ran on the host');
    assert.equal(await exists(environ), false, 'nothing read the CLI’s environment');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { profile: { testCommand: string; python?: unknown }; totals: { commits: number } };
    assert.equal(out.profile.testCommand, 'python3 -m pytest', 'the committed environment is not the person’s');
    assert.equal(out.profile.python && (out.profile.python as { venv?: string }).venv, undefined);
    assert.equal(out.totals.commits, 1);
  });

  for (const [what, manifests] of [
    ['a pytest library declaring its dependencies, without a virtual environment', { 'pyproject.toml': PYPROJECT(['attrs']) }],
    [
      'a setup.py-only library',
      { 'setup.py': 'from setuptools import setup\n\nsetup(name="calendar-tools", install_requires=["attrs"])\n' },
    ],
  ] as const) {
    it(`${what}: python3 from PATH passes the preflight and the baseline, and the session runs`, async () => {
      await personRepo(session.dir, library(manifests));
      session.server.setFallback(scriptedKataModel({ cycles: pythonKataCycles(LEAP).slice(0, 1) }).reply);
      const r = await tddAgent(['task', TASK, '--workspace', session.dir, ...modelArgs(), '--json'], env());
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { status: string; profile: { testCommand: string }; totals: { commits: number } };
      assert.equal(out.status, 'completed');
      assert.equal(out.profile.testCommand, 'python3 -m pytest');
      assert.equal(out.totals.commits, 1, 'the baseline ran and one cycle was committed');
    });
  }

  it('a dependency the interpreter lacks: refused before anything is created, naming it, the interpreter and the way out', async () => {
    await personRepo(session.dir, library({ 'pyproject.toml': PYPROJECT(['attrs', 'no-such-distribution-tdd']) }));
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: session.dir, encoding: 'utf8' });
    const r = await tddAgent(['task', TASK, '--workspace', session.dir, ...modelArgs()], env());
    assert.notEqual(r.code, 0);
    const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
    const shown = python.replace(process.env.HOME ?? '\0', '~'); // the home folder is shown as ~
    assert.ok(r.stderr.includes(`no-such-distribution-tdd is not installed for ${shown}`), r.stderr);
    assert.ok(r.stderr.includes(`${shown} -m pip install no-such-distribution-tdd`), r.stderr);
    assert.match(r.stderr, /python3 -m venv \.venv && \.venv\/bin\/pip install -e \. pytest/);
    assert.equal(session.server.chatRequests().length, 0, 'no model request');
    assert.equal(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: session.dir, encoding: 'utf8' }), head);
    assert.equal(
      execFileSync('git', ['branch', '--list', 'tdd/*'], { cwd: session.dir, encoding: 'utf8' }),
      '',
      'no session branch',
    );
  });
});
